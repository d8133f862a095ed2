import { defineEntity, p } from '@mikro-orm/core';
import { hashEmail } from '../../shared/email.js';
import { gathered } from '../gather.js';
import { expressionIndex, onlyOn } from '../model.js';
import { asIs, defineRows } from '../rows.js';
import {
  type Database,
  json,
  placeholders,
  type Sql,
  statement,
  toBool,
  toDate,
  toInt,
  toIntOrNull,
  toJson,
  toStringOrNull,
  ts,
  type WriteStatement,
} from '../sql.js';
import type { CapColumns } from './organizations.js';
import { Organization } from './organizations.js';

/** One end-user of the workspace's customer. */
export const Contact = defineEntity({
  name: 'Contact',
  tableName: 'contact',
  uniques: [{ name: 'contact_org_external_user_id_unique', properties: ['organization', 'externalUserId'] }],
  indexes: [
    { name: 'contact_org_created_idx', properties: ['organization', 'createdAt', 'id'] },
    { name: 'contact_org_last_seen_idx', properties: ['organization', 'lastSeenAt', 'id'] },
    { name: 'contact_org_mrr_idx', properties: ['organization', 'mrrCents', 'id'] },
    { name: 'contact_org_email_hash_idx', properties: ['organization', 'emailHash'] },
    // The list's `q` (case-insensitive substring of email or name) as index scans: pg_trgm, created by the migration.
    onlyOn('postgresql', expressionIndex('contact_email_trgm_idx', 'on "contact" using gin ("email" gin_trgm_ops)')),
    onlyOn('postgresql', expressionIndex('contact_name_trgm_idx', 'on "contact" using gin ("name" gin_trgm_ops)')),
  ],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    externalUserId: p.string().length(255).nullable(),
    email: p.string().length(320).nullable(),
    /** SHA-256 hex of the trimmed, lower-cased email: matches votes and comments. */
    emailHash: p.string().length(64).nullable(),
    name: p.string().length(200).nullable(),
    plan: p.string().length(100).nullable(),
    mrrCents: p.integer().nullable(),
    currency: p.string().length(3).nullable(),
    metadata: p.json<Record<string, unknown>>(),
    source: p.string().length(40),
    consentBasis: p.string().length(40),
    firstSeenAt: p.datetime().length(3),
    lastSeenAt: p.datetime().length(3),
    createdAt: p.datetime().length(3),
    updatedAt: p.datetime().length(3),
    /** Bumped by every trait change; contact writes are conditional on it (optimistic concurrency). */
    version: p.integer().default(1),
  },
});

/** A contact row as the engine holds it between statements. */
export interface ContactRecord {
  id: string;
  organizationId: string;
  externalUserId: string | null;
  email: string | null;
  name: string | null;
  plan: string | null;
  mrrCents: number | null;
  currency: string | null;
  metadata: Record<string, unknown>;
  source: string;
  consentBasis: string;
  firstSeenAt: Date;
  lastSeenAt: Date;
  createdAt: Date;
  updatedAt: Date;
  /** Bumped by every trait change; writes are conditional on it. Internal, never in responses. */
  version: number;
}

/** The fields a trait change may set. */
export type TraitField = 'externalUserId' | 'email' | 'name' | 'plan' | 'mrrCents' | 'currency' | 'metadata';

const CONTACTS = defineRows<ContactRecord>('contact', 'c', {
  id: asIs,
  organizationId: asIs,
  externalUserId: toStringOrNull,
  email: toStringOrNull,
  name: toStringOrNull,
  plan: toStringOrNull,
  mrrCents: toIntOrNull,
  currency: toStringOrNull,
  metadata: (v) => toJson<Record<string, unknown>>(v) ?? {},
  source: asIs,
  consentBasis: asIs,
  firstSeenAt: toDate,
  lastSeenAt: toDate,
  createdAt: toDate,
  updatedAt: toDate,
  version: toInt,
});

/** Identify's one read: the contact (if any) with its workspace's cap columns. Prepared once per connection on PostgreSQL. */
const FIND_FOR_IDENTIFY =
  statement(`SELECT o.plan AS org_plan, o.contact_cap_override AS org_cap_override, o.contact_cap AS org_cap, ${CONTACTS.columns}
  FROM organization o LEFT JOIN contact c ON c.organization_id = o.id AND c.external_user_id = ?
  WHERE o.id = ?`);

/**
 * The same for several externalUserIds at once (PostgreSQL: the identifies of one workspace gathered into one round
 * trip), a row per id found or not, tagged with the id asked for.
 */
