import type { PostStatus } from '../../../schemas/posts.js';
import { type Sql, toInt, toIntOrNull, toIso, toStringOrNull, ts } from '../sql.js';
import * as commentRows from '../tables/comments.js';
import * as postRows from '../tables/posts.js';

// What the console's posts page reads: every live post of every board of the workspace that was not merged into
// another, held ones included, in keyset pages.

/** A post as the team's list shows it, with its board's name. */
export type TriagePost = Pick<
  postRows.PostRow,
  'id' | 'boardId' | 'title' | 'slug' | 'status' | 'moderationStatus' | 'voteCount' | 'commentCount' | 'createdAt'
> & { boardName: string };

const POSTS = postRows.ROWS.pick(
  'id',
  'boardId',
  'title',
  'slug',
  'status',
  'moderationStatus',
  'voteCount',
  'commentCount',
  'createdAt',
);
const readPost = (row: Record<string, unknown>): TriagePost => ({
  ...POSTS.read(row),
  boardName: row.board_name as string,
});
const SELECT = `SELECT ${POSTS.columns}, b.name AS board_name FROM post p JOIN board b ON b.id = p.board_id`;

export interface TriageFilter {
  boardId?: string;
  status?: PostStatus;
  /** Only posts waiting for moderation. */
  held?: boolean;
  /** Only posts created after this time ("new since I last looked"). */
  since?: Date;
  /** Only posts carrying this tag. */
  tagId?: string;
  /** Only posts someone on this plan voted for (the contact's `plan`, as identify sets it). */
  voterPlan?: string;
  /** Only posts someone of a company on this plan voted for (the company's `plan`). */
  companyPlan?: string;
  /** Only posts this contact wrote. */
  contactId?: string;
  /** Posts merged into another too (the console's list leaves them out). */
  includeMerged?: boolean;
}

/** The filter's conditions on `p`, and their parameters. */
function conditions(sql: Sql, filter: TriageFilter): { where: string[]; params: unknown[] } {
  const where = ['p.deleted_at IS NULL', ...(filter.includeMerged ? [] : ['p.merged_into_id IS NULL'])];
  const params: unknown[] = [];
  const add = (condition: string, value: unknown) => {
    where.push(condition);
    params.push(value);
  };
  if (filter.boardId) add('p.board_id = ?', filter.boardId);
  if (filter.contactId) add('p.contact_id = ?', filter.contactId);
  if (filter.status) add('p.status = ?', filter.status);
  if (filter.held) add('p.moderation_status = ?', 'pending');
  if (filter.since) add('p.created_at > ?', ts(sql, filter.since));
  if (filter.tagId) add('EXISTS (SELECT 1 FROM post_tag t WHERE t.post_id = p.id AND t.tag_id = ?)', filter.tagId);
  if (filter.voterPlan)
    add(
      'EXISTS (SELECT 1 FROM vote v JOIN contact c ON c.id = v.contact_id WHERE v.post_id = p.id AND c.plan = ?)',
      filter.voterPlan,
    );
  if (filter.companyPlan)
    add(
      'EXISTS (SELECT 1 FROM post_payer pp JOIN company co ON co.id = pp.payer_id WHERE pp.post_id = p.id AND pp.is_company = 1 AND co.plan = ?)',
      filter.companyPlan,
    );
  return { where, params };
}

export type TriageOrder = 'votes' | 'newest' | 'impact';

/** A page's position: the last post's sort key, ending with its id (votes: count, ms, id; newest: ms, id; impact: cents, id). */
export type Position = ReadonlyArray<number | string>;

/** Each order's key, largest first: its columns, and how a position's values bind. */
const ORDERS: Record<TriageOrder, { key: string[]; bind: (sql: Sql, at: Position) => unknown[] }> = {
  votes: {
    key: ['p.vote_count', 'p.created_at', 'p.id'],
    bind: (sql, at) => [at[0], ts(sql, new Date(at[1] as number)), at[2]],
  },
  newest: { key: ['p.created_at', 'p.id'], bind: (sql, at) => [ts(sql, new Date(at[0] as number)), at[1]] },
  impact: { key: ['i.mrr_cents', 'i.post_id'], bind: (_sql, at) => [at[0], at[1]] },
};

/**
 * Up to `limit` posts of the workspace in `order` after `after`: by votes (ties newest first), newest, or impact in
 * `currency` (the posts with paying voters in it, the most revenue first: an index range of post_impact).
 */
