import { defineEntity, p } from '@mikro-orm/core';
import type { EventKind, WebhookEvent } from '../../../schemas/events.js';
import type { DeliveryAttempt, Delivery as DeliveryRecord } from '../../../schemas/webhooks.js';
import { expressionIndex } from '../model.js';
import { placeholders, type Sql, toDate, toInt, toIntOrNull, toIso, toIsoOrNull, toStringOrNull, ts } from '../sql.js';
import { Organization } from './organizations.js';
import { Webhook } from './webhooks.js';

/**
 * One event to one webhook. Pending deliveries are due at `nextAttemptAt`; a claim sets `leaseToken` and
 * `leaseExpiresAt`, so a claim that is never recorded becomes claimable again by itself.
 */
export const Delivery = defineEntity({
  name: 'Delivery',
  tableName: 'delivery',
  indexes: [
    { name: 'delivery_webhook_created_idx', properties: ['webhook', 'createdAt', 'eventId', 'id'] },
    // What the scheduler claims: each webhook's due deliveries, oldest first; settled ones are not in it.
    expressionIndex(
      'delivery_pending_idx',
      `on "delivery" ("webhook_id", "next_attempt_at", "id") where "status" = 'pending'`,
    ),
  ],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    webhook: () => p.manyToOne(Webhook).deleteRule('cascade'),
    /** The event whose payload this delivers. A plain column: events live as long as their workspace, and a
     *  foreign key would add an index to every delivery write. */
    eventId: p.string().length(40),
    eventType: p.string().length(40),
    /** `pending`, `succeeded` or `failed`. */
    status: p.string().length(20),
    attemptCount: p.integer().default(0),
    nextAttemptAt: p.datetime().length(3).nullable(),
    leaseToken: p.string().length(40).nullable(),
    /** Until when the claim holds; not indexed, so claiming and renewing are HOT updates on PostgreSQL. */
    leaseExpiresAt: p.datetime().length(3).nullable(),
    succeededAt: p.datetime().length(3).nullable(),
    failedAt: p.datetime().length(3).nullable(),
    /** `attempts_exhausted` or `webhook_disabled`. */
    failureReason: p.string().length(40).nullable(),
    replayOfId: p.string().length(40).nullable(),
    createdAt: p.datetime().length(3),
  },
});

const COLUMNS =
  'd.id, d.webhook_id, d.event_id, d.event_type, d.status, d.next_attempt_at, d.succeeded_at, d.failed_at, d.failure_reason, d.replay_of_id, d.created_at, e.payload';

function toDelivery(row: Record<string, unknown>, attempts: DeliveryAttempt[]): DeliveryRecord {
  const status = row.status as DeliveryRecord['status'];
  return {
    id: row.id as string,
    webhookId: row.webhook_id as string,
    event: row.event_type as EventKind,
    eventId: row.event_id as string,
    status,
    payload: JSON.parse(row.payload as string) as WebhookEvent,
    nextAttemptAt: status === 'pending' ? toIsoOrNull(row.next_attempt_at) : null,
    succeededAt: toIsoOrNull(row.succeeded_at),
    failedAt: toIsoOrNull(row.failed_at),
    failureReason: (row.failure_reason as DeliveryRecord['failureReason']) ?? null,
    replayOf: toStringOrNull(row.replay_of_id),
    createdAt: toIso(row.created_at),
    attempts,
  };
}

