import { defineEntity, p } from '@mikro-orm/core';
import type { Post as PostRecord } from '../../../schemas/posts.js';
import { expressionIndex, onlyOn } from '../model.js';
import { type After, asIs, defineRows, pageOf } from '../rows.js';
import { type Sql, toBool, toInt, toIntOrNull, toIso, toIsoOrNull, toStringOrNull, ts } from '../sql.js';
import { inList, type Subject } from '../subjects.js';
import { Board } from './boards.js';
import { Contact } from './contacts.js';
import { Organization } from './organizations.js';

/** A post on a board, optionally attached to the contact who filed it. */
export const Post = defineEntity({
  name: 'Post',
  tableName: 'post',
  uniques: [{ name: 'post_board_slug_unique', properties: ['board', 'slug'] }],
  indexes: [
    { name: 'post_contact_created_idx', properties: ['contact', 'createdAt', 'id'] },
    { name: 'post_board_created_idx', properties: ['board', 'createdAt', 'id'] },
    { name: 'post_board_votes_idx', properties: ['board', 'voteCount', 'id'] },
    // Partial: nearly every post is merged into nothing, and a full index made SQLite scan once ANALYZE saw that.
    expressionIndex('post_merged_into_idx', 'on "post" ("merged_into_id") where "merged_into_id" is not null'),
    // The posts held for moderation, counted beside the console's Posts: few, so a partial index.
    expressionIndex(
      'post_held_idx',
      'on "post" ("organization_id", "created_at") where "moderation_status" = \'pending\' and "deleted_at" is null',
    ),
    // The console's posts page, every board at once, by votes and newest (its impact order is post_impact's index).
    { name: 'post_org_votes_idx', properties: ['organization', 'voteCount', 'createdAt', 'id'] },
    { name: 'post_org_created_idx', properties: ['organization', 'createdAt', 'id'] },
    // The roadmap's columns (the portal's and the console's): a workspace's posts of one status in roadmap order,
    // and the unordered ones by votes (roadmap_order null: an equality on the index).
    { name: 'post_org_status_roadmap_idx', properties: ['organization', 'status', 'roadmapOrder', 'voteCount', 'id'] },
    // A contact's live posts newest first (GET /v1/contacts/{id}/posts), without visiting deleted ones.
    onlyOn(
      'postgresql',
      expressionIndex(
        'post_contact_live_idx',
        'on "post" ("contact_id", "created_at" desc, "id" desc) where "deleted_at" is null',
      ),
    ),
    // The portal's board pages in Top's and New's orders, over exactly the posts a board shows: the plan needs no
    // statistics (a freshly loaded workspace has none until autovacuum runs).
    onlyOn(
      'postgresql',
      expressionIndex(
        'post_board_shown_votes_idx',
        `on "post" ("board_id", "vote_count" desc, "id" desc) where "deleted_at" is null and "moderation_status" = 'approved' and "merged_into_id" is null`,
      ),
    ),
    onlyOn(
      'postgresql',
      expressionIndex(
        'post_board_shown_created_idx',
        `on "post" ("board_id", "created_at" desc, "id" desc) where "deleted_at" is null and "moderation_status" = 'approved' and "merged_into_id" is null`,
      ),
    ),
  ],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    board: () => p.manyToOne(Board).deleteRule('cascade'),
    contact: () => p.manyToOne(Contact).nullable().deleteRule('set null'),
    authorUserId: p.string().length(255).nullable(),
    /** The name an end-user gave on the portal, shown beside the post. */
    authorName: p.string().length(200).nullable(),
    title: p.string().length(200),
    slug: p.string().length(80),
    body: p.text(),
    bodyText: p.text(),
    status: p.string().length(20),
    moderationStatus: p.string().length(20),
    hideFromRoadmap: p.boolean().default(false),
    roadmapOrder: p.integer().nullable(),
    mergedIntoId: p.string().length(40).nullable(),
    commentCount: p.integer().default(0),
    voteCount: p.integer().default(0),
    createdAt: p.datetime().length(3),
    updatedAt: p.datetime().length(3),
    deletedAt: p.datetime().length(3).nullable(),
  },
});

/** A post's row: the record the API answers with, and the name an end-user gave on the portal. */
export type PostRow = PostRecord & { authorName: string | null };

/** The post table's one row mapping; the reads that join several tables take views of it (`ROWS.pick(...)`). */
export const ROWS = defineRows<PostRow>('post', 'p', {
  id: asIs,
  organizationId: asIs,
  boardId: asIs,
  contactId: toStringOrNull,
  authorUserId: toStringOrNull,
  title: asIs,
  slug: asIs,
  body: asIs,
  bodyText: asIs,
  status: asIs,
  moderationStatus: asIs,
  hideFromRoadmap: toBool,
  roadmapOrder: toIntOrNull,
  mergedIntoId: toStringOrNull,
  commentCount: toInt,
  voteCount: toInt,
  createdAt: toIso,
  updatedAt: toIso,
  deletedAt: toIsoOrNull,
  authorName: toStringOrNull,
});
const POSTS = ROWS.omit('authorName');

