import type { ContactSource } from '../../schemas/contacts.js';
import type { Post } from '../../schemas/posts.js';
import { insertContact, newContactOf, readContactCap } from '../contacts/index.js';
import { postTopic } from '../notifications/index.js';
import { FeedbackError, hashEmail, suppressionDigest } from '../shared/index.js';
import { contacts, mailSubscriptions, posts, type Sql, suppressions } from '../store/index.js';

/** Who takes part: their address and name, whether they ticked notify-me, and whether the workspace vouched for them. */
export interface Participant {
  email: string;
  name?: string;
  notifyMe: boolean;
  vouched?: boolean;
}

/**
 * The contact an interaction is linked to. The workspace's contact with this email (oldest first), its lastSeenAt
 * advanced, with the notify-me opt-in or for a person the workspace vouched for (a portal token: identify made their
 * contact). With the opt-in and no such contact, a new one with the interaction's `source` and consentBasis
 * `public_interaction_opt_in` (and its `contact.created`); a workspace at its contact cap keeps the interaction without
 * one. The opt-in is a fresh one: an erased address comes off the suppression list. Otherwise, none.
 */
export async function interactionContact(
  tx: Sql,
  organizationId: string,
  who: Participant,
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
    const fields = newContactOf(
      { email: who.email, name: who.name },
      { source, consentBasis: 'public_interaction_opt_in' },
    );
    const created = await insertContact(tx, organizationId, fields, now, await readContactCap(tx, organizationId));
    return created?.id ?? null;
  } catch (err) {
    // The end-user's feedback is not refused because the workspace reached its contact cap.
    if (err instanceof FeedbackError && err.code === 'ERR_PLAN_LIMIT') return null;
    throw err;
  }
}

/** Ticking notify-me subscribes the contact to the post's updates (its own opt-in, with its time). */
export async function subscribeOptIn(
  tx: Sql,
  organizationId: string,
  contactId: string | null,
  notifyMe: boolean,
  postId: string,
  now: Date,
): Promise<void> {
  if (contactId && notifyMe)
    await mailSubscriptions.subscribe(tx, {
      organizationId,
      contactId,
      topic: postTopic(postId),
      via: 'opt_in',
      createdAt: now,
    });
}

/** A live post on a public board of the workspace, locked for the transaction; a private board's posts are not found by the public. */
export async function publicPost(tx: Sql, organizationId: string, postId: string): Promise<Post> {
  const post = await posts.findLiveOnPublicBoard(tx, organizationId, postId, true);
  if (!post) throw new FeedbackError('ERR_NOT_FOUND', `No post with id ${postId}.`);
  return post;
}
