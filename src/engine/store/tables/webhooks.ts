import { defineEntity, p } from '@mikro-orm/core';
import type { EventKind } from '../../../schemas/events.js';
import type { Webhook as WebhookRecord } from '../../../schemas/webhooks.js';
import { type After, asIs, defineRows, pageOf } from '../rows.js';
import { type Sql, toBool, toInt, toIso, toIsoOrNull, toJson, toStringOrNull, ts } from '../sql.js';
import { Organization } from './organizations.js';

/**
 * A receiver registered by a workspace. `events` holds the subscribed kinds as `,kind,kind,` so the
 * fan-out trigger matches a kind with one substring test in either database.
 */
export const Webhook = defineEntity({
  name: 'Webhook',
  tableName: 'webhook',
  indexes: [{ name: 'webhook_org_created_idx', properties: ['organization', 'createdAt', 'id'] }],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    url: p.string().length(2048),
    events: p.string().length(400),
    description: p.string().length(500).nullable(),
    /**
     * The signing secret (`whsec_...`), sealed with the server's key (engine/secrets.ts): returned once at
     * registration, never read back through the API.
     */
    secret: p.string().length(255),
    enabled: p.boolean().default(true),
    consecutiveFailures: p.integer().default(0),
    disabledAt: p.datetime().length(3).nullable(),
    createdAt: p.datetime().length(3),
    updatedAt: p.datetime().length(3),
  },
});

/** Subscribed kinds as stored: `,kind,kind,`, matched by the fan-out trigger with one substring test. */
export function encodeEventKinds(kinds: readonly EventKind[]): string {
  return `,${kinds.join(',')},`;
}
function decodeEventKinds(stored: string): EventKind[] {
  return stored.split(',').filter(Boolean) as EventKind[];
}

const WEBHOOKS = defineRows<WebhookRecord>('webhook', 'w', {
  id: asIs,
  url: asIs,
  events: (stored) => decodeEventKinds(stored as string),
  description: toStringOrNull,
  enabled: toBool,
  disabledAt: toIsoOrNull,
  createdAt: toIso,
  updatedAt: toIso,
});

export async function insert(sql: Sql, organizationId: string, webhook: WebhookRecord, secret: string): Promise<void> {
  await sql.run(
    `INSERT INTO webhook (id, organization_id, url, events, description, secret, enabled, consecutive_failures, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?)`,
    [
      webhook.id,
      organizationId,
      webhook.url,
      encodeEventKinds(webhook.events),
      webhook.description,
      secret,
      webhook.enabled,
      ts(sql, new Date(webhook.createdAt)),
      ts(sql, new Date(webhook.updatedAt)),
    ],
  );
}

export async function count(sql: Sql, organizationId: string): Promise<number> {
  return toInt(
    (await sql.one<{ n: unknown }>('SELECT count(*) AS n FROM webhook WHERE organization_id = ?', [organizationId]))!.n,
  );
}

/** A webhook of the workspace (never its secret), locked for the transaction with `lock` (PostgreSQL). */
export async function find(
  sql: Sql,
  organizationId: string,
  id: string,
  lock = false,
): Promise<WebhookRecord | undefined> {
  const row = await sql.one(
    `SELECT ${WEBHOOKS.columns} FROM webhook w WHERE w.id = ? AND w.organization_id = ?${lock ? sql.dialect.forUpdate : ''}`,
    [id, organizationId],
  );
  return row && WEBHOOKS.read(row);
}

/** Up to `limit` webhooks of the workspace after (createdAt, id), oldest first. */
export function list(sql: Sql, organizationId: string, limit: number, after?: After): Promise<WebhookRecord[]> {
  return pageOf(sql, WEBHOOKS, { where: 'w.organization_id = ?', params: [organizationId] }, limit, after);
}

