import type { Post } from '../../schemas/posts.js';
import { FeedbackError, validationError } from '../shared/index.js';
import { contacts, posts, type Sql, tags } from '../store/index.js';

/** A body reference (`contactId`, `tagIds`) that is not in the workspace: 422 on that field. */
export async function assertReferences(
  tx: Sql,
  organizationId: string,
  refs: { contactId?: string | null; tagIds?: string[] },
): Promise<void> {
  if (refs.contactId && !(await contacts.exists(tx, organizationId, refs.contactId)))
    throw validationError([
      { path: 'contactId', code: 'not_found', message: `No contact with id ${refs.contactId} in this workspace.` },
    ]);
  if (refs.tagIds && refs.tagIds.length > 0) {
    const unique = [...new Set(refs.tagIds)];
    const known = await tags.existing(tx, organizationId, unique);
    const missing = unique.find((id) => !known.has(id));
    if (missing)
      throw validationError([
        { path: 'tagIds', code: 'not_found', message: `No tag with id ${missing} in this workspace.` },
      ]);
  }
}

/** A live post of the workspace, or 404. */
export async function requireLivePost(tx: Sql, organizationId: string, postId: string, lock = false): Promise<Post> {
  const post = await posts.findLive(tx, organizationId, postId, lock);
  if (!post) throw new FeedbackError('ERR_NOT_FOUND', `No post with id ${postId}.`);
  return post;
}