/** Insert a post; `authorName` is the name an end-user gave on the portal. */
export async function insert(sql: Sql, post: PostRecord, authorName: string | null = null): Promise<void> {
  await sql.run(
    `INSERT INTO post (${POSTS.names}, author_name)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)`,
    [
      post.id,
      post.organizationId,
      post.boardId,
      post.contactId,
      post.authorUserId,
      post.title,
      post.slug,
      post.body,
      post.bodyText,
      post.status,
      post.moderationStatus,
      post.hideFromRoadmap,
      post.roadmapOrder,
      post.mergedIntoId,
      post.commentCount,
      post.voteCount,
      ts(sql, new Date(post.createdAt)),
      ts(sql, new Date(post.updatedAt)),
      authorName,
    ],
  );
}

/** A live (not soft-deleted) post of the workspace, locked for the transaction with `lock` (PostgreSQL). */
export async function findLive(
  sql: Sql,
  organizationId: string,
  id: string,
  lock = false,
): Promise<PostRecord | undefined> {
  const row = await sql.one(
    `SELECT ${POSTS.columns} FROM post p WHERE p.organization_id = ? AND p.id = ? AND p.deleted_at IS NULL${lock ? sql.dialect.forUpdate : ''}`,
    [organizationId, id],
  );
  return row && POSTS.read(row);
}

/** The live posts of the workspace among these ids, in id order (one statement, whatever the number of ids). */
export async function findLiveMany(sql: Sql, organizationId: string, ids: readonly string[]): Promise<PostRecord[]> {
  if (ids.length === 0) return [];
  const rows = await sql.all(
    `SELECT ${POSTS.columns} FROM ${sql.dialect.rowsOfIds('post', 'p')} WHERE p.organization_id = ? AND p.deleted_at IS NULL ORDER BY p.id`,
    [JSON.stringify(ids), organizationId],
  );
  return rows.map((row) => POSTS.read(row));
}

/**
 * A live post of the workspace on a public board (what the public may take part in), locked for the transaction with
 * `lock` (PostgreSQL): one statement, the board checked in it.
 */
export async function findLiveOnPublicBoard(
  sql: Sql,
  organizationId: string,
  id: string,
  lock = false,
): Promise<PostRecord | undefined> {
  const row = await sql.one(
    `SELECT ${POSTS.columns} FROM post p WHERE p.organization_id = ? AND p.id = ? AND p.deleted_at IS NULL
       AND EXISTS (SELECT 1 FROM board b WHERE b.id = p.board_id AND b.is_public = ?)${lock ? sql.dialect.forUpdate : ''}`,
    [organizationId, id, true],
  );
  return row && POSTS.read(row);
}

/** Write a post's editable fields as `post` has them. */
export async function update(sql: Sql, post: PostRecord): Promise<void> {
  await sql.run(
    'UPDATE post SET title = ?, body = ?, body_text = ?, contact_id = ?, hide_from_roadmap = ?, slug = ?, status = ?, updated_at = ? WHERE id = ?',
    [
      post.title,
      post.body,
      post.bodyText,
      post.contactId,
      post.hideFromRoadmap,
      post.slug,
      post.status,
      ts(sql, new Date(post.updatedAt)),
      post.id,
    ],
  );
}

/** Set a post's moderation status. */
export async function setModeration(
  sql: Sql,
  id: string,
  status: PostRecord['moderationStatus'],
  now: Date,
): Promise<void> {
  await sql.run('UPDATE post SET moderation_status = ?, updated_at = ? WHERE id = ?', [status, ts(sql, now), id]);
}

/** The workspace's live posts waiting for moderation, oldest first. */
export async function listPending(sql: Sql, organizationId: string, limit: number): Promise<PostRecord[]> {
  const rows = await sql.all(
    `SELECT ${POSTS.columns} FROM post p WHERE p.organization_id = ? AND p.moderation_status = 'pending' AND p.deleted_at IS NULL ORDER BY p.created_at, p.id LIMIT ?`,
    [organizationId, limit],
  );
  return rows.map((row) => POSTS.read(row));
}

/** Mark a post as a duplicate merged into another. */
export async function merge(sql: Sql, id: string, intoId: string, now: Date): Promise<void> {
  await sql.run("UPDATE post SET merged_into_id = ?, status = 'duplicate', updated_at = ? WHERE id = ?", [
    intoId,
    ts(sql, now),
    id,
  ]);
}

/** Soft-delete a live post; whether there was one. */
export async function softDelete(sql: Sql, organizationId: string, id: string, now: Date): Promise<boolean> {
  const changed = await sql.run(
    'UPDATE post SET deleted_at = ?, updated_at = ? WHERE organization_id = ? AND id = ? AND deleted_at IS NULL',
    [ts(sql, now), ts(sql, now), organizationId, id],
  );
  return changed > 0;
}