// A lateral lookup per id: one unique-index probe each, whatever the planner's statistics say of the workspace's size
// (a plain join was planned as a hash join over all of the workspace's contacts).
const FIND_MANY_FOR_IDENTIFY =
  statement(`SELECT q.value AS wanted, o.plan AS org_plan, o.contact_cap_override AS org_cap_override, o.contact_cap AS org_cap, c.*
  FROM organization o CROSS JOIN (SELECT DISTINCT value FROM json_array_elements_text(?::json)) q
  LEFT JOIN LATERAL (SELECT ${CONTACTS.columns} FROM contact c WHERE c.organization_id = o.id AND c.external_user_id = q.value LIMIT 1) c ON true
  WHERE o.id = ?`);

type FoundForIdentify = { cap: CapColumns; contact?: ContactRecord } | undefined;
const foundForIdentify = (row: Record<string, unknown>): FoundForIdentify => {
  const cap = {
    plan: row.org_plan as string,
    contactCapOverride: toBool(row.org_cap_override),
    contactCap: toIntOrNull(row.org_cap),
  };
  return row.id === null || row.id === undefined ? { cap } : { cap, contact: CONTACTS.read(row) };
};

/**
 * The workspace's cap columns and its contact with this externalUserId; undefined when the workspace does not exist.
 * On PostgreSQL, the reads of one workspace made while one is on its way are gathered into one statement (`gather`).
 */
export function findForIdentify(
  sql: Sql | Database,
  organizationId: string,
  externalUserId: string,
): Promise<FoundForIdentify> {
  return gathered(
    sql,
    'identify-read',
    organizationId,
    externalUserId,
    async (wanted: string[]): Promise<FoundForIdentify[]> => {
      if (wanted.length === 1) {
        const row = await sql.one(FIND_FOR_IDENTIFY, [wanted[0], organizationId]);
        return [row && foundForIdentify(row)];
      }
      const rows = await sql.all(FIND_MANY_FOR_IDENTIFY, [JSON.stringify(wanted), organizationId]);
      const found = new Map(rows.map((row) => [row.wanted as string, foundForIdentify(row)]));
      return wanted.map((id) => found.get(id));
    },
  );
}

/** A contact of the workspace, locked for the transaction with `lock` (PostgreSQL). */
export async function find(
  sql: Sql,
  organizationId: string,
  id: string,
  lock = false,
): Promise<ContactRecord | undefined> {
  const row = await sql.one(
    `SELECT ${CONTACTS.columns} FROM contact c WHERE c.organization_id = ? AND c.id = ?${lock ? sql.dialect.forUpdate : ''}`,
    [organizationId, id],
  );
  return row && CONTACTS.read(row);
}

/** A contact with its counts: posts (exact, live ones) and votes and comments (by email hash). */
export async function findWithCounts(
  sql: Sql,
  organizationId: string,
  id: string,
): Promise<{ contact: ContactRecord; postCount: number; voteCount: number; commentCount: number } | undefined> {
  const row = await sql.one(
    `SELECT ${CONTACTS.columns},
       (SELECT COUNT(*) FROM post p WHERE p.contact_id = c.id AND p.deleted_at IS NULL) AS post_count,
       CASE WHEN c.email_hash IS NULL THEN 0 ELSE
         (SELECT COUNT(*) FROM vote v WHERE v.organization_id = c.organization_id AND v.email_hash = c.email_hash) END AS vote_count,
       CASE WHEN c.email_hash IS NULL THEN 0 ELSE
         (SELECT COUNT(*) FROM comment m WHERE m.organization_id = c.organization_id AND m.email_hash = c.email_hash) END AS comment_count
     FROM contact c WHERE c.organization_id = ? AND c.id = ?`,
    [organizationId, id],
  );
  return (
    row && {
      contact: CONTACTS.read(row),
      postCount: toInt(row.post_count),
      voteCount: toInt(row.vote_count),
      commentCount: toInt(row.comment_count),
    }
  );
}

export async function exists(sql: Sql, organizationId: string, id: string): Promise<boolean> {
  return (
    (await sql.one('SELECT id FROM contact WHERE organization_id = ? AND id = ?', [organizationId, id])) !== undefined
  );
}

/** The oldest contact of the workspace with this email hash. */
export async function findIdByEmailHash(
  sql: Sql,
  organizationId: string,
  emailHash: string,
): Promise<string | undefined> {
  const row = await sql.one<{ id: string }>(
    'SELECT id FROM contact WHERE organization_id = ? AND email_hash = ? ORDER BY created_at, id LIMIT 1',
    [organizationId, emailHash],
  );
  return row?.id;
}

/** Every contact of the workspace with this address's hash, oldest first: one person, as far as mail and privacy go. */
export async function findByEmailHash(sql: Sql, organizationId: string, emailHash: string): Promise<ContactRecord[]> {
  const rows = await sql.all(
    `SELECT ${CONTACTS.columns} FROM contact c WHERE c.organization_id = ? AND c.email_hash = ? ORDER BY c.created_at, c.id`,
    [organizationId, emailHash],
  );
  return rows.map((row) => CONTACTS.read(row));
}

