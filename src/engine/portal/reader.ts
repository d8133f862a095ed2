import { POST_STATUSES, type PostStatus } from '../../schemas/posts.js';
import { type Embeddings, parseSearch, type RelevancePosition, searchPosts, similarPosts } from '../search/index.js';
import {
  type CursorKey,
  isFiniteNumber,
  isId,
  isRelevancePosition,
  isTime,
  readCursor,
  toPage,
} from '../shared/index.js';
import { type Database, portalPages as portal, type SearchTerm, type WorkspaceContext } from '../store/index.js';

export type PortalBoard = portal.PortalBoard;
export type PortalChangelogEntry = portal.PortalChangelogEntry;
export type PortalComment = portal.PortalComment;
export type PortalPost = portal.PortalPost;

/** How a board's posts are sorted on the portal. */
export const PORTAL_SORTS = ['top', 'new', 'trending'] as const;
export type PortalSort = (typeof PORTAL_SORTS)[number];

/** The statuses the roadmap shows, as its columns, in order. */
export const ROADMAP_STATUSES = ['planned', 'in_progress', 'shipped'] as const satisfies readonly PostStatus[];

export interface PortalPostsQuery {
  sort?: PortalSort;
  q?: string;
  status?: PostStatus;
  cursor?: string;
  limit?: number;
}

/** Trending reads the last week first; a window of 50 years is the whole board. */
const TRENDING_FIRST_WINDOW_HOURS = 7 * 24;
const TRENDING_WHOLE_BOARD_HOURS = 50 * 365 * 24;

/** At most this many comments are shown on a post page. */
export const PORTAL_COMMENT_LIMIT = 1000;

/** A page of a board's shown posts that match `terms`, most relevant first, after the position in `cursor`. */
async function searchPage(
  db: Database,
  scope: { organizationId: string; boardId: string },
  terms: SearchTerm[],
  status: PostStatus | undefined,
  limit: number,
  cursor: string | undefined,
) {
  const position = readCursor(cursor, 'portal:relevance', isRelevancePosition) as RelevancePosition | undefined;
  const rows = await searchPosts(db, scope, terms, limit + 1, position, (ids) =>
    portal.shownByIds(db, ids, { status }),
  );
  const page = toPage(rows, limit, 'portal:relevance', (last) => [...last.position]);
  return { data: page.data.map(({ position: _position, ...post }) => post), nextCursor: page.nextCursor };
}

/**
 * Trending, without scoring every post of the board: the best a post of age `hours` or more can score is
 * (most votes + 1) / (hours + 2)², so the page is read from the last week, and the window widened (x4) until the
 * page's last score beats what any older post could reach, or the window holds the whole board. Exact; on a busy
 * board one window of recent posts instead of a scan.
 */
async function trending(
  db: Database,
  boardId: string,
  now: Date,
  filter: portal.PostFilter,
  want: number,
  after?: readonly [number, string],
) {
  const most = await portal.maxVotes(db, boardId);
  for (let hours = TRENDING_FIRST_WINDOW_HOURS; ; hours *= 4) {
    const whole = hours >= TRENDING_WHOLE_BOARD_HOURS;
    const window = whole ? filter : { ...filter, since: new Date(now.getTime() - hours * 3_600_000) };
    const rows = await portal.posts(db, boardId, { by: 'trending', now }, window, want, after);
    const olderBest = (most + 1) / (hours + 2) ** 2;
    if (whole || (rows.length === want && rows[want - 1]!.sortKey > olderBest)) return rows;
  }
}

/** A page of the board's posts in `sort` (no search); a trending walk keeps the time it started at in its cursor. */
async function sortedPage(
  { db, clock }: WorkspaceContext,
  boardId: string,
  sort: PortalSort,
  status: PostStatus | undefined,
  limit: number,
  cursor: string | undefined,
) {
  const kind = `portal:${sort}`;
  const valid = (k: CursorKey) =>
    sort === 'trending'
      ? k.length === 3 && isFiniteNumber(k[0]) && isId(k[1]) && isTime(k[2])
      : k.length === 2 && (sort === 'new' ? isTime(k[0]) : isFiniteNumber(k[0])) && isId(k[1]);
  const position = readCursor(cursor, kind, valid);
  const now = position && sort === 'trending' ? new Date(position[2] as number) : clock();
  const after = position && ([position[0] as number, position[1] as string] as const);
  const rows =
    sort === 'trending'
      ? await trending(db, boardId, now, { status }, limit + 1, after)
      : await portal.posts(db, boardId, { by: sort }, { status }, limit + 1, after);
  const page = toPage(rows, limit, kind, (last) =>
    sort === 'trending' ? [last.sortKey, last.id, now.getTime()] : [last.sortKey, last.id],
  );
  return { data: page.data.map(({ sortKey: _sortKey, ...post }) => post), nextCursor: page.nextCursor };
}

