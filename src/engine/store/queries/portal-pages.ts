import type { PostStatus } from '../../../schemas/posts.js';
import { type Sql, toInt, toIso, ts } from '../sql.js';
import * as changelogEntries from '../tables/changelog-entries.js';
import * as commentRows from '../tables/comments.js';
import * as postRows from '../tables/posts.js';

// What the public portal reads: only public boards, and on them only live, approved posts that were not merged into
// another. Every list is a keyset page.

/** A public board with how many posts it shows. */
export interface PortalBoard {
  id: string;
  name: string;
  description: string | null;
  slug: string;
  postCount: number;
}

/** A post as the portal lists and shows it. */
export type PortalPost = Pick<
  postRows.PostRow,
  | 'id'
  | 'boardId'
  | 'title'
  | 'slug'
  | 'bodyText'
  | 'status'
  | 'authorName'
  | 'voteCount'
  | 'commentCount'
  | 'roadmapOrder'
  | 'mergedIntoId'
  | 'createdAt'
>;
const POSTS = postRows.ROWS.pick(
  'id',
  'boardId',
  'title',
  'slug',
  'bodyText',
  'status',
  'authorName',
  'voteCount',
  'commentCount',
  'roadmapOrder',
  'mergedIntoId',
  'createdAt',
);

/** A comment as the portal shows it: `official` is the team's reply (written in the console), shown as the team's. */
export type PortalComment = Pick<
  commentRows.CommentRecord,
  'id' | 'parentId' | 'authorName' | 'official' | 'bodyText' | 'createdAt'
>;
const COMMENTS = commentRows.ROWS.pick('id', 'parentId', 'authorName', 'official', 'bodyText', 'createdAt');

/** A published changelog entry, as the portal shows it. */
export type PortalChangelogEntry = Pick<
  changelogEntries.ChangelogEntryRecord,
  'id' | 'boardId' | 'title' | 'slug' | 'body'
> & {
  publishedAt: string;
};
const ENTRIES = changelogEntries.ROWS.pick('id', 'boardId', 'title', 'slug', 'body', 'publishedAt');
/** A published entry (the only kind the portal reads) has its time. */
const readEntry = (row: Record<string, unknown>) => ENTRIES.read(row) as PortalChangelogEntry;

/**
 * What an author is called on the portal: the name they gave with what they wrote, else their contact's name (an
 * identified user's, from the workspace's backend); null (shown as "Anonymous") else. Never their email.
 */
const named = <T extends { authorName: string | null }>(record: T, row: Record<string, unknown>): T => ({
  ...record,
  authorName: record.authorName ?? ((row.contact_name as string | null) || null),
});

/** A post the public sees: live, approved, not merged. */
const SHOWN = "p.deleted_at IS NULL AND p.moderation_status = 'approved'";

export async function boards(sql: Sql, organizationId: string): Promise<PortalBoard[]> {
  const rows = await sql.all(
    `SELECT b.id, b.name, b.description, b.slug,
       (SELECT count(*) FROM post p WHERE p.board_id = b.id AND ${SHOWN} AND p.merged_into_id IS NULL) AS post_count
     FROM board b WHERE b.organization_id = ? AND b.is_public = ? ORDER BY b.created_at, b.id`,
    [organizationId, true],
  );
  return rows.map((r) => ({
    id: r.id as string,
    name: r.name as string,
    description: (r.description as string | null) ?? null,
    slug: r.slug as string,
    postCount: toInt(r.post_count),
  }));
}

export async function boardBySlug(
  sql: Sql,
  organizationId: string,
  slug: string,
): Promise<Omit<PortalBoard, 'postCount' | 'description'> | undefined> {
  const row = await sql.one<{ id: string; name: string; slug: string }>(
    'SELECT id, name, slug FROM board WHERE organization_id = ? AND slug = ? AND is_public = ?',
    [organizationId, slug, true],
  );
  return row && { id: row.id, name: row.name, slug: row.slug };
}

/** How a board's posts are ordered: most votes, newest, or trending (votes weighed down by age, at a fixed `now`). */
export type PostOrder = { by: 'top' } | { by: 'new' } | { by: 'trending'; now: Date };

export interface PostFilter {
  status?: PostStatus;
  /** Only posts created at or after this time (a Trending window). */
  since?: Date;
}