/** Each webhook's count of consecutive failed attempts (what disables it at WEBHOOK_LIMITS.consecutiveFailures). */
export async function failureCounts(sql: Sql, organizationId: string): Promise<Map<string, number>> {
  const rows = await sql.all<{ id: string; consecutive_failures: unknown }>(
    'SELECT id, consecutive_failures FROM webhook WHERE organization_id = ?',
    [organizationId],
  );
  return new Map(rows.map((r) => [r.id, toInt(r.consecutive_failures)]));
}

/** What a webhook update may set; `enable` re-enables it and resets its failure count. */
export interface WebhookChanges {
  url?: string;
  events?: EventKind[];
  description?: string | null;
  resetFailures?: boolean;
  enable?: boolean;
}

/** Set the given fields (and `updated_at` when any); the caller holds the row. */
export async function update(sql: Sql, id: string, changes: WebhookChanges, now: Date): Promise<void> {
  const sets: Array<[string, unknown]> = [];
  if (changes.url !== undefined) sets.push(['url', changes.url]);
  if (changes.events !== undefined) sets.push(['events', encodeEventKinds(changes.events)]);
  if (changes.description !== undefined) sets.push(['description', changes.description]);
  if (changes.resetFailures) sets.push(['consecutive_failures', 0]);
  if (changes.enable) sets.push(['enabled', true], ['disabled_at', null]);
  if (sets.length === 0) return;
  sets.push(['updated_at', ts(sql, now)]);
  await sql.run(`UPDATE webhook SET ${sets.map(([column]) => `${column} = ?`).join(', ')} WHERE id = ?`, [
    ...sets.map(([, value]) => value),
    id,
  ]);
}

/** Delete a webhook with its deliveries and their log; whether it existed. */
export async function remove(sql: Sql, organizationId: string, id: string): Promise<boolean> {
  return (await sql.run('DELETE FROM webhook WHERE id = ? AND organization_id = ?', [id, organizationId])) > 0;
}

/**
 * Disable an enabled webhook, at most once (an atomic conditional update), and only when it has at least
 * `minFailures` consecutive failures (so a success recorded meanwhile by another process wins). Whether this call
 * disabled it.
 */
export async function disable(sql: Sql, id: string, now: Date, minFailures = 0): Promise<boolean> {
  const changed = await sql.run(
    'UPDATE webhook SET enabled = ?, disabled_at = ?, updated_at = ? WHERE id = ? AND enabled = ? AND consecutive_failures >= ?',
    [false, ts(sql, now), ts(sql, now), id, true, minFailures],
  );
  return changed > 0;
}

/** A webhook with its workspace's name and admins, for the notice that it was disabled. */
export async function findWithAdmins(
  sql: Sql,
  id: string,
): Promise<{ url: string; organizationId: string; name: string; adminEmails: string[] } | undefined> {
  const row = await sql.one(
    'SELECT w.url, o.id AS org_id, o.name, o.admin_emails FROM webhook w JOIN organization o ON o.id = w.organization_id WHERE w.id = ?',
    [id],
  );
  return (
    row && {
      url: row.url as string,
      organizationId: row.org_id as string,
      name: row.name as string,
      adminEmails: toJson<string[]>(row.admin_emails),
    }
  );
}

/** Up to `limit` stored signing secrets not sealed under key `keyId` (never sealed, or under another key), by id after `after`. */
export async function secretsNotSealedWith(
  sql: Sql,
  keyId: string,
  after: string,
  limit: number,
): Promise<{ id: string; secret: string }[]> {
  const rows = await sql.all<{ id: string; secret: string }>(
    'SELECT id, secret FROM webhook WHERE id > ? AND secret NOT LIKE ? ORDER BY id LIMIT ?',
    [after, `fs1:${keyId}:%`, limit],
  );
  return rows.map((r) => ({ id: r.id, secret: r.secret }));
}

/** Replace a stored secret with its resealed form, unless it changed meanwhile. */
export async function replaceSecret(sql: Sql, id: string, previous: string, next: string): Promise<void> {
  await sql.run('UPDATE webhook SET secret = ? WHERE id = ? AND secret = ?', [next, id, previous]);
}
