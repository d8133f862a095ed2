import { defineEntity, p } from '@mikro-orm/core';
import { onlyOn } from '../model.js';
import { type Sql, statement, toDate, toIntOrNull, toIso, toIsoOrNull, ts } from '../sql.js';
import { Organization } from './organizations.js';

/** An API key; only the SHA-256 hash of the secret is stored. */
export const ApiKey = defineEntity({
  name: 'ApiKey',
  tableName: 'api_key',
  // SQLite's first migration indexed every foreign key; this one leads no other index, so it stayed.
  indexes: [onlyOn('sqlite', { name: 'api_key_organization_id_index', properties: 'organization' })],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    keyHash: p.string().length(64).unique('api_key_key_hash_unique'),
    scope: p.string().length(20),
    revokedAt: p.datetime().length(3).nullable(),
    /** When a request last presented it, to the minute (written at most once a minute per key and process). */
    lastUsedAt: p.datetime().length(3).nullable(),
    createdAt: p.datetime().length(3),
  },
});

/** An API key with what a request needs of its workspace. */
export interface KeyWithWorkspace {
  keyId: string;
  organizationId: string;
  scope: string;
  billingState: string;
  plan: string;
  /** Requests per minute per key; null is the server default. */
  rateLimit: number | null;
  lastUsedAt: Date | null;
}

/** An API key as `key list` shows it: never the key itself (only its hash is stored anyway). */
export interface ApiKeyInfo {
  id: string;
  organizationId: string;
  scope: string;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

/** The keys of a workspace, oldest first. */
export async function listForOrganization(sql: Sql, organizationId: string): Promise<ApiKeyInfo[]> {
  const rows = await sql.all(
    'SELECT id, organization_id, scope, created_at, revoked_at, last_used_at FROM api_key WHERE organization_id = ? ORDER BY created_at, id',
    [organizationId],
  );
  return rows.map((r) => ({
    id: r.id as string,
    organizationId: r.organization_id as string,
    scope: r.scope as string,
    createdAt: toIso(r.created_at),
    revokedAt: toIsoOrNull(r.revoked_at),
    lastUsedAt: toIsoOrNull(r.last_used_at),
  }));
}

/** Note that a key was used now. */
export async function markUsed(sql: Sql, id: string, now: Date): Promise<void> {
  await sql.run('UPDATE api_key SET last_used_at = ? WHERE id = ?', [ts(sql, now), id]);
}

export async function insert(
  sql: Sql,
  key: { id: string; organizationId: string; keyHash: string; scope: string },
  now: Date,
): Promise<void> {
  await sql.run(
    'INSERT INTO api_key (id, organization_id, key_hash, scope, revoked_at, created_at) VALUES (?, ?, ?, ?, NULL, ?)',
    [key.id, key.organizationId, key.keyHash, key.scope, ts(sql, now)],
  );
}

/**
 * Revoke a key at `at` (now, or the end of a rotation's grace period), keeping an earlier revocation time; that time,
 * or undefined for an unknown key (or one of another workspace, when `organizationId` is given).
 */
export async function revoke(sql: Sql, id: string, at: Date, organizationId?: string): Promise<string | undefined> {
  const row = await sql.one<{ revoked_at: unknown }>(
    `UPDATE api_key SET revoked_at = CASE WHEN revoked_at IS NULL OR revoked_at > ? THEN ? ELSE revoked_at END WHERE id = ?${organizationId ? ' AND organization_id = ?' : ''} RETURNING revoked_at`,
    [ts(sql, at), ts(sql, at), id, ...(organizationId ? [organizationId] : [])],
  );
  return row && toIso(row.revoked_at);
}

/** A key of the workspace (revoked or not), or undefined. */
export async function findOf(
  sql: Sql,
  organizationId: string,
  id: string,
): Promise<{ scope: string; revokedAt: Date | null } | undefined> {
  const row = await sql.one<{ scope: string; revoked_at: unknown }>(
    'SELECT scope, revoked_at FROM api_key WHERE id = ? AND organization_id = ?',
    [id, organizationId],
  );
  return row && { scope: row.scope, revokedAt: row.revoked_at == null ? null : toDate(row.revoked_at) };
}

/** Every request runs it: prepared once per connection on PostgreSQL. */
const AUTHENTICATE =
  statement(`SELECT k.id, k.organization_id, k.scope, k.last_used_at, o.billing_state, o.plan, o.rate_limit
  FROM api_key k JOIN organization o ON o.id = k.organization_id
  WHERE k.key_hash = ? AND (k.revoked_at IS NULL OR k.revoked_at > ?)`);

/** The key with this hash that is live at `now` (a rotated key lives until its grace period ends), joined to its workspace. */
export async function findLive(sql: Sql, keyHash: string, now: Date): Promise<KeyWithWorkspace | undefined> {
  const row = await sql.one(AUTHENTICATE, [keyHash, ts(sql, now)]);
  return (
    row && {
      keyId: row.id as string,
      organizationId: row.organization_id as string,
      scope: row.scope as string,
      billingState: row.billing_state as string,
      plan: row.plan as string,
      rateLimit: toIntOrNull(row.rate_limit),
      lastUsedAt: row.last_used_at === null || row.last_used_at === undefined ? null : toDate(row.last_used_at),
    }
  );
}
