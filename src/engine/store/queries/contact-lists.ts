// The contacts list: a workspace's contacts sorted by creation, last sight or revenue, searched by address or name
// (trigram indexes on PostgreSQL), in keyset pages, and how many posts each has.
import { placeholders, type Sql, toInt, ts } from '../sql.js';
import { ROWS as CONTACTS, type ContactRecord } from '../tables/contacts.js';

export type ContactSortColumn = 'created' | 'last_seen' | 'mrr';
const SORT_COLUMN: Record<ContactSortColumn, string> = {
  created: 'c.created_at',
  last_seen: 'c.last_seen_at',
  mrr: 'c.mrr_cents',
};

/** Up to this many trigram candidates are read and sorted; a `q` with more is common enough to find by scanning in order. */
const SEARCH_DRIVE_LIMIT = 2000;

/**
 * How the list reads the contacts whose email or name holds `q`, on SQLite: from the trigram table (case folded) when
 * it holds few candidates, which are then sorted (the list's `LIKE` still checks each exactly); by scanning the
 * workspace in the list's order when it holds many, since matches then come early. Undefined where the table cannot
 * help: PostgreSQL (its planner takes the trigram indexes for the ILIKE) or a `q` under 3 characters (no trigram).
 */
async function contactSearch(sql: Sql, q: string): Promise<{ from: string; params: unknown[] } | undefined> {
  if (sql.dialect.name !== 'sqlite' || [...q].length < 3) return undefined;
  const match = `{email name} : "${q.replace(/"/g, '""')}"`;
  const many = await sql.one(
    `SELECT 1 AS many FROM contact_search WHERE contact_search MATCH ? LIMIT 1 OFFSET ${SEARCH_DRIVE_LIMIT}`,
    [match],
  );
  if (many) return undefined;
  // CROSS JOIN keeps SQLite's join order: the candidates first, then their contacts.
  return {
    from: 'contact_search s CROSS JOIN contact_search_key k ON k.rowid = s.rowid AND contact_search MATCH ? CROSS JOIN contact c ON c.id = k.contact_id',
    params: [match],
  };
}

/** A list position: the sort value of the last row (null only in the null-mrr tail) and its id. */
export interface ContactPosition {
  value: number | null;
  id: string;
}

/**
 * Up to `limit` contacts of the workspace after `after`, sorted descending with ties broken on id: every page is an
 * index seek, never OFFSET. `mrr` runs as two seeks instead of one `OR mrr IS NULL` scan: the non-null part, then the
 * null tail.
 */
export async function listSorted(
  sql: Sql,
  organizationId: string,
  query: {
    q?: string;
    plan?: string[];
    sort: ContactSortColumn;
    limit: number;
    after?: ContactPosition;
    /** Only contacts paying in this currency (the console's revenue order: never across currencies). */
    currency?: string;
  },
): Promise<ContactRecord[]> {
  const filters: string[] = ['c.organization_id = ?'];
  const params: unknown[] = [organizationId];
  if (query.currency !== undefined) {
    filters.push('c.currency = ?', 'c.mrr_cents > 0');
    params.push(query.currency);
  }
  if (query.q !== undefined) {
    const like = `%${query.q.replace(/[\\%_]/g, '\\$&')}%`;
    filters.push(`(c.email ${sql.dialect.ilike} ? ESCAPE '\\' OR c.name ${sql.dialect.ilike} ? ESCAPE '\\')`);
    params.push(like, like);
  }
  const found = query.q === undefined ? undefined : await contactSearch(sql, query.q);
  const from = found?.from ?? 'contact c';
  const fromParams = found?.params ?? [];
  if (query.plan !== undefined) {
    filters.push(`c.plan IN (${placeholders(query.plan)})`);
    params.push(...query.plan);
  }
  const seek = async (extra: string[], extraParams: unknown[], order: string, limit: number) =>
    (
      await sql.all(
        `SELECT ${CONTACTS.columns} FROM ${from} WHERE ${[...filters, ...extra].join(' AND ')} ORDER BY ${order} LIMIT ?`,
        [...fromParams, ...params, ...extraParams, limit],
      )
    ).map((row) => CONTACTS.read(row));
  const { after, limit } = query;
  if (query.sort !== 'mrr') {
    const column = SORT_COLUMN[query.sort];
    const order = `${column} DESC, c.id DESC`;
    return after
      ? seek([`(${column}, c.id) < (?, ?)`], [ts(sql, new Date(after.value!)), after.id], order, limit)
      : seek([], [], order, limit);
  }
  let rows: ContactRecord[] = [];
  if (!after || after.value !== null) {
    rows = after
      ? await seek(
          ['c.mrr_cents IS NOT NULL', '(c.mrr_cents, c.id) < (?, ?)'],
          [after.value, after.id],
          'c.mrr_cents DESC, c.id DESC',
          limit,
        )
      : await seek(['c.mrr_cents IS NOT NULL'], [], 'c.mrr_cents DESC, c.id DESC', limit);
  }
  if (rows.length < limit && query.currency === undefined) {
    const tail =
      after && after.value === null
        ? await seek(['c.mrr_cents IS NULL', 'c.id < ?'], [after.id], 'c.id DESC', limit - rows.length)
        : await seek(['c.mrr_cents IS NULL'], [], 'c.id DESC', limit - rows.length);
    rows = rows.concat(tail);
  }
  return rows;
}

/**
 * The live post count of each of these contacts, in one grouped query over their ids. A per-row subquery is planned
 * for a generic contact and seq-scans posts when a few contacts hold most of them; with the ids as values the planner
 * sees each one's own statistics and uses the index.
 */
export async function postCounts(sql: Sql, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await sql.all<{ contact_id: string; n: unknown }>(
    `SELECT contact_id, COUNT(*) AS n FROM post WHERE contact_id IN (${placeholders(ids)}) AND deleted_at IS NULL GROUP BY contact_id`,
    ids,
  );
  return new Map(rows.map((r) => [r.contact_id, toInt(r.n)]));
}

/** The currencies the workspace's paying contacts pay in, alphabetically: one index seek each (a loose index scan). */
export async function currencies(sql: Sql, organizationId: string): Promise<string[]> {
  const rows = await sql.all<{ c: string | null }>(
    `WITH RECURSIVE cur(c) AS (
       SELECT MIN(currency) FROM contact WHERE organization_id = ? AND currency IS NOT NULL
       UNION ALL
       SELECT (SELECT MIN(currency) FROM contact WHERE organization_id = ? AND currency > cur.c) FROM cur WHERE cur.c IS NOT NULL
     ) SELECT c FROM cur WHERE c IS NOT NULL`,
    [organizationId, organizationId],
  );
  return rows.map((r) => r.c!);
}