/**
 * Up to `limit` posts of the board in `order`, after `after` (the previous page's last sort key and id). Top seeks on
 * (board_id, vote_count, id), New on (board_id, created_at, id).
 */
export async function posts(
  sql: Sql,
  boardId: string,
  order: PostOrder,
  filter: PostFilter,
  limit: number,
  after?: readonly [number, string],
): Promise<Array<PortalPost & { sortKey: number }>> {
  const where = [`p.board_id = ?`, SHOWN, 'p.merged_into_id IS NULL'];
  const params: unknown[] = [boardId];
  if (filter.status) {
    where.push('p.status = ?');
    params.push(filter.status);
  }
  if (filter.since) {
    where.push('p.created_at >= ?');
    params.push(ts(sql, filter.since));
  }
  const key =
    order.by === 'top'
      ? 'p.vote_count'
      : order.by === 'new'
        ? 'p.created_at'
        : `((p.vote_count + 1) / ((${sql.dialect.hoursUntil('p.created_at')} + 2) * (${sql.dialect.hoursUntil('p.created_at')} + 2)))`;
  const keyParams = order.by === 'trending' ? [ts(sql, order.now), ts(sql, order.now)] : [];
  if (after) {
    where.push(`(${key}, p.id) < (?, ?)`);
    params.push(...keyParams, order.by === 'new' ? ts(sql, new Date(after[0])) : after[0], after[1]);
  }
  const rows = await sql.all(
    `SELECT ${POSTS.columns}, ${key} AS sort_key FROM post p WHERE ${where.join(' AND ')} ORDER BY sort_key DESC, p.id DESC LIMIT ?`,
    [...keyParams, ...params, limit],
  );
  return rows.map((row) => ({
    ...POSTS.read(row),
    sortKey: order.by === 'new' ? new Date(toIso(row.sort_key)).getTime() : Number(row.sort_key),
  }));
}

/**
 * The shown posts of these ids (a search's best matches, read by `searchPosts`), of `status` if given. By id alone,
 * each by its primary key: the matches are the board's (a condition on the board would lead the planner to its index).
 */
export async function shownByIds(
  sql: Sql,
  ids: readonly string[],
  filter: Pick<PostFilter, 'status'>,
): Promise<PortalPost[]> {
  const where = [SHOWN, 'p.merged_into_id IS NULL'];
  const params: unknown[] = [JSON.stringify(ids)];
  if (filter.status) {
    where.push('p.status = ?');
    params.push(filter.status);
  }
  return (
    await sql.all(
      `SELECT ${POSTS.columns} FROM ${sql.dialect.rowsOfIds('post', 'p')} WHERE ${where.join(' AND ')}`,
      params,
    )
  ).map((row) => POSTS.read(row));
}

/** The most votes a shown post of the board has (0 without posts): the bound Trending's windows are checked with. */
export async function maxVotes(sql: Sql, boardId: string): Promise<number> {
  const row = await sql.one<{ vote_count: unknown }>(
    `SELECT p.vote_count FROM post p WHERE p.board_id = ? AND ${SHOWN} AND p.merged_into_id IS NULL ORDER BY p.vote_count DESC, p.id DESC LIMIT 1`,
    [boardId],
  );
  return row ? toInt(row.vote_count) : 0;
}

/**
 * The ids a form on a post page is for, from the page's address: the public board by its slug and the shown, not merged
 * post by its slug on it, in one statement (nothing else of the post, none of its comments).
 */
export async function postRef(
  sql: Sql,
  organizationId: string,
  boardSlug: string,
  postSlug: string,
): Promise<{ boardId: string; postId: string } | undefined> {
  const row = await sql.one<{ board_id: string; post_id: string }>(
    `SELECT b.id AS board_id, p.id AS post_id FROM board b JOIN post p ON p.board_id = b.id
     WHERE b.organization_id = ? AND b.slug = ? AND b.is_public = ? AND p.slug = ? AND ${SHOWN} AND p.merged_into_id IS NULL`,
    [organizationId, boardSlug, true, postSlug],
  );
  return row && { boardId: row.board_id, postId: row.post_id };
}

