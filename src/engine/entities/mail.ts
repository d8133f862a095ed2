import { defineEntity, p } from '@mikro-orm/core';
import { expressionIndex } from './dialects.js';
import { Contact } from './contact.js';
import { Organization } from './organization.js';

/**
 * The mail outbox: one row per change and recipient, written in the transaction of the change that causes it, sent by
 * the scheduler's mail lane. The unique (workspace, change, recipient) is what makes a person get one message per
 * change; rows of one recipient that are due together go out as one message (a digest).
 */
export const Mail = defineEntity({
  name: 'Mail',
  tableName: 'mail',
  uniques: [{ name: 'mail_change_recipient_unique', properties: ['organization', 'changeId', 'emailHash'] }],
  indexes: [
    { name: 'mail_recipient_idx', properties: ['organization', 'emailHash', 'createdAt'] },
    { name: 'mail_contact_idx', properties: ['contactId'] },
    // The mail lane's claim: due rows, oldest first; sent, failed and cancelled rows are not in it.
    expressionIndex('mail_due_idx', `on "mail" ("next_attempt_at", "id") where "status" = 'pending'`),
    // The retention chore: settled rows by age.
    expressionIndex('mail_settled_idx', `on "mail" ("created_at") where "status" <> 'pending'`),
  ],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    /** The event of the change that caused it. */
    changeId: p.string().length(40),
    /** `post_status`, `reply` or `changelog` (notifications/consent.ts). */
    kind: p.string().length(20),
    /** The recipient contact; a plain column, like a vote's: the row outlives nothing it names (erasure deletes it). */
    contactId: p.string().length(40).nullable(),
    /** The address as it was when the change happened. */
    email: p.string().length(320),
    /** SHA-256 of the trimmed, lower-cased address: who the recipient is, across contacts. */
    emailHash: p.string().length(64),
    /** What the message says (JSON): the post, its statuses, the comment, the entry. */
    payload: p.text(),
    /** `pending`, `sent`, `failed` or `cancelled`. */
    status: p.string().length(20),
    attemptCount: p.integer().default(0),
    nextAttemptAt: p.datetime().length(3).nullable(),
    leaseToken: p.string().length(40).nullable(),
    leaseExpiresAt: p.datetime().length(3).nullable(),
    /** The Message-ID it went out under (several rows share one in a digest). */
    messageId: p.string().length(200).nullable(),
    sentAt: p.datetime().length(3).nullable(),
    failedAt: p.datetime().length(3).nullable(),
    error: p.string().length(500).nullable(),
    createdAt: p.datetime().length(3),
  },
});

/**
 * A topic a contact asked to hear about: `changelog`, or `post:<postId>` (ticking notify-me on a post subscribes to
 * it). `via` says who made it: `opt_in` (the notify-me box), `portal` (the preferences page), `workspace` (the engine).
 */
export const MailSubscription = defineEntity({
  name: 'MailSubscription',
  tableName: 'mail_subscription',
  indexes: [{ name: 'mail_subscription_topic_idx', properties: ['organization', 'topic'] }],
  properties: {
    contact: () => p.manyToOne(Contact).primary().deleteRule('cascade'),
    topic: p.string().primary().length(60),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    via: p.string().length(20),
    createdAt: p.datetime().length(3),
  },
});

/**
 * An unsubscribe, kept with its time: by address (every contact with that address), from `all`, `posts`, `changelog`
 * or one `post:<postId>`. Only the person undoes it (`undoneAt`, from the preferences page); identify never does.
 */
export const MailUnsubscribe = defineEntity({
  name: 'MailUnsubscribe',
  tableName: 'mail_unsubscribe',
  indexes: [{ name: 'mail_unsubscribe_recipient_idx', properties: ['organization', 'emailHash'] }],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    emailHash: p.string().length(64),
    /** The contact the link was for, for the record. */
    contactId: p.string().length(40).nullable(),
    topic: p.string().length(60),
    /** `one_click` (RFC 8058, from the mail client), `preferences` (the portal page) or `cli`. */
    via: p.string().length(20),
    createdAt: p.datetime().length(3),
    undoneAt: p.datetime().length(3).nullable(),
  },
});

/** How an address wants its mail: `instant` (the default; bundled once it would get many in an hour) or `hourly`. */
export const MailPreference = defineEntity({
  name: 'MailPreference',
  tableName: 'mail_preference',
  properties: {
    organization: () => p.manyToOne(Organization).primary().deleteRule('cascade'),
    emailHash: p.string().primary().length(64),
    digest: p.string().length(20),
    updatedAt: p.datetime().length(3),
  },
});

/**
 * What an erasure keeps, per erased contact: a salted hash of the address (HMAC-SHA256 under the workspace's
 * `privacy_salt`), so that a later interaction by the same address does not silently bring the person back, and the
 * contact's opaque id, so the erasure can be confirmed. `pendingEventId`: the contact's `contact.deleted`, still carrying
 * its externalUserId for webhooks; redacted once its deliveries end.
 */
export const Suppression = defineEntity({
  name: 'Suppression',
  tableName: 'suppression',
  indexes: [
    { name: 'suppression_digest_idx', properties: ['organization', 'digest'] },
    // The chore that redacts delivered erasures: only the rows still waiting.
    expressionIndex('suppression_pending_event_idx', 'on "suppression" ("pending_event_id") where "pending_event_id" is not null'),
  ],
  properties: {
    organization: () => p.manyToOne(Organization).primary().deleteRule('cascade'),
    contactId: p.string().primary().length(40),
    digest: p.string().length(64),
    pendingEventId: p.string().length(40).nullable(),
    createdAt: p.datetime().length(3),
  },
});
