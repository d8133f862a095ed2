import { defineEntity, p } from '@mikro-orm/core';
import { expressionIndex, onlyOn } from '../model.js';
import { asIs, defineRows } from '../rows.js';
import {
  json,
  placeholders,
  type Sql,
  type Statement,
  statement,
  toDate,
  toInt,
  toIntOrNull,
  toJson,
  toStringOrNull,
  ts,
  type WriteStatement,
} from '../sql.js';
import { ROWS as CONTACT_ROWS, Contact, type FoundForIdentify, foundForIdentify } from './contacts.js';
import { Organization } from './organizations.js';

/** One paying account of the workspace's customer (a company its end-users belong to). */
export const Company = defineEntity({
  name: 'Company',
  tableName: 'company',
  uniques: [{ name: 'company_org_external_company_id_unique', properties: ['organization', 'externalCompanyId'] }],
  indexes: [
    { name: 'company_org_created_idx', properties: ['organization', 'createdAt', 'id'] },
    { name: 'company_org_mrr_idx', properties: ['organization', 'mrrCents', 'id'] },
    // The list's `q` (a case-insensitive substring of name or domain) as index scans: pg_trgm (SQLite: company_search).
    onlyOn('postgresql', expressionIndex('company_name_trgm_idx', 'on "company" using gin ("name" gin_trgm_ops)')),
    onlyOn('postgresql', expressionIndex('company_domain_trgm_idx', 'on "company" using gin ("domain" gin_trgm_ops)')),
  ],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    externalCompanyId: p.string().length(255),
    name: p.string().length(200).nullable(),
    domain: p.string().length(253).nullable(),
    plan: p.string().length(100).nullable(),
    mrrCents: p.integer().nullable(),
    currency: p.string().length(3).nullable(),
    metadata: p.json<Record<string, unknown>>(),
    createdAt: p.datetime().length(3),
    updatedAt: p.datetime().length(3),
  },
});

/** Which companies a contact belongs to (at most 10 each). Erasing either side takes the membership with it. */
export const CompanyMember = defineEntity({
  name: 'CompanyMember',
  tableName: 'company_member',
  // A company's people (its page, its member count, a deletion): the primary key leads with the contact.
  indexes: [{ name: 'company_member_company_idx', properties: ['company', 'contact'] }],
  properties: {
    contact: () => p.manyToOne(Contact).primary().deleteRule('cascade'),
    company: () => p.manyToOne(Company).primary().deleteRule('cascade'),
  },
});

