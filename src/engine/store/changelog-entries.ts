import type { ChangelogEntry } from '../../schemas/interactions.js';
import { toIso, toIsoOrNull, ts, type Sql, type WriteStatement } from './sql.js';

const COLUMNS = 'id, organization_id, board_id, title, slug, body, status, published_at, created_at, updated_at';

function toEntry(row: Record<string, unknown>): ChangelogEntry {
  return {
    id: row.id as string,
    organizationId: row.organization_id as string,
    boardId: row.board_id as string,
    title: row.title as string,
    slug: row.slug as string,
    body: row.body as string,
    status: row.status as ChangelogEntry['status'],
    publishedAt: toIsoOrNull(row.published_at),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

export async function insert(sql: Sql, entry: ChangelogEntry): Promise<void> {
  await sql.run(`INSERT INTO changelog_entry (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)`, [
    entry.id, entry.organizationId, entry.boardId, entry.title, entry.slug, entry.body, entry.status,
    ts(sql, new Date(entry.createdAt)), ts(sql, new Date(entry.updatedAt)),
  ]);
}

export async function find(sql: Sql, organizationId: string, id: string): Promise<ChangelogEntry | undefined> {
  const row = await sql.one(`SELECT ${COLUMNS} FROM changelog_entry WHERE organization_id = ? AND id = ?`, [organizationId, id]);
  return row && toEntry(row);
}

/** A board's entries, newest first. */
export async function listForBoard(sql: Sql, organizationId: string, boardId: string): Promise<ChangelogEntry[]> {
  const rows = await sql.all(`SELECT ${COLUMNS} FROM changelog_entry WHERE organization_id = ? AND board_id = ? ORDER BY created_at DESC, id DESC`, [
    organizationId,
    boardId,
  ]);
  return rows.map(toEntry);
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
  return (await sql.all<{ slug: string }>('SELECT slug FROM changelog_entry WHERE board_id = ? AND (slug = ? OR slug LIKE ?)', [boardId, base, `${base}-%`])).map(
    (r) => r.slug,
  );
}