/** The board's live posts that were announced (`post.created`: not held for moderation), for their `post.deleted`. */
export async function announcedOnBoard(sql: Sql, boardId: string): Promise<PostRecord[]> {
  const rows = await sql.all(
    `SELECT ${POSTS.columns} FROM post p WHERE p.board_id = ? AND p.deleted_at IS NULL AND p.moderation_status = ?`,
    [boardId, 'approved'],
  );
  return rows.map((row) => POSTS.read(row));
}

/** The slugs of the board's posts that are `base` or `base-...` (soft-deleted posts keep theirs). */
export async function slugsLike(sql: Sql, boardId: string, base: string): Promise<string[]> {
  return (
    await sql.all<{ slug: string }>('SELECT slug FROM post WHERE board_id = ? AND (slug = ? OR slug LIKE ?)', [
      boardId,
      base,
      `${base}-%`,
    ])
  ).map((r) => r.slug);
}

/** Whether another post of the board has this slug. */
export async function slugTaken(sql: Sql, boardId: string, slug: string, exceptId: string): Promise<boolean> {
  return (
    (await sql.one('SELECT id FROM post WHERE board_id = ? AND slug = ? AND id <> ?', [boardId, slug, exceptId])) !==
    undefined
  );
}

/** Up to `limit` live posts attached to the contact, newest first, after (createdAt, id). */
export function listForContact(
  sql: Sql,
  organizationId: string,
  contactId: string,
  limit: number,
  after?: After,
): Promise<PostRecord[]> {
  const live = {
    where: 'p.contact_id = ? AND p.organization_id = ? AND p.deleted_at IS NULL',
    params: [contactId, organizationId],
  };
  return pageOf(sql, POSTS, live, limit, after, true);
}

/** The person's posts (attached to their contacts, or written as their user id), soft-deleted ones too, with the name given. */
export async function listAllFor(sql: Sql, organizationId: string, who: Subject): Promise<PostRow[]> {
  const rows = await sql.all(
    `SELECT ${ROWS.columns} FROM post p WHERE p.organization_id = ? AND (${inList('p.contact_id', who.contactIds)} OR ${inList('p.author_user_id', who.userIds)}) ORDER BY p.created_at, p.id`,
    [organizationId, ...who.contactIds, ...who.userIds],
  );
  return rows.map((row) => ROWS.read(row));
}

/** Take the author's name and user id off the person's posts (the contact link goes with the contact). */
export async function anonymizeAuthor(sql: Sql, organizationId: string, who: Subject): Promise<number> {
  return sql.run(
    `UPDATE post SET author_name = NULL, author_user_id = NULL WHERE organization_id = ? AND (${inList('contact_id', who.contactIds)} OR ${inList('author_user_id', who.userIds)})`,
    [organizationId, ...who.contactIds, ...who.userIds],
  );
}

/** Put a post on another board, under `slug` there. */
export async function moveToBoard(sql: Sql, id: string, boardId: string, slug: string, now: Date): Promise<void> {
  await sql.run('UPDATE post SET board_id = ?, slug = ?, updated_at = ? WHERE id = ?', [
    boardId,
    slug,
    ts(sql, now),
    id,
  ]);
}

/** Set the roadmap order of these posts of the workspace: 1, 2, 3... in the order given. */
export async function setRoadmapOrder(sql: Sql, organizationId: string, postIds: readonly string[]): Promise<void> {
  for (const [i, id] of postIds.entries())
    await sql.run('UPDATE post SET roadmap_order = ? WHERE organization_id = ? AND id = ?', [
      i + 1,
      organizationId,
      id,
    ]);
}

/**
 * A roadmap column's posts in roadmap order, as two ranges of post_org_status_roadmap_idx (never a sort of every post of
 * the status): the ordered ones (`roadmap_order` set) first, then, while room is left, the others by votes. `range`
 * reads one range with the caller's own columns and filters, given its extra condition and its order.
 */
export async function inRoadmapOrder<T>(
  limit: number,
  range: (range: { where: string; orderBy: string }, limit: number) => Promise<T[]>,
): Promise<T[]> {
  const ordered = await range(
    { where: 'p.roadmap_order IS NOT NULL', orderBy: 'p.roadmap_order, p.vote_count DESC, p.id DESC' },
    limit,
  );
  if (ordered.length === limit) return ordered;
  return [
    ...ordered,
    ...(await range(
      { where: 'p.roadmap_order IS NULL', orderBy: 'p.vote_count DESC, p.id DESC' },
      limit - ordered.length,
    )),
  ];
}

/** The ids of the workspace's newest live, unmerged posts (post_org_created_idx), newest first. */
export async function newestLiveIds(sql: Sql, organizationId: string, limit: number): Promise<string[]> {
  const rows = await sql.all<{ id: string }>(
    `SELECT p.id FROM post p WHERE p.organization_id = ? AND p.deleted_at IS NULL AND p.merged_into_id IS NULL
     ORDER BY p.created_at DESC, p.id DESC LIMIT ?`,
    [organizationId, limit],
  );
  return rows.map((r) => r.id);
}