/** A shown post of the board by its slug, or a merged one (which the page sends on to its target). */
export async function postBySlug(sql: Sql, boardId: string, slug: string): Promise<PortalPost | undefined> {
  const row = await sql.one(
    `SELECT ${POSTS.columns}, ct.name AS contact_name FROM post p LEFT JOIN contact ct ON ct.id = p.contact_id
     WHERE p.board_id = ? AND p.slug = ? AND ${SHOWN}`,
    [boardId, slug],
  );
  return row && named(POSTS.read(row), row);
}

/** The shown post that moved away from this place, with its board's slug now (where its old address sends). */
export async function movedFrom(
  sql: Sql,
  organizationId: string,
  boardId: string,
  slug: string,
): Promise<(PortalPost & { boardSlug: string }) | undefined> {
  const row = await sql.one<{ post_id: string }>('SELECT post_id FROM post_redirect WHERE board_id = ? AND slug = ?', [
    boardId,
    slug,
  ]);
  return row ? postById(sql, organizationId, row.post_id) : undefined;
}

/** A shown post of the workspace by id, with its board's slug (where a merged post points). */
export async function postById(
  sql: Sql,
  organizationId: string,
  id: string,
): Promise<(PortalPost & { boardSlug: string }) | undefined> {
  const row = await sql.one(
    `SELECT ${POSTS.columns}, b.slug AS board_slug FROM post p JOIN board b ON b.id = p.board_id
     WHERE p.organization_id = ? AND p.id = ? AND b.is_public = ? AND ${SHOWN}`,
    [organizationId, id, true],
  );
  return row && { ...POSTS.read(row), boardSlug: row.board_slug as string };
}

/** The shown posts merged into this one. */
export async function mergedInto(sql: Sql, postId: string): Promise<PortalPost[]> {
  return (
    await sql.all(
      `SELECT ${POSTS.columns} FROM post p WHERE p.merged_into_id = ? AND ${SHOWN} ORDER BY p.created_at, p.id`,
      [postId],
    )
  ).map((r) => POSTS.read(r));
}

/** Up to `limit` comments of the post, oldest first (replies are threaded by the page). */
export async function comments(sql: Sql, postId: string, limit: number): Promise<PortalComment[]> {
  return (
    await sql.all(
      `SELECT ${COMMENTS.columns}, ct.name AS contact_name FROM comment c LEFT JOIN contact ct ON ct.id = c.contact_id
       WHERE c.post_id = ? AND c.deleted_at IS NULL ORDER BY c.created_at, c.id LIMIT ?`,
      [postId, limit],
    )
  ).map((r) => named(COMMENTS.read(r), r));
}

/** The roadmap's column for `status`: shown posts of public boards not hidden from it, in roadmap order, then by votes. */
export function roadmap(
  sql: Sql,
  organizationId: string,
  status: PostStatus,
  limit: number,
): Promise<Array<PortalPost & { boardSlug: string }>> {
  return postRows.inRoadmapOrder(limit, async ({ where, orderBy }, n) =>
    (
      await sql.all(
        `SELECT ${POSTS.columns}, b.slug AS board_slug FROM post p JOIN board b ON b.id = p.board_id
         WHERE p.organization_id = ? AND b.is_public = ? AND p.status = ? AND p.hide_from_roadmap = ? AND p.merged_into_id IS NULL AND ${SHOWN} AND ${where}
         ORDER BY ${orderBy} LIMIT ?`,
        [organizationId, true, status, false, n],
      )
    ).map((row) => ({ ...POSTS.read(row), boardSlug: row.board_slug as string })),
  );
}

/** Published entries of public boards, newest first, after (publishedAt, id). */
export async function changelog(
  sql: Sql,
  organizationId: string,
  limit: number,
  after?: readonly [number, string],
): Promise<PortalChangelogEntry[]> {
  const rows = await sql.all(
    `SELECT ${ENTRIES.columns} FROM changelog_entry ce JOIN board b ON b.id = ce.board_id
     WHERE ce.organization_id = ? AND b.is_public = ? AND ce.status = 'published'${after ? ' AND (ce.published_at, ce.id) < (?, ?)' : ''}
     ORDER BY ce.published_at DESC, ce.id DESC LIMIT ?`,
    [organizationId, true, ...(after ? [ts(sql, new Date(after[0])), after[1]] : []), limit],
  );
  return rows.map(readEntry);
}
