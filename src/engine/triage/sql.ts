import { asIs, defineRows, search, toBool, toInt, toIntOrNull, toIso, toStringOrNull, ts, type Sql } from '../store/index.js';
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

/** A voter as the post page lists them: their contact's name, address, plan and revenue (null for an unlinked vote). */
export interface TriageVoter {
  contactId: string | null;
  name: string | null;
  email: string | null;
  plan: string | null;
  mrrCents: number | null;
  currency: string | null;
  votedAt: string;
}

/** Up to `limit` voters of a post, those paying most first (then the earliest). */
export async function voters(sql: Sql, postId: string, limit: number): Promise<TriageVoter[]> {
  const rows = await sql.all(
    `SELECT v.contact_id, c.name, c.email, c.plan, c.mrr_cents, c.currency, v.created_at FROM vote v LEFT JOIN contact c ON c.id = v.contact_id
     WHERE v.post_id = ? ORDER BY (c.mrr_cents IS NULL), c.mrr_cents DESC, v.created_at, v.id LIMIT ?`,
    [postId, limit],
  );
  return rows.map((r) => ({
    contactId: toStringOrNull(r.contact_id),
    name: toStringOrNull(r.name),
    email: toStringOrNull(r.email),
    plan: toStringOrNull(r.plan),
    mrrCents: toIntOrNull(r.mrr_cents),
    currency: toStringOrNull(r.currency),
    votedAt: toIso(r.created_at),
  }));
}

/** A post's impact in one currency: the monthly revenue of the distinct paying contacts who voted, and how many they are. */
export interface Impact {
  currency: string;
  mrrCents: number;
  payingVoters: number;
}

/** The post's impact, per currency, largest first. */
export async function impact(sql: Sql, postId: string): Promise<Impact[]> {
  const rows = await sql.all(
    `SELECT currency, SUM(mrr_cents) AS mrr_cents, COUNT(*) AS paying FROM contact
     WHERE id IN (SELECT contact_id FROM vote WHERE post_id = ? AND contact_id IS NOT NULL) AND mrr_cents > 0 AND currency IS NOT NULL
     GROUP BY currency ORDER BY SUM(mrr_cents) DESC, currency`,
    [postId],
  );
  return rows.map((r) => ({ currency: r.currency as string, mrrCents: toInt(r.mrr_cents), payingVoters: toInt(r.paying) }));
}

/** A comment as the team sees it: whether it is the team's official reply, and the contact it is linked to. */
export interface TriageComment {
  id: string;
  parentId: string | null;
  authorName: string | null;
  official: boolean;
  contactId: string | null;
  bodyText: string;
  createdAt: string;
}

const COMMENTS = defineRows<TriageComment>('comment', 'c', {
  id: asIs,
  parentId: toStringOrNull,
  authorName: toStringOrNull,
  official: toBool,
  contactId: toStringOrNull,
  bodyText: asIs,
  createdAt: toIso,
});

/** Up to `limit` comments of a post, oldest first. */
export async function comments(sql: Sql, postId: string, limit: number): Promise<TriageComment[]> {
  return (await sql.all(`SELECT ${COMMENTS.columns} FROM comment c WHERE c.post_id = ? ORDER BY c.created_at, c.id LIMIT ?`, [postId, limit])).map((r) => COMMENTS.read(r));
}
