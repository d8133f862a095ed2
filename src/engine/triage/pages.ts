// The posts of a workspace a page at a time, filtered: by relevance to a search, or in a sort (the console's posts page
// and the API's posts list both read them so).
import { parseSearch, type RelevancePosition, searchPosts } from '../search/index.js';
import { type CursorKey, isId, isIntegerIn, isRelevancePosition, isTime, readCursor, toPage } from '../shared/index.js';
import { triage, type WorkspaceContext } from '../store/index.js';

export const TRIAGE_SORTS = ['votes', 'newest', 'trending', 'impact'] as const;
export type TriageSort = (typeof TRIAGE_SORTS)[number];

export const isCount = isIntegerIn(0, Number.MAX_SAFE_INTEGER);
const POSITIONS: Record<TriageSort, (k: CursorKey) => boolean> = {
  votes: (k) => k.length === 3 && isCount(k[0]) && isTime(k[1]) && isId(k[2]),
  newest: (k) => k.length === 2 && isTime(k[0]) && isId(k[1]),
  impact: (k) => k.length === 2 && isCount(k[0]) && isId(k[1]),
  trending: (k) => k.length === 3 && isCount(k[0]) && isCount(k[1]) && isId(k[2]),
};

/** A page of the posts matching the query's words, most relevant first (docs/search.md). */
export async function searchedPage(
  ctx: WorkspaceContext,
  q: string,
  filter: triage.TriageFilter,
  limit: number,
  cursor: string | undefined,
  prefix = 'triage',
) {
  const kind = `${prefix}:relevance`;
  const position = readCursor(cursor, kind, isRelevancePosition) as RelevancePosition | undefined;
  const scope = { organizationId: ctx.organizationId, ...(filter.boardId ? { boardId: filter.boardId } : {}) };
  const rows = await searchPosts(ctx.db, scope, parseSearch(q), limit + 1, position, (ids) =>
    triage.byIds(ctx.db, ids, filter),
  );
  return toPage(rows, limit, kind, (last) => [...last.position]);
}

/** A page of the posts in `sort` (impact in `currency`; none without one). */
export async function sortedPage(
  ctx: WorkspaceContext,
  sort: TriageSort,
  currency: string | null | undefined,
  filter: triage.TriageFilter,
  limit: number,
  cursor: string | undefined,
  prefix = 'triage',
) {
  // The currency is part of the cursor's kind: a page of one currency does not continue another's.
  const kind = sort === 'impact' ? `${prefix}:impact:${currency ?? ''}` : `${prefix}:${sort}`;
  const position = readCursor(cursor, kind, POSITIONS[sort]) as triage.Position | undefined;
  const since = new Date(ctx.clock().getTime() - triage.TRENDING_DAYS * 86_400_000);
  const rows =
    sort === 'trending'
      ? await triage.trending(ctx.db, ctx.organizationId, since, filter, limit + 1, position)
      : currency === null
        ? []
        : await triage.posts(ctx.db, ctx.organizationId, sort, { ...filter, currency }, limit + 1, position);
  return toPage(rows, limit, kind, (last) => [...last.position]);
}