export async function posts(
  sql: Sql,
  organizationId: string,
  order: TriageOrder,
  filter: TriageFilter & { currency?: string },
  limit: number,
  after?: Position,
): Promise<Array<TriagePost & { position: Position }>> {
  const { where, params } = conditions(sql, filter);
  const { key, bind } = ORDERS[order];
  let from = SELECT;
  if (order === 'impact') {
    // CROSS JOIN keeps SQLite walking post_impact's index in the page's order (a board filter otherwise makes it read
    // the board's every post and sort them: 44 ms against 0.7 at 100,000 posts); PostgreSQL plans it as any join.
    from = `${SELECT.replace(' FROM post p', ', i.mrr_cents AS impact_cents FROM post_impact i CROSS JOIN post p')}`;
    where.unshift('i.organization_id = ?', 'i.currency = ?', 'i.mrr_cents > 0', 'p.id = i.post_id');
    params.unshift(organizationId, filter.currency ?? '');
  } else {
    where.unshift('p.organization_id = ?');
    params.unshift(organizationId);
  }
  if (after) {
    where.push(`(${key.join(', ')}) < (${key.map(() => '?').join(', ')})`);
    params.push(...bind(sql, after));
  }
  const rows = await sql.all(
    `${from} WHERE ${where.join(' AND ')} ORDER BY ${key.map((k) => `${k} DESC`).join(', ')} LIMIT ?`,
    [...params, limit],
  );
  return rows.map((row) => {
    const post = readPost(row);
    const at = Date.parse(post.createdAt);
    const position =
      order === 'votes'
        ? [post.voteCount, at, post.id]
        : order === 'newest'
          ? [at, post.id]
          : [toInt(row.impact_cents), post.id];
    return { ...post, position };
  });
}

/** Trending: the votes of the last this many days. */
export const TRENDING_DAYS = 7;

/**
 * Up to `limit` posts of the workspace by their votes since `since` (trending; the posts with such votes), ties by
 * all their votes then newest, after `after` (recent votes, votes, id). The recent votes come from one index range of
 * the workspace's votes by time.
 */
export async function trending(
  sql: Sql,
  organizationId: string,
  since: Date,
  filter: TriageFilter,
  limit: number,
  after?: Position,
): Promise<Array<TriagePost & { position: Position }>> {
  const { where, params } = conditions(sql, filter);
  if (after) {
    where.push('(r.recent, p.vote_count, p.id) < (?, ?, ?)');
    params.push(after[0], after[1], after[2]);
  }
  const from = SELECT.replace(
    ' FROM post p',
    ', r.recent FROM (SELECT v.post_id, COUNT(*) AS recent FROM vote v WHERE v.organization_id = ? AND v.created_at > ? GROUP BY v.post_id) r JOIN post p ON p.id = r.post_id',
  );
  const rows = await sql.all(
    `${from} WHERE ${where.join(' AND ')} ORDER BY r.recent DESC, p.vote_count DESC, p.id DESC LIMIT ?`,
    [organizationId, ts(sql, since), ...params, limit],
  );
  return rows.map((row) => {
    const post = readPost(row);
    return { ...post, position: [toInt(row.recent), post.voteCount, post.id] };
  });
}

