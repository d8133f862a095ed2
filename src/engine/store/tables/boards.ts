import { defineEntity, p } from '@mikro-orm/core';
import { type After, asIs, defineRows, pageOf } from '../rows.js';
import { type Sql, toBool, toIso, toStringOrNull, ts } from '../sql.js';
import { Organization } from './organizations.js';

/** A board: where posts are filed. */
export const Board = defineEntity({
  name: 'Board',
  tableName: 'board',
  uniques: [{ name: 'board_org_slug_unique', properties: ['organization', 'slug'] }],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    name: p.string().length(200),
    description: p.text().nullable(),
    slug: p.string().length(80),
    isPublic: p.boolean().default(true),
    createdAt: p.datetime().length(3),
    updatedAt: p.datetime().length(3),
  },
});

export interface BoardRow {
  id: string;
  organizationId: string;
  name: string;
  /** What the board is for, in a sentence or two (the portal's boards page shows it under the name). */
  description: string | null;
  slug: string;
  isPublic: boolean;
  createdAt: string;
  updatedAt: string;
}

const BOARDS = defineRows<BoardRow>('board', 'b', {
  id: asIs,
  organizationId: asIs,
  name: asIs,
  description: toStringOrNull,
  slug: asIs,
  isPublic: toBool,
  createdAt: toIso,
  updatedAt: toIso,
});

export async function insert(sql: Sql, board: BoardRow): Promise<void> {
  await sql.run(`INSERT INTO board (${BOARDS.names}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, [
    board.id,
    board.organizationId,
    board.name,
    board.description,
    board.slug,
    board.isPublic,
    ts(sql, new Date(board.createdAt)),
    ts(sql, new Date(board.updatedAt)),
  ]);
}

/** A board of the workspace, locked for the transaction with `lock` (PostgreSQL). */
export async function find(sql: Sql, organizationId: string, id: string, lock = false): Promise<BoardRow | undefined> {
  const row = await sql.one(
    `SELECT ${BOARDS.columns} FROM board b WHERE b.organization_id = ? AND b.id = ?${lock ? sql.dialect.forUpdate : ''}`,
    [organizationId, id],
  );
  return row && BOARDS.read(row);
}

/** Up to `limit` boards of the workspace after (createdAt, id), oldest first. */
export function list(sql: Sql, organizationId: string, limit: number, after?: After): Promise<BoardRow[]> {
  return pageOf(sql, BOARDS, { where: 'b.organization_id = ?', params: [organizationId] }, limit, after);
}

/** The slugs of the workspace's boards that are `base` or `base-...`. */
export async function slugsLike(sql: Sql, organizationId: string, base: string): Promise<string[]> {
  const rows = await sql.all<{ slug: string }>(
    'SELECT slug FROM board WHERE organization_id = ? AND (slug = ? OR slug LIKE ?)',
    [organizationId, base, `${base}-%`],
  );
  return rows.map((r) => r.slug);
}

/** Write a board's name, description, slug, visibility and updatedAt (a taken slug is a unique violation). */
export async function update(sql: Sql, board: BoardRow): Promise<void> {
  await sql.run('UPDATE board SET name = ?, description = ?, slug = ?, is_public = ?, updated_at = ? WHERE id = ?', [
    board.name,
    board.description,
    board.slug,
    board.isPublic,
    ts(sql, new Date(board.updatedAt)),
    board.id,
  ]);
}

/** What is filed on a board: its live posts and its changelog entries (drafts and published). */
export async function contents(sql: Sql, boardId: string): Promise<{ posts: number; changelogEntries: number }> {
  const row = await sql.one<{ posts: unknown; entries: unknown }>(
    `SELECT (SELECT COUNT(*) FROM post WHERE board_id = ? AND deleted_at IS NULL) AS posts,
            (SELECT COUNT(*) FROM changelog_entry WHERE board_id = ?) AS entries`,
    [boardId, boardId],
  );
  return { posts: Number(row?.posts ?? 0), changelogEntries: Number(row?.entries ?? 0) };
}

/** Delete a board; its posts (with their votes, comments and tags) and its changelog entries go with it. */
export async function remove(sql: Sql, id: string): Promise<void> {
  await sql.run('DELETE FROM board WHERE id = ?', [id]);
}