/** Whether another contact of the workspace has this externalUserId. */
export async function externalUserIdTaken(
  sql: Sql,
  organizationId: string,
  externalUserId: string,
  exceptId: string,
): Promise<boolean> {
  const row = await sql.one('SELECT id FROM contact WHERE organization_id = ? AND external_user_id = ? AND id <> ?', [
    organizationId,
    externalUserId,
    exceptId,
  ]);
  return row !== undefined;
}

/** How many contacts the workspace has, counting no further than `atMost` (an index range of that length). */
export async function countUpTo(sql: Sql, organizationId: string, atMost: number): Promise<number> {
  const row = await sql.one<{ n: unknown }>(
    'SELECT COUNT(*) AS n FROM (SELECT 1 FROM contact WHERE organization_id = ? LIMIT ?) t',
    [organizationId, atMost],
  );
  return toInt(row?.n);
}

export async function count(sql: Sql, organizationId: string): Promise<number> {
  return toInt(
    (await sql.one<{ n: unknown }>('SELECT COUNT(*) AS n FROM contact WHERE organization_id = ?', [organizationId]))?.n,
  );
}

/** Insert a contact unless its externalUserId is taken in the workspace (then it changes nothing). */
export function insert(sql: Sql, r: ContactRecord): WriteStatement {
  return {
    sql: `INSERT INTO contact (id, organization_id, external_user_id, email, email_hash, name, plan, mrr_cents, currency, metadata,
       source, consent_basis, first_seen_at, last_seen_at, created_at, updated_at, version)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (organization_id, external_user_id) DO NOTHING`,
    // Named by what could collide: two inserts of one externalUserId.
    row: r.externalUserId === null ? `contact ${r.id}` : `contact ${r.organizationId} ${r.externalUserId}`,
    params: [
      r.id,
      r.organizationId,
      r.externalUserId,
      r.email,
      hashEmail(r.email),
      r.name,
      r.plan,
      r.mrrCents,
      r.currency,
      json(r.metadata),
      r.source,
      r.consentBasis,
      ts(sql, r.firstSeenAt),
      ts(sql, r.lastSeenAt),
      ts(sql, r.createdAt),
      ts(sql, r.updatedAt),
      r.version,
    ],
  };
}

/** The columns a trait is stored in, with their values as bound. */
const TRAIT_COLUMNS: Record<TraitField, (c: ContactRecord) => Array<[string, unknown]>> = {
  externalUserId: (c) => [['external_user_id', c.externalUserId]],
  email: (c) => [
    ['email', c.email],
    ['email_hash', hashEmail(c.email)],
  ],
  name: (c) => [['name', c.name]],
  plan: (c) => [['plan', c.plan]],
  mrrCents: (c) => [['mrr_cents', c.mrrCents]],
  currency: (c) => [['currency', c.currency]],
  metadata: (c) => [['metadata', json(c.metadata)]],
};

/**
 * Write `next` over `current`: the changed traits' columns only (an index whose columns are not in the SET list is
 * not touched), `last_seen_at` when it moved, and the new version, on condition that the row still has the version
 * read (a concurrent writer makes it match nothing).
 */
export function update(
  sql: Sql,
  current: ContactRecord,
  next: ContactRecord,
  changed: readonly TraitField[],
): WriteStatement {
  const sets: string[] = [];
  const params: unknown[] = [];
  for (const field of changed) {
    for (const [column, value] of TRAIT_COLUMNS[field](next)) {
      sets.push(`${column} = ?`);
      params.push(value);
    }
  }
  if (next.lastSeenAt !== current.lastSeenAt) {
    sets.push('last_seen_at = ?');
    params.push(ts(sql, next.lastSeenAt));
  }
  return {
    sql: `UPDATE contact SET ${sets.join(', ')}, updated_at = ?, version = ? WHERE id = ? AND version = ?`,
    params: [...params, ts(sql, next.updatedAt), next.version, current.id, current.version],
    row: `contact ${current.id}`,
  };
}

/** Move `last_seen_at` forward (never back); not a trait, so no version check. */
export async function touch(sql: Sql, id: string, seenAt: Date): Promise<void> {
  await sql.run('UPDATE contact SET last_seen_at = ? WHERE id = ? AND last_seen_at < ?', [
    ts(sql, seenAt),
    id,
    ts(sql, seenAt),
  ]);
}

/** Delete a contact; its posts, votes and comments stay, without it. */
export async function remove(sql: Sql, id: string): Promise<void> {
  for (const table of ['post', 'vote', 'comment'])
    await sql.run(`UPDATE ${table} SET contact_id = NULL WHERE contact_id = ?`, [id]);
  await sql.run('DELETE FROM contact WHERE id = ?', [id]);
}

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
  query: { q?: string; plan?: string[]; sort: ContactSortColumn; limit: number; after?: ContactPosition },
): Promise<ContactRecord[]> {
  const filters: string[] = ['c.organization_id = ?'];
  const params: unknown[] = [organizationId];
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
  if (rows.length < limit) {
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
