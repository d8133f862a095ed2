import { FeedbackError, hashEmail } from '../shared/index.js';
import { contacts, mailSubscriptions, mailUnsubscribes, posts, type WorkspaceContext } from '../store/index.js';
import { type MailPreferencesChange, preferencesOf, recipientContact, updatePreferences } from './preferences.js';
import type { MailRecipient } from './tokens.js';
import { CHANGELOG_TOPIC, postTopic } from './topics.js';

/**
 * Subscribe a contact to the changelog or to a post's updates on the workspace's behalf (your app collected the
 * consent). It never undoes the person's own unsubscribe.
 */
export async function subscribe(
  { db, organizationId, clock }: WorkspaceContext,
  contactId: string,
  topic: 'changelog' | { postId: string },
): Promise<void> {
  if (!(await contacts.exists(db, organizationId, contactId)))
    throw new FeedbackError('ERR_NOT_FOUND', `No contact with id ${contactId}.`);
  if (typeof topic !== 'string' && !(await posts.findLive(db, organizationId, topic.postId)))
    throw new FeedbackError('ERR_NOT_FOUND', `No post with id ${topic.postId}.`);
  const name = topic === 'changelog' ? CHANGELOG_TOPIC : postTopic(topic.postId);
  await mailSubscriptions.subscribe(db, {
    organizationId,
    contactId,
    topic: name,
    via: 'workspace',
    createdAt: clock(),
  });
}

/** The recipient an address is in this workspace (its oldest contact), for a link to its preferences; null without a contact. */
export async function recipientFor(
  { db, organizationId }: WorkspaceContext,
  email: string,
): Promise<MailRecipient | null> {
  const emailHash = hashEmail(email)!;
  const contactId = await contacts.findIdByEmailHash(db, organizationId, emailHash);
  return contactId ? { organizationId, contactId, emailHash } : null;
}

/** Unsubscribe the recipient's address from everything; `recorded` false when it already was. */
export async function unsubscribe(
  ctx: WorkspaceContext,
  r: MailRecipient,
  via: mailUnsubscribes.UnsubscribeVia,
): Promise<{ recorded: boolean }> {
  const contact = await recipientContact(ctx, r);
  const recorded = await mailUnsubscribes.record(ctx.db, {
    organizationId: ctx.organizationId,
    emailHash: r.emailHash,
    contactId: contact?.id ?? null,
    topic: 'all',
    via,
    at: ctx.clock(),
  });
  return { recorded };
}

/**
 * A workspace's side of notification mail: the subscriptions its code makes for contacts, and what a recipient
 * (named by the signed token in their mail) gets, changes and unsubscribes from. Unsubscribes are kept by address with
 * their time; only the person undoes them. Built once per workspace.
 */
export function createNotificationsService(ctx: WorkspaceContext) {
  return {
    subscribe: (contactId: string, topic: 'changelog' | { postId: string }) => subscribe(ctx, contactId, topic),
    /** What this recipient gets. */
    preferences: (r: MailRecipient) => preferencesOf(ctx, r),
    recipientFor: (email: string) => recipientFor(ctx, email),
    updatePreferences: (r: MailRecipient, change: MailPreferencesChange) => updatePreferences(ctx, r, change),
    unsubscribe: (r: MailRecipient, via: mailUnsubscribes.UnsubscribeVia) => unsubscribe(ctx, r, via),
  };
}
export type NotificationsService = ReturnType<typeof createNotificationsService>;