/** The attempts of these deliveries, grouped by delivery, in attempt order. */
async function attemptsOf(sql: Sql, ids: string[]): Promise<Map<string, DeliveryAttempt[]>> {
  const byDelivery = new Map<string, DeliveryAttempt[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byDelivery;
  const rows = await sql.all(
    `SELECT delivery_id, number, attempted_at, status_code, error, duration_ms, response_body FROM delivery_attempt
     WHERE delivery_id IN (${placeholders(ids)}) ORDER BY delivery_id, number`,
    ids,
  );
  for (const row of rows) {
    byDelivery.get(row.delivery_id as string)?.push({
      number: toInt(row.number),
      attemptedAt: toIso(row.attempted_at),
      statusCode: toIntOrNull(row.status_code),
      error: toStringOrNull(row.error),
      durationMs: toInt(row.duration_ms),
      responseBody: toStringOrNull(row.response_body),
    });
  }
  return byDelivery;
}

/** Deliveries as the API shows them: with their payload and every attempt. */
async function withAttempts(sql: Sql, rows: Record<string, unknown>[]): Promise<DeliveryRecord[]> {
  const attempts = await attemptsOf(
    sql,
    rows.map((r) => r.id as string),
  );
  return rows.map((r) => toDelivery(r, attempts.get(r.id as string)!));
}

/** A delivery of the workspace with its attempts. */
export async function find(sql: Sql, organizationId: string, id: string): Promise<DeliveryRecord | undefined> {
  const row = await sql.one(
    `SELECT ${COLUMNS} FROM delivery d JOIN event e ON e.id = d.event_id WHERE d.id = ? AND d.organization_id = ?`,
    [id, organizationId],
  );
  return row && (await withAttempts(sql, [row]))[0];
}

/**
 * Up to `limit` deliveries of a webhook, newest first, after (createdAt, eventId, id). Deliveries of one event share
 * its time; the event id (monotonic) orders those of one millisecond.
 */
export async function listForWebhook(
  sql: Sql,
  webhookId: string,
  limit: number,
  after?: { at: number; eventId: string; id: string },
): Promise<DeliveryRecord[]> {
  const rows = await sql.all(
    `SELECT ${COLUMNS} FROM delivery d JOIN event e ON e.id = d.event_id
     WHERE d.webhook_id = ?${after ? ' AND (d.created_at, d.event_id, d.id) < (?, ?, ?)' : ''}
     ORDER BY d.created_at DESC, d.event_id DESC, d.id DESC LIMIT ?`,
    [webhookId, ...(after ? [ts(sql, new Date(after.at)), after.eventId, after.id] : []), limit],
  );
  return withAttempts(sql, rows);
}

/** The event a delivery of this webhook delivers. */
export async function findEvent(
  sql: Sql,
  webhookId: string,
  id: string,
): Promise<{ eventId: string; eventType: EventKind } | undefined> {
  const row = await sql.one<{ event_id: string; event_type: EventKind }>(
    'SELECT event_id, event_type FROM delivery WHERE id = ? AND webhook_id = ?',
    [id, webhookId],
  );
  return row && { eventId: row.event_id, eventType: row.event_type };
}

/** A fresh pending delivery of an event already delivered (`replayOf`), due now. */
export async function insertReplay(
  sql: Sql,
  replay: {
    id: string;
    organizationId: string;
    webhookId: string;
    eventId: string;
    eventType: EventKind;
    replayOf: string;
  },
  now: Date,
): Promise<void> {
  await sql.run(
    `INSERT INTO delivery (id, organization_id, webhook_id, event_id, event_type, status, attempt_count, next_attempt_at, replay_of_id, created_at)
     VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)`,
    [
      replay.id,
      replay.organizationId,
      replay.webhookId,
      replay.eventId,
      replay.eventType,
      ts(sql, now),
      replay.replayOf,
      ts(sql, now),
    ],
  );
  sql.wroteDeliveries();
}

/**
 * End a disabled webhook's pending deliveries as failed with reason `webhook_disabled`. Deliveries whose outcome a
 * scheduler is recording right now are locked by it (and it is about to lock this webhook's row, which the caller
 * holds): they are skipped rather than deadlocked on. That recorder waits for the caller's commit on the webhook row,
 * sees the webhook disabled, and ends what it left pending itself.
 */
export async function endPending(sql: Sql, webhookId: string, now: Date): Promise<void> {
  await sql.run(
    `UPDATE delivery SET status = 'failed', failed_at = ?, failure_reason = 'webhook_disabled', next_attempt_at = NULL
     WHERE id IN (SELECT id FROM delivery WHERE webhook_id = ? AND status = 'pending'${sql.dialect.forUpdateSkipLocked})`,
    [ts(sql, now), webhookId],
  );
}

/** The due backlog across all workspaces (for metrics): how many pending deliveries are due, the oldest due time, and how many webhooks are disabled. */
export async function backlog(
  sql: Sql,
  now: Date,
): Promise<{ due: number; oldestDueAt: Date | null; disabledWebhooks: number }> {
  const row = (await sql.one<{ due: unknown; oldest: unknown; disabled: unknown }>(
    `SELECT (SELECT count(*) FROM delivery WHERE status = 'pending' AND next_attempt_at <= ?) AS due,
            (SELECT min(next_attempt_at) FROM delivery WHERE status = 'pending' AND next_attempt_at <= ?) AS oldest,
            (SELECT count(*) FROM webhook WHERE enabled = ?) AS disabled`,
    [ts(sql, now), ts(sql, now), false],
  ))!;
  return {
    due: toInt(row.due),
    oldestDueAt: row.oldest === null || row.oldest === undefined ? null : toDate(row.oldest),
    disabledWebhooks: toInt(row.disabled),
  };
}
