import type { ModerationStatus, Post, PostStatus } from '../../schemas/posts.js';
import { toBool, toInt, toIntOrNull, toIso, toIsoOrNull, toStringOrNull, ts, type Sql } from './sql.js';

const COLUMNS =
  'p.id, p.organization_id, p.board_id, p.contact_id, p.author_user_id, p.title, p.slug, p.body, p.body_text, p.status, p.moderation_status, p.hide_from_roadmap, p.roadmap_order, p.merged_into_id, p.comment_count, p.vote_count, p.created_at, p.updated_at, p.deleted_at';

function toPost(row: Record<string, unknown>): Post {
  return {
    id: row.id as string,
    organizationId: row.organization_id as string,
    boardId: row.board_id as string,
    contactId: toStringOrNull(row.contact_id),
    authorUserId: toStringOrNull(row.author_user_id),
    title: row.title as string,
    slug: row.slug as string,
    body: row.body as string,
    bodyText: row.body_text as string,
    status: row.status as PostStatus,
    moderationStatus: row.moderation_status as ModerationStatus,
    hideFromRoadmap: toBool(row.hide_from_roadmap),
    roadmapOrder: toIntOrNull(row.roadmap_order),
    mergedIntoId: toStringOrNull(row.merged_into_id),
    commentCount: toInt(row.comment_count),
    voteCount: toInt(row.vote_count),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    deletedAt: toIsoOrNull(row.deleted_at),
  };
}

export async function insert(sql: Sql, post: Post): Promise<void> {
  await sql.run(
    `INSERT INTO post (id, organization_id, board_id, contact_id, author_user_id, title, slug, body, body_text, status, moderation_status,
       hide_from_roadmap, roadmap_order, merged_into_id, comment_count, vote_count, created_at, updated_at, deleted_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
    [
      post.id, post.organizationId, post.boardId, post.contactId, post.authorUserId, post.title, post.slug, post.body, post.bodyText,
      post.status, post.moderationStatus, post.hideFromRoadmap, post.roadmapOrder, post.mergedIntoId, post.commentCount, post.voteCount,
      ts(sql, new Date(post.createdAt)), ts(sql, new Date(post.updatedAt)),
    ],
  );
}

/** A live (not soft-deleted) post of the workspace, locked for the transaction with `lock` (PostgreSQL). */
export async function findLive(sql: Sql, organizationId: string, id: string, lock = false): Promise<Post | undefined> {
  const row = await sql.one(`SELECT ${COLUMNS} FROM post p WHERE p.organization_id = ? AND p.id = ? AND p.deleted_at IS NULL${lock ? sql.dialect.forUpdate : ''}`, [
    organizationId,
    id,
  ]);
  return row && toPost(row);
}

/** Write a post's editable fields as `post` has them. */
export async function update(sql: Sql, post: Post): Promise<void> {
  await sql.run(
    'UPDATE post SET title = ?, body = ?, body_text = ?, contact_id = ?, hide_from_roadmap = ?, slug = ?, status = ?, updated_at = ? WHERE id = ?',
    [post.title, post.body, post.bodyText, post.contactId, post.hideFromRoadmap, post.slug, post.status, ts(sql, new Date(post.updatedAt)), post.id],
  );
}

/** Soft-delete a live post; whether there was one. */
export async function softDelete(sql: Sql, organizationId: string, id: string, now: Date): Promise<boolean> {
  const changed = await sql.run('UPDATE post SET deleted_at = ?, updated_at = ? WHERE organization_id = ? AND id = ? AND deleted_at IS NULL', [
    ts(sql, now),
    ts(sql, now),
    organizationId,
    id,
  ]);
  return changed > 0;
}

/** The slugs of the board's posts that are `base` or `base-...` (soft-deleted posts keep theirs). */
export async function slugsLike(sql: Sql, boardId: string, base: string): Promise<string[]> {
  return (await sql.all<{ slug: string }>('SELECT slug FROM post WHERE board_id = ? AND (slug = ? OR slug LIKE ?)', [boardId, base, `${base}-%`])).map(
    (r) => r.slug,
  );
}

/** Whether another post of the board has this slug. */
export async function slugTaken(sql: Sql, boardId: string, slug: string, exceptId: string): Promise<boolean> {
  return (await sql.one('SELECT id FROM post WHERE board_id = ? AND slug = ? AND id <> ?', [boardId, slug, exceptId])) !== undefined;
}

/** Up to `limit` live posts attached to the contact, newest first, after (createdAt, id). */
export async function listForContact(sql: Sql, organizationId: string, contactId: string, limit: number, after?: { at: number; id: string }): Promise<Post[]> {
  const rows = await sql.all(
    `SELECT ${COLUMNS} FROM post p
     WHERE p.contact_id = ? AND p.organization_id = ? AND p.deleted_at IS NULL${after ? ' AND (p.created_at, p.id) < (?, ?)' : ''}
     ORDER BY p.created_at DESC, p.id DESC LIMIT ?`,
    [contactId, organizationId, ...(after ? [ts(sql, new Date(after.at)), after.id] : []), limit],
  );
  return rows.map(toPost);
}
