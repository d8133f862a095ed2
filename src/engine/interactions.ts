import type { ContactSource } from '../schemas/contacts.js';
import {
  publicCommentInputSchema,
  publicPostInputSchema,
  publicVoteInputSchema,
  type Comment,
  type PublicCommentInput,
  type PublicPostInput,
  type PublicVoteInput,
  type Vote,
} from '../schemas/interactions.js';
import type { Post } from '../schemas/posts.js';
import { FeedbackError, parseInput, validationError } from './errors.js';
import { requireBoard } from './shared/boards.js';
import { readContactCap } from './shared/caps.js';
import { insertContact } from './shared/contacts.js';
import { hashEmail, suppressionDigest } from './shared/email.js';
import { notifyReply } from './notifications/outbox.js';
import * as subscriptions from './store/mail-subscriptions.js';
import { postTopic } from './store/mail-subscriptions.js';
import * as suppressions from './store/suppressions.js';
import { newId } from './shared/ids.js';
import { insertPost } from './shared/posts.js';
import { withSlugRetry } from './shared/slugs.js';
import * as comments from './store/comments.js';
import * as contacts from './store/contacts.js';
import { emit } from './store/events.js';
import * as posts from './store/posts.js';
import type { Database, Sql } from './store/sql.js';
import * as votes from './store/votes.js';

/**
 * The contact an interaction is linked to. The workspace's contact with this email (oldest first), its lastSeenAt
 * advanced, with the notify-me opt-in or for a person the workspace vouched for (a portal token: identify made their
 * contact). With the opt-in and no such contact, a new one with the interaction's `source` and consentBasis
 * `public_interaction_opt_in` (and its `contact.created`); a workspace at its contact cap keeps the interaction without
 * one. The opt-in is a fresh one: an erased address comes off the suppression list. Otherwise, none.
 */
async function interactionContact(
  tx: Sql,
  organizationId: string,
  who: { email: string; name?: string; notifyMe: boolean; vouched?: boolean },
  source: ContactSource,
  now: Date,
): Promise<string | null> {
  if (!who.notifyMe && !who.vouched) return null;
  if (who.notifyMe) {
    const salt = await suppressions.saltOf(tx, organizationId, false);
    if (salt) await suppressions.lift(tx, organizationId, suppressionDigest(salt, who.email));
  }
  const existing = await contacts.findIdByEmailHash(tx, organizationId, hashEmail(who.email)!);
  if (existing) {
    await contacts.touch(tx, existing, now);
    return existing;
  }
  if (!who.notifyMe) return null;
  try {
    const created = await insertContact(
      tx,
      organizationId,
      { externalUserId: null, email: who.email, name: who.name ?? null, plan: null, mrrCents: null, currency: null, metadata: {}, source, consentBasis: 'public_interaction_opt_in' },
      now,
      await readContactCap(tx, organizationId),
    );
    return created?.id ?? null;
  } catch (err) {
    // The end-user's feedback is not refused because the workspace reached its contact cap.
    if (err instanceof FeedbackError && err.code === 'ERR_PLAN_LIMIT') return null;
    throw err;
  }
}

/** Ticking notify-me subscribes the contact to the post's updates (its own opt-in, with its time). */
async function subscribeOptIn(tx: Sql, organizationId: string, contactId: string | null, notifyMe: boolean, postId: string, now: Date): Promise<void> {
  if (contactId && notifyMe) await subscriptions.subscribe(tx, { organizationId, contactId, topic: postTopic(postId), via: 'opt_in', createdAt: now });
}

/** A live post on a public board of the workspace; a private board's posts are not found by the public. */
async function publicPost(tx: Sql, organizationId: string, postId: string): Promise<Post> {
  const post = await posts.findLive(tx, organizationId, postId, true);
  if (!post || !(await requireBoard(tx, organizationId, post.boardId)).isPublic) throw new FeedbackError('ERR_NOT_FOUND', `No post with id ${postId}.`);
  return post;
}

