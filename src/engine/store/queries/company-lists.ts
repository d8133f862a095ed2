// The companies list (by creation or revenue, searched by name or domain) and a company's people, in keyset pages.
import { type Sql, ts } from '../sql.js';
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