export interface CompanyRecord {
  id: string;
  organizationId: string;
  externalCompanyId: string;
  name: string | null;
  domain: string | null;
  plan: string | null;
  mrrCents: number | null;
  currency: string | null;
  metadata: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

export const ROWS = defineRows<CompanyRecord>('company', 'co', {
  id: asIs,
  organizationId: asIs,
  externalCompanyId: asIs,
  name: toStringOrNull,
  domain: toStringOrNull,
  plan: toStringOrNull,
  mrrCents: toIntOrNull,
  currency: toStringOrNull,
  metadata: (v) => toJson<Record<string, unknown>>(v) ?? {},
  createdAt: toDate,
  updatedAt: toDate,
});

/** A company of the workspace by id, locked for the transaction with `lock` (PostgreSQL). */
export async function find(sql: Sql, organizationId: string, id: string, lock = false) {
  const row = await sql.one(
    `SELECT ${ROWS.columns} FROM company co WHERE co.organization_id = ? AND co.id = ?${lock ? sql.dialect.forUpdate : ''}`,
    [organizationId, id],
  );
  return row && ROWS.read(row);
}

/** The workspace's companies with these externalCompanyIds, locked for the transaction (PostgreSQL). */
export async function findByExternalIds(
  sql: Sql,
  organizationId: string,
  externalIds: readonly string[],
): Promise<Map<string, CompanyRecord>> {
  if (externalIds.length === 0) return new Map();
  const rows = await sql.all(
    `SELECT ${ROWS.columns} FROM company co WHERE co.organization_id = ? AND co.external_company_id IN (${placeholders(externalIds)})${sql.dialect.forUpdate}`,
    [organizationId, ...externalIds],
  );
  return new Map(rows.map((row) => [row.external_company_id as string, ROWS.read(row)]));
}

/** Insert a company unless its externalCompanyId is taken in the workspace (then it changes nothing). */
export function insert(sql: Sql, r: CompanyRecord): WriteStatement {
  return {
    sql: `INSERT INTO company (id, organization_id, external_company_id, name, domain, plan, mrr_cents, currency, metadata, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (organization_id, external_company_id) DO NOTHING`,
    row: `company ${r.organizationId} ${r.externalCompanyId}`,
    params: [
      r.id,
      r.organizationId,
      r.externalCompanyId,
      r.name,
      r.domain,
      r.plan,
      r.mrrCents,
      r.currency,
      json(r.metadata),
      ts(sql, r.createdAt),
      ts(sql, r.updatedAt),
    ],
  };
}

/** Write every field of `next` (the company is locked by the caller's transaction). */
export function update(sql: Sql, next: CompanyRecord): WriteStatement {
  return {
    sql: `UPDATE company SET external_company_id = ?, name = ?, domain = ?, plan = ?, mrr_cents = ?, currency = ?, metadata = ?, updated_at = ?
     WHERE id = ?`,
    row: `company ${next.id}`,
    params: [
      next.externalCompanyId,
      next.name,
      next.domain,
      next.plan,
      next.mrrCents,
      next.currency,
      json(next.metadata),
      ts(sql, next.updatedAt),
      next.id,
    ],
  };
}

export async function remove(sql: Sql, id: string): Promise<void> {
  await sql.run('DELETE FROM company WHERE id = ?', [id]);
}

/** Whether another company of the workspace has this externalCompanyId. */
export async function externalIdTaken(sql: Sql, organizationId: string, externalId: string, exceptId: string) {
  const row = await sql.one(
    'SELECT id FROM company WHERE organization_id = ? AND external_company_id = ? AND id <> ?',
    [organizationId, externalId, exceptId],
  );
  return row !== undefined;
}

/** How many contacts belong to each of these companies. */
export async function memberCounts(sql: Sql, companyIds: readonly string[]): Promise<Map<string, number>> {
  if (companyIds.length === 0) return new Map();
  const rows = await sql.all<{ company_id: string; n: unknown }>(
    `SELECT company_id, COUNT(*) AS n FROM company_member WHERE company_id IN (${placeholders(companyIds)}) GROUP BY company_id`,
    companyIds,
  );
  return new Map(rows.map((r) => [r.company_id, toInt(r.n)]));
}

/** The companies each of these contacts belongs to, by externalCompanyId. */
export async function ofContacts(sql: Sql, contactIds: readonly string[]): Promise<Map<string, CompanyRecord[]>> {
  const out = new Map<string, CompanyRecord[]>();
  if (contactIds.length === 0) return out;
  const rows = await sql.all(
    `SELECT m.contact_id AS member_contact_id, ${ROWS.columns} FROM company_member m JOIN company co ON co.id = m.company_id
     WHERE m.contact_id IN (${placeholders(contactIds)}) ORDER BY co.external_company_id`,
    contactIds,
  );
  for (const row of rows) {
    const contactId = row.member_contact_id as string;
    out.set(contactId, [...(out.get(contactId) ?? []), ROWS.read(row)]);
  }
  return out;
}

/**
 * Make `companyIds` the contact's companies exactly: the new memberships first, then the ended ones, each row only
 * once. A company kept is not touched, and a contact who keeps one company is never without (the impact triggers
 * would count them as their own account in between).
 */
export async function setForContact(sql: Sql, contactId: string, companyIds: readonly string[]): Promise<void> {
  for (const companyId of companyIds)
    await sql.run('INSERT INTO company_member (contact_id, company_id) VALUES (?, ?) ON CONFLICT DO NOTHING', [
      contactId,
      companyId,
    ]);
  await sql.run(
    companyIds.length
      ? `DELETE FROM company_member WHERE contact_id = ? AND company_id NOT IN (${placeholders(companyIds)})`
      : 'DELETE FROM company_member WHERE contact_id = ?',
    [contactId, ...companyIds],
  );
}

/** A company's fields that identify may name beside its externalCompanyId. */
export type NamedField = 'name' | 'domain' | 'plan' | 'mrrCents' | 'currency' | 'metadata';
/** A contact's company as identify's read gives it: its externalCompanyId and the fields the identify names. */
export type NamedCompany = Pick<CompanyRecord, 'externalCompanyId'> & Partial<Pick<CompanyRecord, NamedField>>;

/**
 * Identify's read of a contact with its companies, for the fields it names: the companies travel as one JSON array
 * per contact, each company an array of its externalCompanyId and those fields (metadata, the largest, only when
 * named). One statement per set of fields named, kept.
 */
const findForIdentifyStatements = new Map<string, { text: Statement; read: (values: unknown[]) => NamedCompany }>();
function findForIdentifyStatement(dialect: 'sqlite' | 'postgresql', named: readonly NamedField[]) {
  const key = `${dialect} ${named.join(' ')}`;
  let found = findForIdentifyStatements.get(key);
  if (found) return found;
  const rows = ROWS.pick('externalCompanyId', ...named);
  const columns = rows.names.split(', ');
  const values = columns.map((name) =>
    name === 'metadata' && dialect === 'sqlite' ? 'json(co.metadata)' : `co.${name}`,
  );
  const companies =
    dialect === 'sqlite'
      ? `(SELECT json_group_array(json_array(${values.join(', ')})) FROM company_member m JOIN company co ON co.id = m.company_id WHERE m.contact_id = c.id)`
      : `(SELECT json_agg(json_build_array(${values.join(', ')})) FROM company_member m JOIN company co ON co.id = m.company_id WHERE m.contact_id = c.id)`;
  found = {
    text: statement(`SELECT o.plan AS org_plan, o.contact_cap_override AS org_cap_override, o.contact_cap AS org_cap, ${CONTACT_ROWS.columns}, ${companies} AS companies_json
  FROM organization o LEFT JOIN contact c ON c.organization_id = o.id AND c.external_user_id = ? WHERE o.id = ?`),
    read: (list) => {
      const row: Record<string, unknown> = {};
      for (let i = 0; i < columns.length; i++) row[columns[i]!] = list[i];
      return rows.read(row);
    },
  };
  findForIdentifyStatements.set(key, found);
  return found;
}

/**
 * Identify's one read when it names companies: the workspace's cap columns, its contact with this externalUserId, and
 * the companies the contact belongs to with the fields `named` (as one JSON array), so an identify that changes no
 * company costs one statement, one row.
 */
export async function findForIdentify(
  sql: Sql,
  organizationId: string,
  externalUserId: string,
  named: readonly NamedField[],
): Promise<{ found: FoundForIdentify; companies: NamedCompany[] }> {
  const { text, read } = findForIdentifyStatement(sql.dialect.name, named);
  const row = await sql.one(text, [externalUserId, organizationId]);
  if (!row) return { found: undefined, companies: [] };
  const list = toJson<unknown[][] | null>(row.companies_json) ?? [];
  return { found: foundForIdentify(row), companies: list.map(read) };
}
