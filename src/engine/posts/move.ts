import type { Post } from '../../schemas/posts.js';
import { changeTime, FeedbackError, firstFreeSlug } from '../shared/index.js';
import { boards, postRedirects, posts, type WorkspaceContext } from '../store/index.js';
import { requireLivePost } from './references.js';

/**
 * Move a post to another board of the workspace: its votes, comments and subscribers go with it; its slug stays unless
 * the board has one like it (then the first free `-2`, `-3`, ...); its old portal address sends to the new one. Like
 * PATCH's other edits that are not a status, it emits no event (the spec has none for it).
 */
export async function move(
  { db, organizationId, clock }: WorkspaceContext,
  postId: string,
  boardId: string,
): Promise<Post> {
  return db.transaction(async (tx) => {
    const current = await requireLivePost(tx, organizationId, postId, true);
    if (current.boardId === boardId) return current;
    if (!(await boards.find(tx, organizationId, boardId)))
      throw new FeedbackError('ERR_NOT_FOUND', `No board with id ${boardId}.`);
    const slug = (await posts.slugTaken(tx, boardId, current.slug, current.id))
      ? firstFreeSlug(current.slug, await posts.slugsLike(tx, boardId, current.slug))
      : current.slug;
    const now = changeTime(clock, current.updatedAt);
    await posts.moveToBoard(tx, current.id, boardId, slug, now);
    await postRedirects.remember(tx, current.boardId, current.slug, current.id);
    await postRedirects.forget(tx, boardId, slug);
    return { ...current, boardId, slug, updatedAt: now.toISOString() };
  });
}
