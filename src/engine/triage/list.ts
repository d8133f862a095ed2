import { type ListPostsQuery, listPostsQuerySchema, type PostDetail } from '../../schemas/posts.js';
import { withDetails } from '../posts/index.js';
import { parseInput } from '../shared/index.js';
import { posts, type WorkspaceContext } from '../store/index.js';
import { searchedPage, sortedPage } from './pages.js';

/**
 * `GET /v1/posts`: the workspace's live posts (held and merged ones too), filtered, in a sort (newest by default) or
 * by relevance to `q`, each with its tags and impact. The cursors are the list's own (`posts:...`).
 */
export async function listPosts(
  ctx: WorkspaceContext,
  query: ListPostsQuery = {},
): Promise<{ data: PostDetail[]; nextCursor: string | null }> {
  const q = parseInput(listPostsQuerySchema, query);
  const filter = {
    includeMerged: true,
    ...(q.boardId && { boardId: q.boardId }),
    ...(q.status && { status: q.status }),
    ...(q.tagId && { tagId: q.tagId }),
    ...(q.contactId && { contactId: q.contactId }),
    ...(q.createdAfter && { since: new Date(q.createdAfter) }),
  };
  const page =
    q.q !== undefined && q.q.trim() !== ''
      ? await searchedPage(ctx, q.q, filter, q.limit, q.cursor, 'posts')
      : await sortedPage(ctx, q.sort ?? 'newest', q.currency, filter, q.limit, q.cursor, 'posts');
  const ids = page.data.map((p) => p.id);
  const found = new Map((await posts.findLiveMany(ctx.db, ctx.organizationId, ids)).map((p) => [p.id, p]));
  const data = await withDetails(
    ctx.db,
    ids.flatMap((id) => found.get(id) ?? []),
  );
  return { data, nextCursor: page.nextCursor };
}
