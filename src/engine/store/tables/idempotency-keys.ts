import { defineEntity, p } from '@mikro-orm/core';
import { type Sql, toDate, toInt, ts } from '../sql.js';
import { Organization } from './organizations.js';

/**
 * A POST's `Idempotency-Key`, per workspace, kept 24 hours: the request it was first used with (a hash) and,
 * once that request finished, its response, which repeats get back instead of running it again.
 */
export const IdempotencyKey = defineEntity({
  name: 'IdempotencyKey',
  tableName: 'idempotency_key',
  indexes: [{ name: 'idempotency_key_expires_idx', properties: ['expiresAt'] }],
  properties: {
    organization: () => p.manyToOne(Organization).primary().deleteRule('cascade'),
    key: p.string().primary().length(255),
    requestHash: p.string().length(64),
    /** `in_progress` or `completed`. */
    status: p.string().length(20),
    responseStatus: p.integer().nullable(),
    responseBody: p.text().nullable(),
    createdAt: p.datetime().length(3),
    expiresAt: p.datetime().length(3),
  },
});

/** A POST's Idempotency-Key as stored: the request it was first used with (a hash) and, once done, its response. */
export interface IdempotencyKeyRow {
  requestHash: string;
  status: 'in_progress' | 'completed';
  responseStatus: number | null;
  responseBody: string | null;
  createdAt: Date;
  expiresAt: Date;
}

/** Claim a key for a request (one conditional insert): whether this call claimed it. */
export async function claim(
  sql: Sql,
  organizationId: string,
  key: string,
  requestHash: string,
  now: Date,
  expiresAt: Date,
): Promise<boolean> {
  const changed = await sql.run(
    `INSERT INTO idempotency_key (organization_id, key, request_hash, status, created_at, expires_at)
     VALUES (?, ?, ?, 'in_progress', ?, ?) ON CONFLICT (organization_id, key) DO NOTHING`,
    [organizationId, key, requestHash, ts(sql, now), ts(sql, expiresAt)],
  );
  return changed > 0;
}

export async function find(sql: Sql, organizationId: string, key: string): Promise<IdempotencyKeyRow | undefined> {
  const row = await sql.one(
    'SELECT request_hash, status, response_status, response_body, created_at, expires_at FROM idempotency_key WHERE organization_id = ? AND key = ?',
    [organizationId, key],
  );
  return (
    row && {
      requestHash: row.request_hash as string,
      status: row.status as IdempotencyKeyRow['status'],
      responseStatus: row.response_status === null ? null : toInt(row.response_status),
      responseBody: (row.response_body as string | null) ?? null,
      createdAt: toDate(row.created_at),
      expiresAt: toDate(row.expires_at),
    }
  );
}

/** Forget a key, only as claimed at `createdAt` (not a newer claim of the same key). */
export async function removeClaim(sql: Sql, organizationId: string, key: string, createdAt: Date): Promise<void> {
  await sql.run('DELETE FROM idempotency_key WHERE organization_id = ? AND key = ? AND created_at = ?', [
    organizationId,
    key,
    ts(sql, createdAt),
  ]);
}

/** Forget every key that has expired. */
export async function removeExpired(sql: Sql, now: Date): Promise<void> {
  await sql.run('DELETE FROM idempotency_key WHERE expires_at <= ?', [ts(sql, now)]);
}

export async function complete(
  sql: Sql,
  organizationId: string,
  key: string,
  status: number,
  body: string,
): Promise<void> {
  await sql.run(
    "UPDATE idempotency_key SET status = 'completed', response_status = ?, response_body = ? WHERE organization_id = ? AND key = ?",
    [status, body, organizationId, key],
  );
}

/** Forget a key whose request is still in progress (it failed unexpectedly). */
export async function release(sql: Sql, organizationId: string, key: string): Promise<void> {
  await sql.run("DELETE FROM idempotency_key WHERE organization_id = ? AND key = ? AND status = 'in_progress'", [
    organizationId,
    key,
  ]);
}

/** Up to `limit` kept answers not sealed under key `keyId`, by (organization, key) after `after`. */
export async function answersNotSealedWith(
  sql: Sql,
  keyId: string,
  after: readonly [string, string],
  limit: number,
): Promise<{ organizationId: string; key: string; body: string }[]> {
  const rows = await sql.all<{ organization_id: string; key: string; response_body: string }>(
    `SELECT organization_id, key, response_body FROM idempotency_key
     WHERE (organization_id > ? OR (organization_id = ? AND key > ?)) AND response_body IS NOT NULL AND response_body NOT LIKE ?
     ORDER BY organization_id, key LIMIT ?`,
    [after[0], after[0], after[1], `fs1:${keyId}:%`, limit],
  );
  return rows.map((r) => ({ organizationId: r.organization_id, key: r.key, body: r.response_body }));
}

/** Replace a kept answer with its resealed form, unless it changed meanwhile. */
export async function replaceAnswer(
  sql: Sql,
  organizationId: string,
  key: string,
  previous: string,
  next: string,
): Promise<void> {
  await sql.run(
    'UPDATE idempotency_key SET response_body = ? WHERE organization_id = ? AND key = ? AND response_body = ?',
    [next, organizationId, key, previous],
  );
}

/** The workspace's kept answers (sealed), after `afterKey` in key order, `limit` at a time. */
export async function answersOf(
  sql: Sql,
  organizationId: string,
  afterKey: string,
  limit: number,
): Promise<Array<{ key: string; body: string }>> {
  const rows = await sql.all<{ key: string; response_body: string }>(
    'SELECT key, response_body FROM idempotency_key WHERE organization_id = ? AND key > ? AND response_body IS NOT NULL ORDER BY key LIMIT ?',
    [organizationId, afterKey, limit],
  );
  return rows.map((r) => ({ key: r.key, body: r.response_body }));
}

export async function remove(sql: Sql, organizationId: string, key: string): Promise<void> {
  await sql.run('DELETE FROM idempotency_key WHERE organization_id = ? AND key = ?', [organizationId, key]);
}