/**
 * What end-users do on a workspace's public boards: file a post, vote, comment. Each runs in one transaction with its
 * events (and the contact's, with the opt-in), its subscription (with the opt-in) and the mail it causes (a comment).
 */
export function createInteractionsService(db: Database, organizationId: string, clock: () => Date) {
  const org = organizationId;
  return {
    /** File a post on a public board; `held` keeps it `pending` (and unannounced) until it is approved. */
    async post(input: PublicPostInput, options: { held?: boolean } = {}): Promise<Post> {
      const i = parseInput(publicPostInputSchema, input);
      return withSlugRetry(() =>
        db.transaction(async (tx) => {
          const board = await requireBoard(tx, org, i.boardId);
          if (!board.isPublic) throw new FeedbackError('ERR_NOT_FOUND', `No board with id ${i.boardId}.`);
          const now = clock();
          const contactId = await interactionContact(tx, org, i, 'public_post', now);
          const post = await insertPost(
            tx,
            org,
            { boardId: i.boardId, title: i.title, body: i.body, contactId, authorUserId: i.authorUserId ?? null, authorName: i.name ?? null, moderationStatus: options.held ? 'pending' : 'approved' },
            now,
          );
          await subscribeOptIn(tx, org, contactId, i.notifyMe, post.id, now);
          return post;
        }),
      );
    },

    /** Vote on a post: one vote per voter (user id, or email for anonymous voters) and post. */
    async vote(input: PublicVoteInput): Promise<Vote> {
      const i = parseInput(publicVoteInputSchema, input);
      return db.transaction(async (tx) => {
        const post = await publicPost(tx, org, i.postId);
        const now = clock();
        const contactId = await interactionContact(tx, org, i, 'public_vote', now);
        const emailHash = hashEmail(i.email)!;
        const vote: Vote = { id: newId('vote', now.getTime()), postId: post.id, userId: i.userId ?? null, contactId, createdAt: now.toISOString() };
        if (!(await votes.insert(tx, { ...vote, organizationId: org, emailHash, voterKey: votes.voterKey(vote.userId, emailHash), createdAt: now })))
          throw new FeedbackError('ERR_CONFLICT', 'This voter has already voted on this post.');
        await subscribeOptIn(tx, org, contactId, i.notifyMe, post.id, now);
        await emit(
          tx,
          { event: 'vote.created', organizationId: org, boardId: post.boardId, vote: { id: vote.id, postId: post.id, userId: vote.userId, createdAt: vote.createdAt } },
          now,
        );
        return vote;
      });
    },

    /** Comment on a post, or reply to one of its comments. */
    async comment(input: PublicCommentInput): Promise<Comment> {
      const i = parseInput(publicCommentInputSchema, input);
      return db.transaction(async (tx) => {
        const post = await publicPost(tx, org, i.postId);
        const parent = i.parentId ? await comments.findOnPost(tx, i.parentId, post.id) : null;
        if (i.parentId && !parent) throw validationError([{ path: 'parentId', code: 'not_found', message: `No comment with id ${i.parentId} on this post.` }]);
        const now = clock();
        const contactId = await interactionContact(tx, org, i, 'public_comment', now);
        const comment: Comment = {
          id: newId('cmt', now.getTime()),
          postId: post.id,
          parentId: i.parentId ?? null,
          authorUserId: i.authorUserId ?? null,
          contactId,
          bodyText: i.bodyText,
          createdAt: now.toISOString(),
        };
        await comments.insert(tx, { ...comment, organizationId: org, authorName: i.name ?? null, emailHash: hashEmail(i.email), createdAt: now });
        await subscribeOptIn(tx, org, contactId, i.notifyMe, post.id, now);
        const { contactId: _contactId, ...payload } = comment;
        const changeId = await emit(tx, { event: 'comment.created', organizationId: org, boardId: post.boardId, comment: payload }, now);
        await notifyReply(tx, { organizationId: org, changeId, now }, post, { id: comment.id, bodyText: comment.bodyText, authorName: i.name ?? null, email: i.email }, parent ?? null);
        return comment;
      });
    },
  };
}
export type InteractionsService = ReturnType<typeof createInteractionsService>;
