import type { Comment } from '../../schemas/interactions.js';
import type { Post } from '../../schemas/posts.js';
import { notifyReply } from '../notifications/index.js';
import { hashEmail, newId } from '../shared/index.js';
import { comments, emit, type Sql } from '../store/index.js';

/** A comment to write: an end-user's (with their contact and address) or the team's official reply. */
export interface NewComment {
  parentId: string | null;
  authorUserId: string | null;
  contactId: string | null;
  /** The name shown: the end-user's as given, or the team member's an official reply is signed with. */
  authorName: string | null;
  email: string | null;
  official: boolean;
  bodyText: string;
}

/**
 * The one way a comment is written: its row and `comment.created`, in the caller's transaction; with `notify`, the
 * post's author (and the addressee of a reply, `parent`) hear of it through the consent rule.
 */
export async function writeComment(
  tx: Sql,
  organizationId: string,
  post: Post,
  input: NewComment,
  now: Date,
  notify: { parent: { contactId: string | null } | null } | false,
): Promise<Comment> {
  const written: Comment = {
    id: newId('cmt', now.getTime()),
    postId: post.id,
    parentId: input.parentId,
    authorUserId: input.authorUserId,
    contactId: input.contactId,
    bodyText: input.bodyText,
    createdAt: now.toISOString(),
  };
  await comments.insert(tx, {
    ...written,
    organizationId,
    authorName: input.authorName,
    emailHash: hashEmail(input.email),
    official: input.official,
    createdAt: now,
  });
  const { contactId: _contactId, ...payload } = written;
  const changeId = await emit(
    tx,
    { event: 'comment.created', organizationId, boardId: post.boardId, comment: payload },
    now,
  );
  if (notify) {
    const about = { id: written.id, bodyText: written.bodyText, authorName: input.authorName, email: input.email };
    await notifyReply(tx, { organizationId, changeId, now }, post, about, notify.parent);
  }
  return written;
}
