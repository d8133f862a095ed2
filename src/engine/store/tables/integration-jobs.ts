import { defineEntity, p } from '@mikro-orm/core';
import { expressionIndex } from '../model.js';
import { type Sql, type SqlDialect, type Statement, statement, toDate, toInt, toStringOrNull, ts } from '../sql.js';
import { Integration } from './integrations.js';
import { Organization } from './organizations.js';

/**
 * The integrations' outbox: one row per call to make (create a Linear issue, post a Slack message) or per inbound
 * webhook to act on, written in the transaction of the change that asks for it (the `event_integration_fan_out`
 * trigger writes a Slack notice's with its event), worked by the scheduler's integration lane under a lease. An
 * inbound webhook's row carries the service's delivery id, unique per connection: a delivery sent twice is one row.
 */
export const IntegrationJob = defineEntity({
  name: 'IntegrationJob',
  tableName: 'integration_job',
  uniques: [{ name: 'integration_job_delivery_unique', properties: ['integration', 'deliveryId'] }],
  indexes: [
    { name: 'integration_job_post_idx', properties: ['postId'] },
    expressionIndex(
      'integration_job_due_idx',
      `on "integration_job" ("next_attempt_at", "id") where "status" = 'pending'`,
    ),
  ],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    integration: () => p.manyToOne(Integration).deleteRule('cascade'),
    /** What to do: `linear.create_issue`, `github.webhook`, `slack.notice`, ... (engine/integrations/*-jobs.ts). */
    kind: p.string().length(40),
    /** The post it is about, if any (the console shows a post's calls on their way). */
    postId: p.string().length(40).nullable(),
    /** An inbound webhook's delivery id (`evt:<id>` for a notice of an event): what makes a delivery one job. */
    deliveryId: p.string().length(200).nullable(),
    payload: p.text(),
    /** `pending`, `succeeded` or `failed`. */
    status: p.string().length(20),
    /** Attempts begun: a claim counts one before the call, so a crash mid-call is known to the next attempt. */
    attemptCount: p.integer().default(0),
    nextAttemptAt: p.datetime().length(3).nullable(),
    leaseToken: p.string().length(40).nullable(),
    leaseExpiresAt: p.datetime().length(3).nullable(),
    lastError: p.string().length(500).nullable(),
    createdAt: p.datetime().length(3),
    completedAt: p.datetime().length(3).nullable(),
  },
});

export interface NewJob {
  id: string;
  organizationId: string;
  integrationId: string;
  kind: string;
  postId?: string | null;
  deliveryId?: string | null;
  payload: unknown;
  now: Date;
}

/** Write a job in the caller's transaction; the commit wakes the integration lane. False: its delivery id was had. */
export async function insert(sql: Sql, job: NewJob): Promise<boolean> {
  const now = ts(sql, job.now);
  const written = await sql.run(
    `INSERT INTO integration_job (id, organization_id, integration_id, kind, post_id, delivery_id, payload, status, attempt_count, next_attempt_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?) ON CONFLICT (integration_id, delivery_id) DO NOTHING`,
    [
      job.id,
      job.organizationId,
      job.integrationId,
      job.kind,
      job.postId ?? null,
      job.deliveryId ?? null,
      JSON.stringify(job.payload),
      now,
      now,
    ],
  );
  if (written > 0) sql.wroteDeliveries('integrations');
  return written > 0;
}

/** A job a claim took. */
export interface ClaimedJob {
  id: string;
  organizationId: string;
  integrationId: string;
  kind: string;
  postId: string | null;
  payload: unknown;
  /** Attempts begun, this one included. */
  attemptCount: number;
  /** The last attempt's error; null after an attempt that recorded none (its process died mid-call). */
  lastError: string | null;
  createdAt: Date;
}

