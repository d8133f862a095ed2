// The companies list (by creation or revenue, searched by name or domain) and a company's people, in keyset pages.
import { type Sql, toInt, toIso, ts } from '../sql.js';
import { ROWS as COMPANIES, type CompanyRecord } from '../tables/companies.js';
import { ROWS as CONTACTS, type ContactRecord } from '../tables/contacts.js';

/** A list position: the sort value of the last row (null only in the null-mrr tail) and its id. */
export interface Position {
  value: number | null;
  id: string;
}

/**
 * Up to `limit` companies of the workspace after `after`, newest first or by revenue (highest first, companies
 * without revenue last), ties broken on id: index seeks, never OFFSET. `q` is a case-insensitive substring of the name
 * or the domain.
 */
export async function listSorted(
  sql: Sql,
  organizationId: string,
  query: { q?: string; sort: 'created' | 'mrr'; limit: number; after?: Position },
): Promise<CompanyRecord[]> {
  const filters = ['co.organization_id = ?'];
  const params: unknown[] = [organizationId];
  if (query.q !== undefined) {
    const like = `%${query.q.replace(/[\\%_]/g, '\\$&')}%`;
    filters.push(`(co.name ${sql.dialect.ilike} ? ESCAPE '\\' OR co.domain ${sql.dialect.ilike} ? ESCAPE '\\')`);
    params.push(like, like);
    // SQLite: the candidates from the trigram table (3 characters or more), which the LIKE above then checks exactly.
    if (sql.dialect.name === 'sqlite' && [...query.q].length >= 3) {
      filters.push(
        'co.id IN (SELECT k.company_id FROM company_search s JOIN company_search_key k ON k.rowid = s.rowid WHERE company_search MATCH ?)',
      );
      params.push(`{name domain} : "${query.q.replace(/"/g, '""')}"`);
    }
  }
  const seek = async (extra: string[], extraParams: unknown[], order: string, limit: number) =>
    (
      await sql.all(
        `SELECT ${COMPANIES.columns} FROM company co WHERE ${[...filters, ...extra].join(' AND ')} ORDER BY ${order} LIMIT ?`,
        [...params, ...extraParams, limit],
      )
    ).map((row) => COMPANIES.read(row));
  const { after, limit } = query;
  if (query.sort === 'created') {
    const order = 'co.created_at DESC, co.id DESC';
    return after
      ? seek(['(co.created_at, co.id) < (?, ?)'], [ts(sql, new Date(after.value!)), after.id], order, limit)
      : seek([], [], order, limit);
  }
  let rows: CompanyRecord[] = [];
  if (!after || after.value !== null)
    rows = await seek(
      after ? ['co.mrr_cents IS NOT NULL', '(co.mrr_cents, co.id) < (?, ?)'] : ['co.mrr_cents IS NOT NULL'],
      after ? [after.value, after.id] : [],
      'co.mrr_cents DESC, co.id DESC',
      limit,
    );
  if (rows.length < limit)
    rows = rows.concat(
      await seek(
        after && after.value === null ? ['co.mrr_cents IS NULL', 'co.id < ?'] : ['co.mrr_cents IS NULL'],
        after && after.value === null ? [after.id] : [],
        'co.id DESC',
        limit - rows.length,
      ),
    );
  return rows;
}

/** Up to `limit` of a company's people after `after`, newest contact first. */
export async function members(
  sql: Sql,
  companyId: string,
  query: { limit: number; after?: Position },
): Promise<ContactRecord[]> {
  const after = query.after;
  const rows = await sql.all(
    `SELECT ${CONTACTS.columns} FROM company_member m JOIN contact c ON c.id = m.contact_id
     WHERE m.company_id = ?${after ? ' AND (c.created_at, c.id) < (?, ?)' : ''}
     ORDER BY c.created_at DESC, c.id DESC LIMIT ?`,
    after ? [companyId, ts(sql, new Date(after.value!)), after.id, query.limit] : [companyId, query.limit],
  );
  return rows.map((row) => CONTACTS.read(row));
}

/** A post as a company's page lists it. */
export interface CompanyPost {
  id: string;
  title: string;
  status: string;
  voteCount: number;
  createdAt: string;
  /** How many of the company's people voted for it (the posts it voted on). */
  voters: number;
}

const companyPost = (r: Record<string, unknown>): CompanyPost => ({
  id: r.id as string,
  title: r.title as string,
  status: r.status as string,
  voteCount: toInt(r.vote_count),
  createdAt: toIso(r.created_at),
  voters: toInt(r.voters),
});

/** The newest live posts a company's people wrote. */
export async function postsAskedBy(sql: Sql, companyId: string, limit: number): Promise<CompanyPost[]> {
  const rows = await sql.all(
    `SELECT p.id, p.title, p.status, p.vote_count, p.created_at, 0 AS voters FROM company_member m
     JOIN post p ON p.contact_id = m.contact_id
     WHERE m.company_id = ? AND p.deleted_at IS NULL AND p.merged_into_id IS NULL
     ORDER BY p.created_at DESC, p.id DESC LIMIT ?`,
    [companyId, limit],
  );
  return rows.map(companyPost);
}

/** The live posts a company's people voted for (the company counts once on each), most voted first. */
export async function postsVotedBy(sql: Sql, companyId: string, limit: number): Promise<CompanyPost[]> {
  const rows = await sql.all(
    `SELECT p.id, p.title, p.status, p.vote_count, p.created_at, pp.voters FROM post_payer pp
     JOIN post p ON p.id = pp.post_id
     WHERE pp.payer_id = ? AND p.deleted_at IS NULL AND p.merged_into_id IS NULL
     ORDER BY pp.voters DESC, p.vote_count DESC, p.id DESC LIMIT ?`,
    [companyId, limit],
  );
  return rows.map(companyPost);
}
