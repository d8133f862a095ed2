import { textFault } from '../../schemas/input.js';
import { FeedbackError, validationError } from '../errors.js';
import { postsConcerning } from '../store/mail-recipients.js';
import { hashEmail, maskEmail } from '../shared/email.js';
import * as contacts from '../store/contacts.js';
import * as preferences from '../store/mail-preferences.js';
import * as subscriptions from '../store/mail-subscriptions.js';
import { CHANGELOG_TOPIC, postIdOf, postTopic } from '../store/mail-subscriptions.js';
import * as unsubscribes from '../store/mail-unsubscribes.js';
import type { UnsubscribeVia } from '../store/mail-unsubscribes.js';
import * as posts from '../store/posts.js';
import type { Database } from '../store/sql.js';
import type { MailRecipient } from './tokens.js';

export type { Digest } from '../store/mail-preferences.js';
export { DIGESTS } from '../store/mail-preferences.js';

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
  digest: preferences.Digest;
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
  digest?: preferences.Digest;
  /** Posts to stop hearing about (`false`) or to hear about again (`true`). */
  postUpdates?: Record<string, boolean>;
}

/**
 * A workspace's side of notification mail: the subscriptions its code makes for contacts, and what a recipient
 * (named by the signed token in their mail) gets, changes and unsubscribes from. Unsubscribes are kept by address with
 * their time; only the person undoes them, here.
 */
export function createNotificationsService(db: Database, organizationId: string, clock: () => Date) {
  const org = organizationId;

  async function recipientContact(r: MailRecipient) {
    if (r.organizationId !== org) throw new FeedbackError('ERR_NOT_FOUND', 'This link is for another workspace.');
    // The contact the mail went to; if it is gone (deleted, erased), the address alone still carries the choices.
    return contacts.find(db, org, r.contactId);
  }

  async function read(r: MailRecipient): Promise<MailPreferences> {
    const contact = await recipientContact(r);
    const active = new Set((await unsubscribes.listFor(db, org, r.emailHash)).filter((u) => u.undoneAt === null).map((u) => u.topic));
    const subs = contact ? await subscriptions.listFor(db, contact.id) : [];
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
      digest: await preferences.digestOf(db, org, r.emailHash),
      subscriptions: followed,
      legacy: contact?.consentBasis === 'legacy_inferred',
    };
  }

  return {
    /**
     * Subscribe a contact to the changelog or to a post's updates on the workspace's behalf (your app collected the
     * consent). It never undoes the person's own unsubscribe.
     */
    async subscribe(contactId: string, topic: 'changelog' | { postId: string }): Promise<void> {
      if (!(await contacts.exists(db, org, contactId))) throw new FeedbackError('ERR_NOT_FOUND', `No contact with id ${contactId}.`);
      if (typeof topic !== 'string' && !(await posts.findLive(db, org, topic.postId))) throw new FeedbackError('ERR_NOT_FOUND', `No post with id ${topic.postId}.`);
      const name = topic === 'changelog' ? CHANGELOG_TOPIC : postTopic(topic.postId);
      await subscriptions.subscribe(db, { organizationId: org, contactId, topic: name, via: 'workspace', createdAt: clock() });
    },

    /** What this recipient gets. */
    preferences: read,

    /** The recipient an address is in this workspace (its oldest contact), for a link to its preferences; null without a contact. */
    async recipientFor(email: string): Promise<MailRecipient | null> {
      const emailHash = hashEmail(email)!;
      const contactId = await contacts.findIdByEmailHash(db, org, emailHash);
      return contactId ? { organizationId: org, contactId, emailHash } : null;
    },

    /**
     * The person changes what they get (the preferences page). `postUpdates` names only posts mail about may reach
     * them (ones they follow or take part in), at most MAX_FOLLOWED_POSTS: anything else is ERR_VALIDATION, and
     * nothing is written.
     */
    async updatePreferences(r: MailRecipient, change: MailPreferencesChange): Promise<MailPreferences> {
      const contact = await recipientContact(r);
      const postIds = Object.keys(change.postUpdates ?? {});
      if (postIds.length > MAX_FOLLOWED_POSTS) throw validationError([{ path: 'postUpdates', code: 'too_big', message: `A change names at most ${MAX_FOLLOWED_POSTS} posts.` }]);
      if (postIds.length > 0) {
        // Checked before any of them reaches a statement that stores it (a NUL would fail PostgreSQL's comparison).
        const stranger = postIds.find((id) => textFault(id) !== null);
        const concerning = stranger === undefined ? await postsConcerning(db, org, { contactIds: (await contacts.findByEmailHash(db, org, r.emailHash)).map((c) => c.id), emailHash: r.emailHash }, postIds) : new Set<string>();
        const refused = stranger ?? postIds.find((id) => !concerning.has(id));
        if (refused !== undefined)
          throw validationError([{ path: 'postUpdates', code: 'not_found', message: `${refused.slice(0, 60)} is not a post you follow or take part in: only those can be changed here.` }]);
      }
      const now = clock();
      await db.transaction(async (tx) => {
        const toggle = async (topic: string, on: boolean | undefined) => {
          if (on === undefined) return;
          if (on) await unsubscribes.undo(tx, org, r.emailHash, topic, now);
          else await unsubscribes.record(tx, { organizationId: org, emailHash: r.emailHash, contactId: contact?.id ?? null, topic, via: 'preferences', at: now });
        };
        await toggle('all', change.all === undefined ? undefined : !change.all);
        await toggle('posts', change.posts);
        await toggle(CHANGELOG_TOPIC, change.changelog);
        if (change.changelog && contact) await subscriptions.subscribe(tx, { organizationId: org, contactId: contact.id, topic: CHANGELOG_TOPIC, via: 'portal', createdAt: now });
        for (const [postId, on] of Object.entries(change.postUpdates ?? {})) await toggle(postTopic(postId), on);
        if (change.digest !== undefined) {
          if (!preferences.DIGESTS.includes(change.digest)) throw new FeedbackError('ERR_VALIDATION', `digest must be one of ${preferences.DIGESTS.join(', ')}`);
          await preferences.setDigest(tx, org, r.emailHash, change.digest, now);
        }
      });
      return read(r);
    },

    /** Unsubscribe the recipient's address from everything; `recorded` false when it already was. */
    async unsubscribe(r: MailRecipient, via: UnsubscribeVia): Promise<{ recorded: boolean }> {
      const contact = await recipientContact(r);
      const recorded = await unsubscribes.record(db, { organizationId: org, emailHash: r.emailHash, contactId: contact?.id ?? null, topic: 'all', via, at: clock() });
      return { recorded };
    },
  };
}
export type NotificationsService = ReturnType<typeof createNotificationsService>;
