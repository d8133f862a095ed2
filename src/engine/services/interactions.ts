import type { ContactSource } from '../../schemas/contacts.js';
import {
  publicCommentInputSchema,
  publicPostInputSchema,
  publicVoteInputSchema,
  type Comment,
  type PublicCommentInput,
  type PublicPostInput,
  type PublicVoteInput,
  type Vote,
} from '../../schemas/interactions.js';
import type { Post } from '../../schemas/posts.js';
import { FeedbackError, parseInput, validationError } from '../errors.js';
import { hashEmail } from '../internal/email.js';
import { newId } from '../internal/ids.js';
import { ts, type Database, type Sql } from '../internal/sql.js';
import { insertContact, readContactCap } from './contacts.js';
import { emitEvent } from './events.js';
import { insertPost, readBoard, readLivePost, withSlugRetry } from './posts.js';

/**
 * With the notify-me opt-in: the workspace's contact with this email (oldest first), its lastSeenAt
 * advanced; or a new contact with the interaction's `source` and consentBasis `public_interaction_opt_in`
 * (and its `contact.created`). A workspace at its contact cap keeps the interaction without a contact.
 */
async function optInContact(
  tx: Sql,
  organizationId: string,
  who: { email: string; name?: string },
  source: ContactSource,
  now: Date,
): Promise<string | null> {
  const existing = await tx.one<{ id: string }>(
    'SELECT id FROM contact WHERE organization_id = ? AND email_hash = ? ORDER BY created_at, id LIMIT 1',
    [organizationId, hashEmail(who.email)],
  );
  if (existing) {
    await tx.all('UPDATE contact SET last_seen_at = ? WHERE id = ? AND last_seen_at < ? RETURNING id', [ts(tx, now), existing.id, ts(tx, now)]);
    return existing.id;
  }
  try {
    const created = await insertContact(
      tx,
      organizationId,
      {
        externalUserId: null,
        email: who.email,
        name: who.name ?? null,
        plan: null,
        mrrCents: null,
        currency: null,
        metadata: {},
        source,
        consentBasis: 'public_interaction_opt_in',
      },
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

/** A live post on a public board of the workspace; a private board's posts are not found by the public. */
async function publicPost(tx: Sql, organizationId: string, postId: string): Promise<Post> {
  const post = await readLivePost(tx, organizationId, postId, true);
  const board = await readBoard(tx, organizationId, post.boardId);
  if (!board.isPublic) throw new FeedbackError('ERR_NOT_FOUND', `No post with id ${postId}.`);
  return post;
}

/**
 * What end-users do on a workspace's public boards: file a post, vote, comment. Each runs in one
 * transaction with its events (and the contact's, with the opt-in).
 */
export function createInteractionsService(db: Database, organizationId: string, clock: () => Date) {
  const org = organizationId;
  return {
    /** File a post on a public board. */
    async post(input: PublicPostInput): Promise<Post> {
      const i = parseInput(publicPostInputSchema, input);
      return withSlugRetry(() =>
        db.transaction(async (tx) => {
          const board = await readBoard(tx, org, i.boardId);
          if (!board.isPublic) throw new FeedbackError('ERR_NOT_FOUND', `No board with id ${i.boardId}.`);
          const now = clock();
          const contactId = i.notifyMe ? await optInContact(tx, org, i, 'public_post', now) : null;
          return insertPost(
            tx,
            org,
            { boardId: i.boardId, title: i.title, body: i.body, contactId, authorUserId: i.authorUserId ?? null, moderationStatus: 'approved' },
            now,
          );
        }),
      );
    },

    /** Vote on a post: one vote per voter (user id, or email for anonymous voters) and post. */
    async vote(input: PublicVoteInput): Promise<Vote> {
      const i = parseInput(publicVoteInputSchema, input);
      return db.transaction(async (tx) => {
        const post = await publicPost(tx, org, i.postId);
        const now = clock();
        const contactId = i.notifyMe ? await optInContact(tx, org, i, 'public_vote', now) : null;
        const emailHash = hashEmail(i.email);
        const vote: Vote = { id: newId('vote', now.getTime()), postId: post.id, userId: i.userId ?? null, contactId, createdAt: now.toISOString() };
        const inserted = await tx.all(
          `INSERT INTO vote (id, organization_id, post_id, user_id, email_hash, voter_key, contact_id, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (post_id, voter_key) DO NOTHING RETURNING id`,
          [vote.id, org, post.id, vote.userId, emailHash, vote.userId ? `u:${vote.userId}` : `e:${emailHash}`, contactId, ts(tx, now)],
        );
        if (inserted.length === 0) throw new FeedbackError('ERR_CONFLICT', 'This voter has already voted on this post.');
        await tx.all('UPDATE post SET vote_count = vote_count + 1 WHERE id = ? RETURNING id', [post.id]);
        await emitEvent(
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
        if (i.parentId) {
          const parent = await tx.one('SELECT id FROM comment WHERE id = ? AND post_id = ?', [i.parentId, post.id]);
          if (!parent) throw validationError([{ path: 'parentId', code: 'not_found', message: `No comment with id ${i.parentId} on this post.` }]);
        }
        const now = clock();
        const contactId = i.notifyMe ? await optInContact(tx, org, i, 'public_comment', now) : null;
        const comment: Comment = {
          id: newId('cmt', now.getTime()),
          postId: post.id,
          parentId: i.parentId ?? null,
          authorUserId: i.authorUserId ?? null,
          contactId,
          bodyText: i.bodyText,
          createdAt: now.toISOString(),
        };
        await tx.all(
          `INSERT INTO comment (id, organization_id, post_id, parent_id, author_user_id, email_hash, contact_id, body_text, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
          [comment.id, org, post.id, comment.parentId, comment.authorUserId, hashEmail(i.email), contactId, comment.bodyText, ts(tx, now)],
        );
        await tx.all('UPDATE post SET comment_count = comment_count + 1 WHERE id = ? RETURNING id', [post.id]);
        const { contactId: _contactId, ...payload } = comment;
        await emitEvent(tx, { event: 'comment.created', organizationId: org, boardId: post.boardId, comment: payload }, now);
        return comment;
      });
    },
  };
}
export type InteractionsService = ReturnType<typeof createInteractionsService>;
