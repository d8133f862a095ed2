import { textFault } from '../../schemas/input.js';
import { FeedbackError, maskEmail, validationError } from '../shared/index.js';
import {
  contacts,
  mailPreferences,
  mailRecipients,
  mailSubscriptions,
  mailUnsubscribes,
  posts,
  type Sql,
  type WorkspaceContext,
} from '../store/index.js';
import type { MailRecipient } from './tokens.js';
import { CHANGELOG_TOPIC, postIdOf, postTopic } from './topics.js';

export type Digest = mailPreferences.Digest;
export const DIGESTS = mailPreferences.DIGESTS;

/** The most followed posts a preferences page lists, and so the most one change of it names. */
export const MAX_FOLLOWED_POSTS = 200;

/** What one address gets from a workspace, as its preferences page shows it. */
export interface MailPreferences {
  /** The address, masked (`a***@example.com`): the page is reached by a link, and may be shown to whoever holds it. */
  email: string;
  /** Unsubscribed from everything. */
  all: boolean;
  /** Updates about posts they take part in or asked about (status changes, replies to what they wrote). */
  posts: boolean;
  /** The changelog. */
  changelog: boolean;
  digest: Digest;
  /** The posts they subscribed to, each on or off. */
  subscriptions: Array<{ postId: string; title: string; on: boolean }>;
  /** A contact from before the workspace asked (legacy_inferred): it gets only replies to its own posts. */
  legacy: boolean;
}

/** A change on the preferences page: every field optional. */
export interface MailPreferencesChange {
  all?: boolean;
  posts?: boolean;
  changelog?: boolean;
  digest?: Digest;
  /** Posts to stop hearing about (`false`) or to hear about again (`true`). */
  postUpdates?: Record<string, boolean>;
}

/** The contact a link was for, if it is still there; a link for another workspace is 404. */
export async function recipientContact({ db, organizationId }: WorkspaceContext, r: MailRecipient) {
  if (r.organizationId !== organizationId)
    throw new FeedbackError('ERR_NOT_FOUND', 'This link is for another workspace.');
  // The contact the mail went to; if it is gone (deleted, erased), the address alone still carries the choices.
  return contacts.find(db, organizationId, r.contactId);
}

/** What this recipient gets. */
export async function preferencesOf(ctx: WorkspaceContext, r: MailRecipient): Promise<MailPreferences> {
  const { db, organizationId: org } = ctx;
  const contact = await recipientContact(ctx, r);
  const active = new Set(
    (await mailUnsubscribes.listFor(db, org, r.emailHash)).filter((u) => u.undoneAt === null).map((u) => u.topic),
  );
  const subs = contact ? await mailSubscriptions.listFor(db, contact.id) : [];
  const followed: Array<{ postId: string; title: string; on: boolean }> = [];
  for (const s of subs) {
    if (followed.length >= MAX_FOLLOWED_POSTS) break;
    const postId = postIdOf(s.topic);
    const post = postId && (await posts.findLive(db, org, postId));
    if (post) followed.push({ postId: post.id, title: post.title, on: !active.has(s.topic) });
  }
  return {
    email: contact?.email ? maskEmail(contact.email) : 'this address',
    all: active.has('all'),
    posts: !active.has('posts'),
    changelog: subs.some((s) => s.topic === CHANGELOG_TOPIC) && !active.has(CHANGELOG_TOPIC),
    digest: await mailPreferences.digestOf(db, org, r.emailHash),
    subscriptions: followed,
    legacy: contact?.consentBasis === 'legacy_inferred',
  };
}

/**
 * The posts a change names must be ones mail about may reach the person (they follow or take part in them), at most
 * MAX_FOLLOWED_POSTS: anything else is ERR_VALIDATION, before anything is written.
 */
async function checkPostUpdates(
  { db, organizationId }: WorkspaceContext,
  r: MailRecipient,
  postIds: string[],
): Promise<void> {
  if (postIds.length > MAX_FOLLOWED_POSTS)
    throw validationError([
      { path: 'postUpdates', code: 'too_big', message: `A change names at most ${MAX_FOLLOWED_POSTS} posts.` },
    ]);
  if (postIds.length === 0) return;
  // Checked before any of them reaches a statement (a NUL would fail PostgreSQL's comparison).
  const stranger = postIds.find((id) => textFault(id) !== null);
  const contactIds = (await contacts.findByEmailHash(db, organizationId, r.emailHash)).map((c) => c.id);
  const concerning =
    stranger === undefined
      ? await mailRecipients.postsConcerning(db, organizationId, { contactIds, emailHash: r.emailHash }, postIds)
      : new Set<string>();
  const refused = stranger ?? postIds.find((id) => !concerning.has(id));
  if (refused !== undefined)
    throw validationError([
      {
        path: 'postUpdates',
        code: 'not_found',
        message: `${refused.slice(0, 60)} is not a post you follow or take part in: only those can be changed here.`,
      },
    ]);
}

/** Write one change of the preferences page, in one transaction. */
async function applyChange(
  tx: Sql,
  organizationId: string,
  r: MailRecipient,
  contactId: string | null,
  change: MailPreferencesChange,
  now: Date,
): Promise<void> {
  const toggle = async (topic: string, on: boolean | undefined) => {
    if (on === undefined) return;
    if (on) await mailUnsubscribes.undo(tx, organizationId, r.emailHash, topic, now);
    else
      await mailUnsubscribes.record(tx, {
        organizationId,
        emailHash: r.emailHash,
        contactId,
        topic,
        via: 'preferences',
        at: now,
      });
  };
  await toggle('all', change.all === undefined ? undefined : !change.all);
  await toggle('posts', change.posts);
  await toggle(CHANGELOG_TOPIC, change.changelog);
  if (change.changelog && contactId)
    await mailSubscriptions.subscribe(tx, {
      organizationId,
      contactId,
      topic: CHANGELOG_TOPIC,
      via: 'portal',
      createdAt: now,
    });
  for (const [postId, on] of Object.entries(change.postUpdates ?? {})) await toggle(postTopic(postId), on);
  if (change.digest !== undefined) {
    if (!DIGESTS.includes(change.digest))
      throw new FeedbackError('ERR_VALIDATION', `digest must be one of ${DIGESTS.join(', ')}`);
    await mailPreferences.setDigest(tx, organizationId, r.emailHash, change.digest, now);
  }
}

/**
 * The person changes what they get (the preferences page). `postUpdates` names only posts mail about may reach them
 * (ones they follow or take part in), at most MAX_FOLLOWED_POSTS: anything else is ERR_VALIDATION, and nothing is
 * written.
 */
export async function updatePreferences(
  ctx: WorkspaceContext,
  r: MailRecipient,
  change: MailPreferencesChange,
): Promise<MailPreferences> {
  const contact = await recipientContact(ctx, r);
  await checkPostUpdates(ctx, r, Object.keys(change.postUpdates ?? {}));
  const now = ctx.clock();
  await ctx.db.transaction((tx) => applyChange(tx, ctx.organizationId, r, contact?.id ?? null, change, now));
  return preferencesOf(ctx, r);
}
