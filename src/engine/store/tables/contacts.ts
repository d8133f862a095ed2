import { defineEntity, p } from '@mikro-orm/core';
import { hashEmail } from '../../shared/email.js';
import { gathered } from '../gather.js';
import { expressionIndex, onlyOn } from '../model.js';
import { asIs, defineRows } from '../rows.js';
import {
  type Database,
  json,
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
    // A post's voters by revenue within one currency (the console's post page).
    { name: 'contact_org_currency_mrr_idx', properties: ['organization', 'currency', 'mrrCents', 'id'] },
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
    /** The language the person reads the portal and its mail in (a BCP 47 tag), or null. */
    locale: p.string().length(35).nullable(),
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
  locale: string | null;
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
export type TraitField = 'externalUserId' | 'email' | 'name' | 'plan' | 'mrrCents' | 'currency' | 'metadata' | 'locale';

/** The contact table's one row mapping; the contacts list (queries/contact-lists.ts) reads with it too. */
export const ROWS = defineRows<ContactRecord>('contact', 'c', {
  id: asIs,
  organizationId: asIs,
  externalUserId: toStringOrNull,
  email: toStringOrNull,
  name: toStringOrNull,
  plan: toStringOrNull,
  mrrCents: toIntOrNull,
  currency: toStringOrNull,
  metadata: (v) => toJson<Record<string, unknown>>(v) ?? {},
  locale: toStringOrNull,
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
  statement(`SELECT o.plan AS org_plan, o.contact_cap_override AS org_cap_override, o.contact_cap AS org_cap, ${ROWS.columns}
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
  LEFT JOIN LATERAL (SELECT ${ROWS.columns} FROM contact c WHERE c.organization_id = o.id AND c.external_user_id = q.value LIMIT 1) c ON true
  WHERE o.id = ?`);

export type FoundForIdentify = { cap: CapColumns; contact?: ContactRecord } | undefined;
export const foundForIdentify = (row: Record<string, unknown>): FoundForIdentify => {
  const cap = {
    plan: row.org_plan as string,
    contactCapOverride: toBool(row.org_cap_override),
    contactCap: toIntOrNull(row.org_cap),
  };
  return row.id === null || row.id === undefined ? { cap } : { cap, contact: ROWS.read(row) };
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
    `SELECT ${ROWS.columns} FROM contact c WHERE c.organization_id = ? AND c.id = ?${lock ? sql.dialect.forUpdate : ''}`,
    [organizationId, id],
  );
  return row && ROWS.read(row);
}

/** A contact with its counts: posts (exact, live ones) and votes and comments (by email hash). */
export async function findWithCounts(
  sql: Sql,
  organizationId: string,
  id: string,
): Promise<{ contact: ContactRecord; postCount: number; voteCount: number; commentCount: number } | undefined> {
  const row = await sql.one(
    `SELECT ${ROWS.columns},
       (SELECT COUNT(*) FROM post p WHERE p.contact_id = c.id AND p.deleted_at IS NULL) AS post_count,
       CASE WHEN c.email_hash IS NULL THEN 0 ELSE
         (SELECT COUNT(*) FROM vote v WHERE v.organization_id = c.organization_id AND v.email_hash = c.email_hash) END AS vote_count,
       CASE WHEN c.email_hash IS NULL THEN 0 ELSE
         (SELECT COUNT(*) FROM comment m WHERE m.organization_id = c.organization_id AND m.email_hash = c.email_hash AND m.deleted_at IS NULL) END AS comment_count
     FROM contact c WHERE c.organization_id = ? AND c.id = ?`,
    [organizationId, id],
  );
  return (
    row && {
      contact: ROWS.read(row),
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

/**
 * The contact a person who signed in stands for: the one with their externalUserId (a token's `sub`), else the oldest
 * with their address's hash; with its user id and address hash, the keys their votes may carry.
 */
export async function personOf(
  sql: Sql,
  organizationId: string,
  who: { externalUserId: string | null; emailHash: string },
): Promise<{ id: string; externalUserId: string | null; emailHash: string | null; locale: string | null } | undefined> {
  const read = (row: Record<string, unknown> | undefined) =>
    row && {
      id: row.id as string,
      externalUserId: toStringOrNull(row.external_user_id),
      emailHash: toStringOrNull(row.email_hash),
      locale: toStringOrNull(row.locale),
    };
  if (who.externalUserId) {
    const linked = await sql.one<Record<string, unknown>>(
      'SELECT id, external_user_id, email_hash, locale FROM contact WHERE organization_id = ? AND external_user_id = ?',
      [organizationId, who.externalUserId],
    );
    if (linked) return read(linked);
  }
  return read(
    await sql.one<Record<string, unknown>>(
      `SELECT id, external_user_id, email_hash, locale FROM contact WHERE organization_id = ? AND email_hash = ?
       ORDER BY created_at, id LIMIT 1`,
      [organizationId, who.emailHash],
    ),
  );
}

/** Every contact of the workspace with this address's hash, oldest first: one person, as far as mail and privacy go. */
export async function findByEmailHash(sql: Sql, organizationId: string, emailHash: string): Promise<ContactRecord[]> {
  const rows = await sql.all(
    `SELECT ${ROWS.columns} FROM contact c WHERE c.organization_id = ? AND c.email_hash = ? ORDER BY c.created_at, c.id`,
    [organizationId, emailHash],
  );
  return rows.map((row) => ROWS.read(row));
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

/** The language a contact reads in (null when it has none, or is gone): what a message to it is written in. */
export async function localeOf(sql: Sql, organizationId: string, id: string): Promise<string | null> {
  const row = await sql.one<{ locale: unknown }>('SELECT locale FROM contact WHERE organization_id = ? AND id = ?', [
    organizationId,
    id,
  ]);
  return toStringOrNull(row?.locale);
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
       locale, source, consent_basis, first_seen_at, last_seen_at, created_at, updated_at, version)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
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
      r.locale,
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
  locale: (c) => [['locale', c.locale]],
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
  sets.push('updated_at = ?', 'version = ?');
  params.push(ts(sql, next.updatedAt), next.version);
  return {
    sql: `UPDATE contact SET ${sets.join(', ')} WHERE id = ? AND version = ?`,
    params: [...params, current.id, current.version],
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