/**
 * A page of the board's posts: with `q`, the posts that match it (title or body, docs/search.md), most relevant first
 * (`relevance` is then true); else in `sort`. An unknown sort or status is the default; a bad cursor is ERR_VALIDATION.
 */
async function postsPage(ctx: WorkspaceContext, boardId: string, query: PortalPostsQuery = {}) {
  const sort: PortalSort = PORTAL_SORTS.includes(query.sort as PortalSort) ? query.sort! : 'top';
  const status = POST_STATUSES.includes(query.status as PostStatus) ? query.status : undefined;
  const limit = Math.min(Math.max(query.limit ?? 50, 1), 100);
  const q = query.q?.trim() || undefined;
  if (q) {
    // A query of no word (only signs) matches no post: search is by words (docs/search.md).
    const terms = parseSearch(q);
    const scope = { organizationId: ctx.organizationId, boardId };
    const page =
      terms.length > 0
        ? await searchPage(ctx.db, scope, terms, status, limit, query.cursor)
        : { data: [], nextCursor: null };
    return { ...page, sort, status: status ?? null, q, relevance: true };
  }
  const page = await sortedPage(ctx, boardId, sort, status, limit, query.cursor);
  return { ...page, sort, status: status ?? null, q: null, relevance: false };
}

/** A post page: the post (or where it was merged), its comments and the posts merged into it. */
async function postPage({ db, organizationId }: WorkspaceContext, boardId: string, slug: string) {
  const post = await portal.postBySlug(db, boardId, slug);
  if (!post) return null;
  if (post.mergedIntoId) {
    const mergedInto = (await portal.postById(db, organizationId, post.mergedIntoId)) ?? null;
    return { post, mergedInto, comments: [], merged: [] };
  }
  const [comments, merged] = await Promise.all([
    portal.comments(db, post.id, PORTAL_COMMENT_LIMIT),
    portal.mergedInto(db, post.id),
  ]);
  return { post, mergedInto: null, comments, merged };
}

/** Published changelog entries of public boards, newest first. */
async function changelogPage(
  { db, organizationId }: WorkspaceContext,
  query: { cursor?: string; limit?: number } = {},
) {
  const limit = Math.min(Math.max(query.limit ?? 20, 1), 100);
  const position = readCursor(query.cursor, 'portal:changelog');
  const after = position && ([position[0] as number, position[1] as string] as const);
  const rows = await portal.changelog(db, organizationId, limit + 1, after);
  return toPage(rows, limit, 'portal:changelog', (last) => [Date.parse(last.publishedAt), last.id]);
}

/**
 * What the public portal reads of a workspace: its public boards and only what they show (live, approved, not merged
 * posts). Pages are keyset pages; a trending walk keeps the time it started at in its cursor, so its order holds.
 */
export function createPortalReader(ctx: WorkspaceContext & { embeddings?: Embeddings }) {
  const { db, organizationId: org } = ctx;
  return {
    boards: () => portal.boards(db, org),
    boardBySlug: (slug: string) => portal.boardBySlug(db, org, slug),
    /** The board and post a form on a post page is for (one statement; nothing else of them), or undefined. */
    postRef: (boardSlug: string, postSlug: string) => portal.postRef(db, org, boardSlug, postSlug),
    posts: (boardId: string, query: PortalPostsQuery = {}) => postsPage(ctx, boardId, query),
    post: (boardId: string, slug: string) => postPage(ctx, boardId, slug),
    /** The board's shown posts most alike a title being typed (possible duplicates, docs/search.md), most alike first. */
    async similar(boardId: string, title: string, limit = 5): Promise<PortalPost[]> {
      const shown = new Map<string, PortalPost>();
      const found = await similarPosts(
        db,
        { organizationId: org, boardId },
        title,
        async (ids) => {
          for (const p of await portal.shownByIds(db, ids, {})) shown.set(p.id, p);
          return new Map([...shown].map(([id, p]) => [id, p.title]));
        },
        limit,
        ctx.embeddings,
      );
      return found.map((f) => shown.get(f.postId)!);
    },
    /** Where a post that moved to another board is now (its old address sends there), if one moved from here. */
    movedFrom: (boardId: string, slug: string) => portal.movedFrom(db, org, boardId, slug),
    /** The roadmap's three columns. */
    async roadmap() {
      const columns = await Promise.all(ROADMAP_STATUSES.map((status) => portal.roadmap(db, org, status, 50)));
      return ROADMAP_STATUSES.map((status, i) => ({ status, posts: columns[i]! }));
    },
    changelog: (query: { cursor?: string; limit?: number } = {}) => changelogPage(ctx, query),
  };
}
export type PortalReader = ReturnType<typeof createPortalReader>;
