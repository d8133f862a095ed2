import { asIs, defineRows, search, toInt, toIso, ts, type Sql } from '../store/index.js';
import type { SearchTerm } from '../shared/index.js';
import type { PostStatus } from '../../schemas/posts.js';

// What the console's posts page reads: every live post of every board of the workspace that was not merged into
// another, held ones included, in keyset pages.

/** A post as the team's list shows it. */
export interface TriagePost {
  id: string;
  boardId: string;
  boardName: string;
  title: string;
  slug: string;
  status: PostStatus;
  moderationStatus: string;
  voteCount: number;
  commentCount: number;
  createdAt: string;
}

const POSTS = defineRows<TriagePost>('post', 'p', {
  id: asIs,
  boardId: asIs,
  boardName: ['board_name', asIs],
  title: asIs,
  slug: asIs,
  status: asIs,
  moderationStatus: asIs,
  voteCount: toInt,
  commentCount: toInt,
  createdAt: toIso,
});
const SELECT = `SELECT ${POSTS.columns.replace('p.board_name', 'b.name AS board_name')} FROM post p JOIN board b ON b.id = p.board_id`;

export interface TriageFilter {
  boardId?: string;
  status?: PostStatus;
  /** Only posts waiting for moderation. */
  held?: boolean;
  /** Only posts created after this time ("new since I last looked"). */
  since?: Date;
}

/** The filter's conditions on `p`, and their parameters. */
function conditions(sql: Sql, filter: TriageFilter): { where: string[]; params: unknown[] } {
  const where = ['p.deleted_at IS NULL', 'p.merged_into_id IS NULL'];
  const params: unknown[] = [];
  const add = (condition: string, value: unknown) => {
    where.push(condition);
    params.push(value);
  };
  if (filter.boardId) add('p.board_id = ?', filter.boardId);
  if (filter.status) add('p.status = ?', filter.status);
  if (filter.held) add('p.moderation_status = ?', 'pending');
  if (filter.since) add('p.created_at > ?', ts(sql, filter.since));
  return { where, params };
}

export type TriageOrder = 'votes' | 'newest';

/** Up to `limit` posts of the workspace in `order` (ties newest first), after `after` (the last one's sort key and id). */
export async function posts(
  sql: Sql,
  organizationId: string,
  order: TriageOrder,
  filter: TriageFilter,
  limit: number,
  after?: readonly [number, number, string],
): Promise<Array<TriagePost & { position: readonly [number, number, string] }>> {
  const { where, params } = conditions(sql, filter);
  where.unshift('p.organization_id = ?');
  params.unshift(organizationId);
  const key = order === 'votes' ? ['p.vote_count', 'p.created_at', 'p.id'] : ['p.created_at', 'p.id'];
  if (after) {
    where.push(`(${key.join(', ')}) < (${key.map(() => '?').join(', ')})`);
    params.push(...(order === 'votes' ? [after[0], ts(sql, new Date(after[1])), after[2]] : [ts(sql, new Date(after[1])), after[2]]));
  }
  const rows = await sql.all(`${SELECT} WHERE ${where.join(' AND ')} ORDER BY ${key.map((k) => `${k} DESC`).join(', ')} LIMIT ?`, [...params, limit]);
  return rows.map((row) => {
    const post = POSTS.read(row);
    return { ...post, position: [post.voteCount, Date.parse(post.createdAt), post.id] as const };
  });
}

/** A relevance page's position: the last post's relevance, votes, creation time (ms) and id. */
export type RelevancePosition = readonly [number, number, number, string];

/** Up to `limit` posts of the workspace matching `terms`, most relevant first (docs/search.md), after `after`. */
export async function searchPosts(
  sql: Sql,
  organizationId: string,
  terms: readonly SearchTerm[],
  filter: TriageFilter,
  limit: number,
  after?: RelevancePosition,
): Promise<Array<TriagePost & { position: RelevancePosition }>> {
  const cursor = after && { relevance: after[0], voteCount: after[1], createdAt: after[2], id: after[3] };
  const scope = { organizationId, ...(filter.boardId ? { boardId: filter.boardId } : {}) };
  const rows = await search.searchPage(sql, scope, terms, limit, cursor, async (matches) => {
    const relevance = new Map(matches.map((m) => [m.postId, m.relevance]));
    const { where, params } = conditions(sql, filter);
    const found = await sql.all(`${SELECT} WHERE p.id IN (SELECT value FROM ${sql.dialect.jsonStrings}) AND ${where.join(' AND ')}`, [JSON.stringify([...relevance.keys()]), ...params]);
    return found.map((row) => {
      const post = POSTS.read(row);
      return { id: post.id, voteCount: post.voteCount, createdAt: Date.parse(post.createdAt), relevance: relevance.get(post.id)!, post };
    });
  });
  return rows.map((r) => ({ ...r.post, position: [r.relevance, r.voteCount, r.createdAt, r.id] as const }));
}
