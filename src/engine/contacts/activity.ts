import type { ContactDetail } from '../../schemas/contacts.js';
import type { Post } from '../../schemas/posts.js';
import { hashEmail } from '../shared/index.js';
import { comments, posts, votes, type WorkspaceContext } from '../store/index.js';
import { retrieve } from './change.js';

/** How much of a contact's activity its page shows: the newest this many of each. */
export const CONTACT_ACTIVITY_LIMIT = 50;

/** What a contact's page shows: the contact with its counts, and their newest posts, votes and comments. */
export interface ContactActivity {
  contact: ContactDetail;
  posts: Post[];
  votes: Array<{ id: string; postId: string; postTitle: string; createdAt: string }>;
  comments: Array<{ id: string; postId: string; bodyText: string; createdAt: string }>;
}

/**
 * A contact's activity: their posts (by contact), and their votes and comments (by contact, or by their address's
 * hash), the newest CONTACT_ACTIVITY_LIMIT of each; index lookups all (a data-subject export finds more: by user id too).
 */
export async function activity(ctx: WorkspaceContext, contactId: string): Promise<ContactActivity> {
  const contact = await retrieve(ctx, contactId);
  const who = { contactId: contact.id, emailHash: hashEmail(contact.email) };
  const [own, voted, wrote] = await Promise.all([
    posts.listForContact(ctx.db, ctx.organizationId, contact.id, CONTACT_ACTIVITY_LIMIT),
    votes.recentOf(ctx.db, ctx.organizationId, who, CONTACT_ACTIVITY_LIMIT),
    comments.recentOf(ctx.db, ctx.organizationId, who, CONTACT_ACTIVITY_LIMIT),
  ]);
  return { contact, posts: own, votes: voted, comments: wrote };
}