/** The posts of these ids that pass the filter (a search's best matches, read by `searchPosts`), each by its key. */
export async function byIds(sql: Sql, ids: readonly string[], filter: TriageFilter): Promise<TriagePost[]> {
  const { where, params } = conditions(sql, filter);
  const found = await sql.all(
    `SELECT ${POSTS.columns}, b.name AS board_name FROM ${sql.dialect.rowsOfIds('post', 'p')} JOIN board b ON b.id = p.board_id
     WHERE ${where.join(' AND ')}`,
    [JSON.stringify(ids), ...params],
  );
  return found.map(readPost);
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

/** Above this many votes, a post's paying voters are found from the workspace's paying contacts down (see `payingVoters`). */
export const MANY_VOTES = 2000;

const voter = (r: Record<string, unknown>): TriageVoter => ({
  contactId: toStringOrNull(r.contact_id),
  name: toStringOrNull(r.name),
  email: toStringOrNull(r.email),
  plan: toStringOrNull(r.plan),
  mrrCents: toIntOrNull(r.mrr_cents),
  currency: toStringOrNull(r.currency),
  votedAt: toIso(r.created_at),
});

/**
 * A page of a post's paying voters in one currency, most revenue first (then by contact id, descending), after the
 * position `after` ([revenue, contact id]). Amounts of different currencies are never ranked together. A post with up
 * to MANY_VOTES votes is read from its votes. A post with more is read from the workspace's paying contacts in that
 * currency down (contact_org_currency_mrr_idx), each checked for a vote on the post (vote_contact_post_idx): a post a
 * fiftieth of the workspace voted on fills a page from about 1,500 contacts, instead of joining its 20,000 votes to
 * their contacts. SQLite does that walk in one statement; on PostgreSQL it goes a batch at a time (512 contacts,
 * doubling up to 16,384), each batch's votes found by one probe.
 */
export async function payingVoters(
  sql: Sql,
  organizationId: string,
  post: { id: string; voteCount: number },
  currency: string,
  limit: number,
  after?: readonly [number, string],
): Promise<Array<TriageVoter & { position: [number, string] }>> {
  const seek = (position: readonly [number, string] | undefined) =>
    position
      ? { where: 'AND (c.mrr_cents, c.id) < (?, ?)', params: [position[0], position[1]] }
      : { where: '', params: [] };
  const positioned = (r: Record<string, unknown>) => ({
    ...voter(r),
    position: [toIntOrNull(r.mrr_cents) ?? 0, r.contact_id as string] as [number, string],
  });
  if (post.voteCount <= MANY_VOTES) {
    const s = seek(after);
    const rows = await sql.all(
      `SELECT c.id AS contact_id, c.name, c.email, c.plan, c.mrr_cents, c.currency, MIN(v.created_at) AS created_at
       FROM vote v JOIN contact c ON c.id = v.contact_id
       WHERE v.post_id = ? AND c.currency = ? AND c.mrr_cents > 0 ${s.where}
       GROUP BY c.id, c.name, c.email, c.plan, c.mrr_cents, c.currency
       ORDER BY c.mrr_cents DESC, c.id DESC LIMIT ?`,
      [post.id, currency, ...s.params, limit],
    );
    return rows.map(positioned);
  }
  if (sql.dialect.name === 'sqlite') {
    // SQLite runs the EXISTS as a probe per contact while it walks the index: the walk itself, in one statement.
    const s = seek(after);
    const rows = await sql.all(
      `SELECT c.id AS contact_id, c.name, c.email, c.plan, c.mrr_cents, c.currency,
         (SELECT MIN(v.created_at) FROM vote v WHERE v.contact_id = c.id AND v.post_id = ?) AS created_at
       FROM contact c WHERE c.organization_id = ? AND c.currency = ? AND c.mrr_cents > 0 ${s.where}
         AND EXISTS (SELECT 1 FROM vote v WHERE v.contact_id = c.id AND v.post_id = ?)
       ORDER BY c.mrr_cents DESC, c.id DESC LIMIT ?`,
      [post.id, organizationId, currency, ...s.params, post.id, limit],
    );
    return rows.map(positioned);
  }
  // PostgreSQL's planner turns that EXISTS into a semi-join over every vote of the post: the walk is done here.
  const found: Array<TriageVoter & { position: [number, string] }> = [];
  let position = after;
  for (let batch = 512; found.length < limit; batch = Math.min(batch * 2, 16_384)) {
    const s = seek(position);
    const contacts = await sql.all(
      `SELECT c.id AS contact_id, c.name, c.email, c.plan, c.mrr_cents, c.currency FROM contact c
       WHERE c.organization_id = ? AND c.currency = ? AND c.mrr_cents > 0 ${s.where}
       ORDER BY c.mrr_cents DESC, c.id DESC LIMIT ?`,
      [organizationId, currency, ...s.params, batch],
    );
    if (!contacts.length) break;
    const voted = new Map(
      (
        await sql.all<{ contact_id: string; created_at: unknown }>(
          `SELECT v.contact_id, MIN(v.created_at) AS created_at FROM vote v
           WHERE v.post_id = ? AND v.contact_id IN (SELECT value FROM ${sql.dialect.jsonStrings}) GROUP BY v.contact_id`,
          [post.id, JSON.stringify(contacts.map((c) => c.contact_id))],
        )
      ).map((v) => [v.contact_id, v.created_at]),
    );
    for (const c of contacts) {
      if (!voted.has(c.contact_id as string)) continue;
      found.push(positioned({ ...c, created_at: voted.get(c.contact_id as string) }));
      if (found.length === limit) break;
    }
    const last = contacts.at(-1)!;
    position = [toIntOrNull(last.mrr_cents) ?? 0, last.contact_id as string];
    if (contacts.length < batch) break;
  }
  return found;
}

/**
 * A page of a post's voters who pay nothing (a free contact, or a vote not linked to a contact), earliest first, after
 * the position `after` ([vote time in ms, vote id]).
 */
export async function freeVoters(
  sql: Sql,
  postId: string,
  limit: number,
  after?: readonly [number, string],
): Promise<Array<TriageVoter & { position: [number, string] }>> {
  const rows = await sql.all(
    `SELECT v.id AS vote_id, v.contact_id, c.name, c.email, c.plan, c.mrr_cents, c.currency, v.created_at
     FROM vote v LEFT JOIN contact c ON c.id = v.contact_id
     WHERE v.post_id = ? AND (c.id IS NULL OR c.mrr_cents IS NULL OR c.mrr_cents = 0 OR c.currency IS NULL)
       ${after ? 'AND (v.created_at > ? OR (v.created_at = ? AND v.id > ?))' : ''}
     ORDER BY v.created_at, v.id LIMIT ?`,
    [postId, ...(after ? [ts(sql, new Date(after[0])), ts(sql, new Date(after[0])), after[1]] : []), limit],
  );
  return rows.map((r) => ({ ...voter(r), position: [Date.parse(toIso(r.created_at)), r.vote_id as string] }));
}

/** Who wrote a post: the name they gave on the portal (if any), and the contact it is linked to (if it is). */
export interface TriageAuthor {
  name: string | null;
  contact: TriageVoter | null;
}

export async function authorOf(sql: Sql, postId: string): Promise<TriageAuthor> {
  const row = await sql.one(
    `SELECT p.author_name, c.id AS contact_id, c.name, c.email, c.plan, c.mrr_cents, c.currency, p.created_at
     FROM post p LEFT JOIN contact c ON c.id = p.contact_id WHERE p.id = ?`,
    [postId],
  );
  return {
    name: toStringOrNull(row?.author_name) ?? toStringOrNull(row?.name),
    contact: row?.contact_id ? voter(row) : null,
  };
}

/** A comment as the team sees it: whether it is the team's official reply, and the contact it is linked to. */
export type TriageComment = Pick<
  commentRows.CommentRecord,
  'id' | 'parentId' | 'authorName' | 'official' | 'contactId' | 'bodyText' | 'createdAt'
>;
const COMMENTS = commentRows.ROWS.pick(
  'id',
  'parentId',
  'authorName',
  'official',
  'contactId',
  'bodyText',
  'createdAt',
);

/** Up to `limit` comments of a post, oldest first. */
export async function comments(sql: Sql, postId: string, limit: number): Promise<TriageComment[]> {
  return (
    await sql.all(
      `SELECT ${COMMENTS.columns}, ct.name AS contact_name, ct.email AS contact_email
       FROM comment c LEFT JOIN contact ct ON ct.id = c.contact_id
       WHERE c.post_id = ? AND c.deleted_at IS NULL ORDER BY c.created_at, c.id LIMIT ?`,
      [postId, limit],
    )
  ).map((r) => {
    const comment = COMMENTS.read(r);
    // What the team calls its author: the name given with the comment, the contact's name, the address's local part.
    const email = toStringOrNull(r.contact_email);
    return {
      ...comment,
      authorName:
        comment.authorName ?? toStringOrNull(r.contact_name) ?? (email ? email.slice(0, email.indexOf('@')) : null),
    };
  });
}

/** The titles of these posts of the workspace (those that exist), by id. */
export async function titles(sql: Sql, organizationId: string, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await sql.all<{ id: string; title: string }>(
    `SELECT p.id, p.title FROM ${sql.dialect.rowsOfIds('post', 'p')} WHERE p.organization_id = ?`,
    [JSON.stringify(ids), organizationId],
  );
  return new Map(rows.map((r) => [r.id, r.title]));
}

/** The posts a roadmap column shows and orders, at most. */
export const ROADMAP_LIMIT = 100;

/**
 * A roadmap column: the workspace's live, unmerged posts of `status` on every board that are not hidden from the
 * roadmap, in roadmap order (unordered ones after, most votes first), as the portal shows them.
 */
export function roadmapColumn(
  sql: Sql,
  organizationId: string,
  status: PostStatus,
  limit: number,
): Promise<Array<TriagePost & { roadmapOrder: number | null }>> {
  const live =
    'p.organization_id = ? AND p.status = ? AND p.hide_from_roadmap = ? AND p.deleted_at IS NULL AND p.merged_into_id IS NULL';
  const select = SELECT.replace(' FROM post p', ', p.roadmap_order FROM post p');
  const params = [organizationId, status, false];
  return postRows.inRoadmapOrder(limit, async ({ where, orderBy }, n) =>
    (await sql.all(`${select} WHERE ${live} AND ${where} ORDER BY ${orderBy} LIMIT ?`, [...params, n])).map((r) => ({
      ...readPost(r),
      roadmapOrder: toIntOrNull(r.roadmap_order),
    })),
  );
}
