import { toBool, toIso, ts, type Sql } from './sql.js';

export interface BoardRow {
  id: string;
  organizationId: string;
  name: string;
  slug: string;
  isPublic: boolean;
  createdAt: string;
  updatedAt: string;
}

const COLUMNS = 'id, organization_id, name, slug, is_public, created_at, updated_at';

function toRow(row: Record<string, unknown>): BoardRow {
  return {
    id: row.id as string,
    organizationId: row.organization_id as string,
    name: row.name as string,
    slug: row.slug as string,
    isPublic: toBool(row.is_public),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

export async function insert(sql: Sql, board: BoardRow): Promise<void> {
  await sql.run(`INSERT INTO board (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`, [
    board.id,
    board.organizationId,
    board.name,
    board.slug,
    board.isPublic,
    ts(sql, new Date(board.createdAt)),
    ts(sql, new Date(board.updatedAt)),
  ]);
}

export async function find(sql: Sql, organizationId: string, id: string): Promise<BoardRow | undefined> {
  const row = await sql.one(`SELECT ${COLUMNS} FROM board WHERE organization_id = ? AND id = ?`, [organizationId, id]);
  return row && toRow(row);
}

/** Up to `limit` boards of the workspace after (createdAt, id), oldest first. */
export async function list(sql: Sql, organizationId: string, limit: number, after?: { at: number; id: string }): Promise<BoardRow[]> {
  const rows = await sql.all(
    `SELECT ${COLUMNS} FROM board WHERE organization_id = ?${after ? ' AND (created_at, id) > (?, ?)' : ''} ORDER BY created_at, id LIMIT ?`,
    [organizationId, ...(after ? [ts(sql, new Date(after.at)), after.id] : []), limit],
  );
  return rows.map(toRow);
}

/** The slugs of the workspace's boards that are `base` or `base-...`. */
export async function slugsLike(sql: Sql, organizationId: string, base: string): Promise<string[]> {
  const rows = await sql.all<{ slug: string }>('SELECT slug FROM board WHERE organization_id = ? AND (slug = ? OR slug LIKE ?)', [organizationId, base, `${base}-%`]);
  return rows.map((r) => r.slug);
}