const claimText = (d: SqlDialect) =>
  `UPDATE integration_job SET lease_token = ?, lease_expires_at = ?, attempt_count = attempt_count + 1
    WHERE id IN (SELECT id FROM integration_job WHERE status = 'pending' AND next_attempt_at <= ? AND (lease_expires_at IS NULL OR lease_expires_at <= ?)
      ORDER BY next_attempt_at, id LIMIT ?${d.forUpdateSkipLocked})
    RETURNING id, organization_id, integration_id, kind, post_id, payload, attempt_count, last_error, created_at`;
const claims = new Map<string, Statement>();

/** Up to `limit` due jobs, oldest first, under a lease; each claim counts an attempt begun. */
export async function claim(
  db: Sql,
  c: { now: Date; token: string; leaseUntil: Date; limit: number },
): Promise<ClaimedJob[]> {
  let s = claims.get(db.dialect.name);
  if (!s) claims.set(db.dialect.name, (s = statement(claimText(db.dialect))));
  const now = ts(db, c.now);
  const rows = await db.all<Record<string, unknown>>(s, [c.token, ts(db, c.leaseUntil), now, now, c.limit]);
  // RETURNING keeps no order: in id order (time-sortable), a connection's jobs are done as they were written.
  return rows
    .map((r) => ({
      id: r.id as string,
      organizationId: r.organization_id as string,
      integrationId: r.integration_id as string,
      kind: r.kind as string,
      postId: toStringOrNull(r.post_id),
      payload: JSON.parse(r.payload as string) as unknown,
      attemptCount: toInt(r.attempt_count),
      lastError: toStringOrNull(r.last_error),
      createdAt: toDate(r.created_at),
    }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Done, where the lease is still `token`'s; whether it was (the caller's effects commit only then). */
export async function succeed(sql: Sql, id: string, token: string, now: Date): Promise<boolean> {
  return (
    (await sql.run(
      `UPDATE integration_job SET status = 'succeeded', completed_at = ?, last_error = NULL, next_attempt_at = NULL, lease_token = NULL, lease_expires_at = NULL
       WHERE id = ? AND lease_token = ? AND status = 'pending'`,
      [ts(sql, now), id, token],
    )) > 0
  );
}

/** Tried again at `nextAt`, or failed for good (`nextAt` null), where the lease is still `token`'s. */
export async function requeue(
  sql: Sql,
  id: string,
  token: string,
  error: string,
  nextAt: Date | null,
  now: Date,
): Promise<void> {
  await sql.run(
    nextAt === null
      ? `UPDATE integration_job SET status = 'failed', completed_at = ?, last_error = ?, next_attempt_at = NULL, lease_token = NULL, lease_expires_at = NULL WHERE id = ? AND lease_token = ?`
      : `UPDATE integration_job SET next_attempt_at = ?, last_error = ?, lease_token = NULL, lease_expires_at = NULL WHERE id = ? AND lease_token = ?`,
    [ts(sql, nextAt ?? now), error.slice(0, 500), id, token],
  );
}

/** A post's calls not done yet, and those that failed for good, newest first (the console's post page). */
export async function forPost(
  sql: Sql,
  organizationId: string,
  postId: string,
): Promise<Array<{ id: string; kind: string; status: string; lastError: string | null }>> {
  const rows = await sql.all<Record<string, unknown>>(
    `SELECT id, kind, status, last_error FROM integration_job WHERE organization_id = ? AND post_id = ? AND status <> 'succeeded' ORDER BY created_at DESC, id DESC LIMIT 10`,
    [organizationId, postId],
  );
  return rows.map((r) => ({
    id: r.id as string,
    kind: r.kind as string,
    status: r.status as string,
    lastError: toStringOrNull(r.last_error),
  }));
}

/** Settled jobs older than `before` go (the outbox's retention chore). */
export async function prune(sql: Sql, before: Date): Promise<number> {
  return sql.run("DELETE FROM integration_job WHERE status <> 'pending' AND created_at < ?", [ts(sql, before)]);
}
