import { defineEntity, p } from '@mikro-orm/core';
import type { ChangelogEntry as ChangelogEntryRecord } from '../../../schemas/interactions.js';

export type { ChangelogEntryRecord };

import { onlyOn } from '../model.js';
import { type After, asIs, defineRows, pageOf } from '../rows.js';
import { type Sql, toIso, toIsoOrNull, ts, type WriteStatement } from '../sql.js';
import { Board } from './boards.js';
import { Organization } from './organizations.js';
import { Post } from './posts.js';

/** A changelog entry of a board: a draft until it is published, once. */
export const ChangelogEntry = defineEntity({
  name: 'ChangelogEntry',
  tableName: 'changelog_entry',
  uniques: [{ name: 'changelog_board_slug_unique', properties: ['board', 'slug'] }],
  indexes: [
    { name: 'changelog_board_created_idx', properties: ['board', 'createdAt', 'id'] },
    // SQLite's first migration indexed every foreign key; this one leads no other index, so it stayed.
    onlyOn('sqlite', { name: 'changelog_entry_organization_id_index', properties: 'organization' }),
  ],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    board: () => p.manyToOne(Board).deleteRule('cascade'),
    title: p.string().length(200),
    slug: p.string().length(80),
    body: p.text(),
    /** `draft` or `published`. */
    status: p.string().length(20),
    publishedAt: p.datetime().length(3).nullable(),
    createdAt: p.datetime().length(3),
    updatedAt: p.datetime().length(3),
  },
});

/** The posts a changelog entry ships: linked while it is a draft, told of when it is published. */
export const ChangelogEntryPost = defineEntity({
  name: 'ChangelogEntryPost',
  tableName: 'changelog_entry_post',
  // The entries of a post: the primary key leads with the entry.
  indexes: [{ name: 'changelog_entry_post_post_idx', properties: ['post'] }],
  properties: {
    entry: () => p.manyToOne(ChangelogEntry).primary().deleteRule('cascade'),
    post: () => p.manyToOne(Post).primary().deleteRule('cascade'),
  },
});

/** Replace the posts an entry ships. */
export async function setPosts(sql: Sql, entryId: string, postIds: readonly string[]): Promise<void> {
  await sql.run('DELETE FROM changelog_entry_post WHERE entry_id = ?', [entryId]);
  for (const postId of postIds)
    await sql.run('INSERT INTO changelog_entry_post (entry_id, post_id) VALUES (?, ?)', [entryId, postId]);
}

/** The posts an entry ships (ids), oldest link first. */
export async function postsOf(sql: Sql, entryId: string): Promise<string[]> {
  return (
    await sql.all<{ post_id: string }>('SELECT post_id FROM changelog_entry_post WHERE entry_id = ? ORDER BY post_id', [
      entryId,
    ])
  ).map((r) => r.post_id);
}

/** The changelog entry table's one row mapping; the portal's pages take a view of it. */
export const ROWS = defineRows<ChangelogEntryRecord>('changelog_entry', 'ce', {
  id: asIs,
  organizationId: asIs,
  boardId: asIs,
  title: asIs,
  slug: asIs,
  body: asIs,
  status: asIs,
  publishedAt: toIsoOrNull,
  createdAt: toIso,
  updatedAt: toIso,
});

export async function insert(sql: Sql, entry: ChangelogEntryRecord): Promise<void> {
  await sql.run(`INSERT INTO changelog_entry (${ROWS.names}) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)`, [
    entry.id,
    entry.organizationId,
    entry.boardId,
    entry.title,
    entry.slug,
    entry.body,
    entry.status,
    ts(sql, new Date(entry.createdAt)),
    ts(sql, new Date(entry.updatedAt)),
  ]);
}

export async function find(sql: Sql, organizationId: string, id: string): Promise<ChangelogEntryRecord | undefined> {
  const row = await sql.one(
    `SELECT ${ROWS.columns} FROM changelog_entry ce WHERE ce.organization_id = ? AND ce.id = ?`,
    [organizationId, id],
  );
  return row && ROWS.read(row);
}

/** A board's entries, newest first. */
export async function listForBoard(sql: Sql, organizationId: string, boardId: string): Promise<ChangelogEntryRecord[]> {
  const rows = await sql.all(
    `SELECT ${ROWS.columns} FROM changelog_entry ce WHERE ce.organization_id = ? AND ce.board_id = ? ORDER BY ce.created_at DESC, ce.id DESC`,
    [organizationId, boardId],
  );
  return rows.map((row) => ROWS.read(row));
}

/** Every entry of the workspace, newest first (at most 500: the console's changelog page). */
export async function listForWorkspace(sql: Sql, organizationId: string): Promise<ChangelogEntryRecord[]> {
  const rows = await sql.all(
    `SELECT ${ROWS.columns} FROM changelog_entry ce WHERE ce.organization_id = ? ORDER BY ce.created_at DESC, ce.id DESC LIMIT 500`,
    [organizationId],
  );
  return rows.map((row) => ROWS.read(row));
}

/** Write a draft's title, body and update time. */
export async function update(sql: Sql, entry: ChangelogEntryRecord): Promise<void> {
  await sql.run("UPDATE changelog_entry SET title = ?, body = ?, updated_at = ? WHERE id = ? AND status = 'draft'", [
    entry.title,
    entry.body,
    ts(sql, new Date(entry.updatedAt)),
    entry.id,
  ]);
}

/** Publish a draft: matches nothing once it is published (so `changelog.published` is written once). */
export function publish(sql: Sql, organizationId: string, id: string, now: Date): WriteStatement {
  return {
    sql: "UPDATE changelog_entry SET status = 'published', published_at = ?, updated_at = ? WHERE organization_id = ? AND id = ? AND status = 'draft'",
    params: [ts(sql, now), ts(sql, now), organizationId, id],
  };
}

/** The slugs of the board's entries that are `base` or `base-...`. */
export async function slugsLike(sql: Sql, boardId: string, base: string): Promise<string[]> {
  return (
    await sql.all<{ slug: string }>(
      'SELECT slug FROM changelog_entry WHERE board_id = ? AND (slug = ? OR slug LIKE ?)',
      [boardId, base, `${base}-%`],
    )
  ).map((r) => r.slug);
}

/** Up to `limit` entries of the workspace (of a board, in a status), newest first, after (createdAt, id). */
export function page(
  sql: Sql,
  organizationId: string,
  filter: { boardId?: string; status?: 'draft' | 'published' },
  limit: number,
  after?: After,
): Promise<ChangelogEntryRecord[]> {
  const where = ['ce.organization_id = ?'];
  const params: unknown[] = [organizationId];
  if (filter.boardId) {
    where.push('ce.board_id = ?');
    params.push(filter.boardId);
  }
  if (filter.status) {
    where.push('ce.status = ?');
    params.push(filter.status);
  }
  return pageOf(sql, ROWS, { where: where.join(' AND '), params }, limit, after, true);
}

/** Delete a draft (a published entry stays: it was announced); whether it was one. */
export async function removeDraft(sql: Sql, id: string): Promise<boolean> {
  return (await sql.run("DELETE FROM changelog_entry WHERE id = ? AND status = 'draft'", [id])) > 0;
}
