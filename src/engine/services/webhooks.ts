import { randomBytes } from 'node:crypto';
import type { Page } from '../../schemas/common.js';
import type { EventKind, WebhookEvent } from '../../schemas/events.js';
import { pageQuerySchema, type PageQueryInput } from '../../schemas/posts.js';
import {
  WEBHOOK_LIMITS,
  createWebhookBodySchema,
  updateWebhookBodySchema,
  type CreateWebhookBody,
  type CreatedWebhook,
  type Delivery,
  type DeliveryAttempt,
  type UpdateWebhookBody,
  type Webhook,
} from '../../schemas/webhooks.js';
import { checkReceiverUrl } from '../delivery/addresses.js';
import { FeedbackError, parseInput, validationError } from '../errors.js';
import { decodeCursor, encodeCursor, isFiniteNumber, isId } from '../internal/cursor.js';
import { newId } from '../internal/ids.js';
import { forUpdate, toBool, toInt, toIntOrNull, toIso, toIsoOrNull, ts, type Database, type Sql } from '../internal/sql.js';

export interface WebhookConfig {
  /** Accept receivers on loopback and private networks (tests, local development). */
  allowPrivateNetworks: boolean;
}

/** Subscribed kinds as stored: `,kind,kind,`, matched by the fan-out trigger with one substring test. */
export function encodeEventKinds(kinds: readonly EventKind[]): string {
  return `,${kinds.join(',')},`;
}
export function decodeEventKinds(stored: string): EventKind[] {
  return stored.split(',').filter(Boolean) as EventKind[];
}

const WEBHOOK_COLUMNS = 'id, url, events, description, enabled, disabled_at, created_at, updated_at';

function toWebhook(row: Record<string, unknown>): Webhook {
  return {
    id: row.id as string,
    url: row.url as string,
    events: decodeEventKinds(row.events as string),
    description: (row.description as string | null) ?? null,
    enabled: toBool(row.enabled),
    disabledAt: toIsoOrNull(row.disabled_at),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

const DELIVERY_COLUMNS =
  'd.id, d.webhook_id, d.event_id, d.event_type, d.status, d.next_attempt_at, d.succeeded_at, d.failed_at, d.failure_reason, d.replay_of_id, d.created_at, e.payload';

function toDelivery(row: Record<string, unknown>, attempts: DeliveryAttempt[]): Delivery {
  const status = row.status as Delivery['status'];
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
    failureReason: (row.failure_reason as Delivery['failureReason']) ?? null,
    replayOf: (row.replay_of_id as string | null) ?? null,
    createdAt: toIso(row.created_at),
    attempts,
  };
}

function toAttempt(row: Record<string, unknown>): DeliveryAttempt {
  return {
    number: toInt(row.number),
    attemptedAt: toIso(row.attempted_at),
    statusCode: toIntOrNull(row.status_code),
    error: (row.error as string | null) ?? null,
    durationMs: toInt(row.duration_ms),
    responseBody: (row.response_body as string | null) ?? null,
  };
}

/** The attempts of these deliveries, grouped by delivery, in attempt order. */
async function readAttempts(db: Sql, deliveryIds: string[]): Promise<Map<string, DeliveryAttempt[]>> {
  const byDelivery = new Map<string, DeliveryAttempt[]>(deliveryIds.map((id) => [id, []]));
  if (deliveryIds.length === 0) return byDelivery;
  const rows = await db.all<Record<string, unknown>>(
    `SELECT delivery_id, number, attempted_at, status_code, error, duration_ms, response_body FROM delivery_attempt
     WHERE delivery_id IN (${deliveryIds.map(() => '?').join(', ')}) ORDER BY delivery_id, number`,
    deliveryIds,
  );
  for (const row of rows) byDelivery.get(row.delivery_id as string)?.push(toAttempt(row));
  return byDelivery;
}

/**
 * Disable a webhook at most once (an atomic conditional update) and end its pending deliveries as failed
 * with reason `webhook_disabled`. `condition` narrows when it applies (the scheduler's: 50 consecutive
 * failures). Returns whether this call disabled it.
 */
export async function disableWebhook(tx: Sql, webhookId: string, now: Date, condition = ''): Promise<boolean> {
  const disabled = await tx.all(
    `UPDATE webhook SET enabled = ?, disabled_at = ?, updated_at = ? WHERE id = ? AND enabled = ?${condition} RETURNING id`,
    [false, ts(tx, now), ts(tx, now), webhookId, true],
  );
  if (disabled.length === 0) return false;
  await endPendingDeliveries(tx, webhookId, now);
  return true;
}

/**
 * End a disabled webhook's pending deliveries as failed with reason `webhook_disabled`.
 */
export async function endPendingDeliveries(tx: Sql, webhookId: string, now: Date): Promise<void> {
  // Deliveries whose outcome a scheduler is recording right now are locked by it (and it is about to lock
  // this webhook's row, which we hold): skip them rather than deadlock. That recorder waits for our commit
  // on the webhook row, sees the webhook disabled, and ends what it left pending itself.
  await tx.all(
    `UPDATE delivery SET status = 'failed', failed_at = ?, failure_reason = 'webhook_disabled', next_attempt_at = NULL
     WHERE id IN (SELECT id FROM delivery WHERE webhook_id = ? AND status = 'pending'${tx.dialect === 'postgresql' ? ' FOR UPDATE SKIP LOCKED' : ''})
     RETURNING id`,
    [ts(tx, now), webhookId],
  );
}

/** Workspace-scoped webhooks: registration, reads, changes, the delivery log and replay. */
export function createWebhooksService(db: Database, organizationId: string, clock: () => Date, config: WebhookConfig) {
  async function assertReachable(url: string): Promise<void> {
    if (config.allowPrivateNetworks) return;
    const refusal = await checkReceiverUrl(url);
    if (refusal) throw validationError([{ path: 'url', code: 'url_not_public', message: refusal }]);
  }

  async function readWebhook(sql: Sql, id: string, lock = false): Promise<Record<string, unknown>> {
    const row = await sql.one<Record<string, unknown>>(
      `SELECT ${WEBHOOK_COLUMNS} FROM webhook WHERE id = ? AND organization_id = ?${lock ? forUpdate(sql) : ''}`,
      [id, organizationId],
    );
    if (!row) throw new FeedbackError('ERR_NOT_FOUND', `No webhook with id ${id}.`);
    return row;
  }

  async function readDelivery(sql: Sql, id: string): Promise<Delivery> {
    const row = await sql.one<Record<string, unknown>>(
      `SELECT ${DELIVERY_COLUMNS} FROM delivery d JOIN event e ON e.id = d.event_id WHERE d.id = ? AND d.organization_id = ?`,
      [id, organizationId],
    );
    if (!row) throw new FeedbackError('ERR_NOT_FOUND', `No delivery with id ${id}.`);
    return toDelivery(row, (await readAttempts(sql, [id])).get(id)!);
  }

  return {
    /**
     * `POST /v1/webhooks`: paid plans only, at most 25 per workspace. The secret is in this response and
     * nowhere else, ever.
     */
    async create(body: CreateWebhookBody): Promise<CreatedWebhook> {
      const input = parseInput(createWebhookBodySchema, body);
      await assertReachable(input.url);
      const now = clock();
      const id = newId('wh', now.getTime());
      const secret = `whsec_${randomBytes(32).toString('base64url')}`;
      await db.transaction(async (tx) => {
        // The organization row lock serializes registrations, so the count below cannot be raced past 25.
        const org = await tx.one<{ plan: string }>(`SELECT plan FROM organization WHERE id = ?${forUpdate(tx)}`, [organizationId]);
        if (!org) throw new FeedbackError('ERR_NOT_FOUND', `No organization with id ${organizationId}.`);
        if (org.plan !== 'paid')
          throw new FeedbackError('ERR_PLAN_LIMIT', 'Webhooks need a paid plan.', { resource: 'webhook', limit: 0, current: 0 });
        const count = toInt((await tx.one<{ n: unknown }>('SELECT count(*) AS n FROM webhook WHERE organization_id = ?', [organizationId]))!.n);
        if (count >= WEBHOOK_LIMITS.perWorkspace)
          throw new FeedbackError('ERR_PLAN_LIMIT', `A workspace can have at most ${WEBHOOK_LIMITS.perWorkspace} webhooks.`, {
            resource: 'webhook',
            limit: WEBHOOK_LIMITS.perWorkspace,
            current: count,
          });
        await tx.all(
          `INSERT INTO webhook (id, organization_id, url, events, description, secret, enabled, consecutive_failures, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?)`,
          [id, organizationId, input.url, encodeEventKinds(input.events), input.description ?? null, secret, true, ts(tx, now), ts(tx, now)],
        );
      });
      return {
        id,
        url: input.url,
        events: input.events,
        description: input.description ?? null,
        enabled: true,
        disabledAt: null,
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
        secret,
      };
    },

    /** `GET /v1/webhooks`: oldest first, keyset pages on (createdAt, id). */
    async list(query: PageQueryInput = {}): Promise<Page<Webhook>> {
      const q = parseInput(pageQuerySchema, query);
      const key = q.cursor === undefined ? undefined : decodeCursor(q.cursor, 'webhooks', (k) => k.length === 2 && isFiniteNumber(k[0]) && isId(k[1]));
      const rows = await db.all<Record<string, unknown>>(
        `SELECT ${WEBHOOK_COLUMNS} FROM webhook WHERE organization_id = ?${key ? ' AND (created_at, id) > (?, ?)' : ''}
         ORDER BY created_at, id LIMIT ?`,
        [organizationId, ...(key ? [ts(db, new Date(key[0] as number)), key[1]] : []), q.limit + 1],
      );
      const page = rows.slice(0, q.limit).map(toWebhook);
      const last = page[page.length - 1];
      return { data: page, nextCursor: rows.length > q.limit && last ? encodeCursor('webhooks', [Date.parse(last.createdAt), last.id]) : null };
    },

    /** `GET /v1/webhooks/{id}` (without the secret). */
    async retrieve(id: string): Promise<Webhook> {
      return toWebhook(await readWebhook(db, id));
    },

    /**
     * `PATCH /v1/webhooks/{id}`: `url`, `events`, `description`, `enabled`. `enabled: true` re-enables and
     * resets the failure counter; `enabled: false` disables as the 50th failure would (pending deliveries
     * end as failed, reason `webhook_disabled`, and can be replayed once it is enabled again).
     */
    async update(id: string, body: UpdateWebhookBody): Promise<Webhook> {
      const input = parseInput(updateWebhookBodySchema, body);
      if (input.url !== undefined) await assertReachable(input.url);
      const now = clock();
      return db.transaction(async (tx) => {
        const current = await readWebhook(tx, id, true);
        const sets: string[] = [];
        const params: unknown[] = [];
        const set = (column: string, value: unknown) => {
          sets.push(`${column} = ?`);
          params.push(value);
        };
        if (input.url !== undefined) set('url', input.url);
        if (input.events !== undefined) set('events', encodeEventKinds(input.events));
        if (input.description !== undefined) set('description', input.description);
        if (input.enabled === true) {
          set('consecutive_failures', 0);
          if (!toBool(current.enabled)) {
            set('enabled', true);
            set('disabled_at', null);
          }
        }
        if (sets.length > 0) {
          set('updated_at', ts(tx, now));
          await tx.all(`UPDATE webhook SET ${sets.join(', ')} WHERE id = ? RETURNING id`, [...params, id]);
        }
        if (input.enabled === false) await disableWebhook(tx, id, now);
        return toWebhook(await readWebhook(tx, id));
      });
    },

    /** `DELETE /v1/webhooks/{id}`: the webhook, its deliveries and their log; in-flight attempts are not recorded. */
    async delete(id: string): Promise<{ id: string; deleted: true }> {
      const deleted = await db.all('DELETE FROM webhook WHERE id = ? AND organization_id = ? RETURNING id', [id, organizationId]);
      if (deleted.length === 0) throw new FeedbackError('ERR_NOT_FOUND', `No webhook with id ${id}.`);
      return { id, deleted: true };
    },

    /**
     * `GET /v1/webhooks/{id}/deliveries`: newest first, keyset pages on (createdAt, eventId, id), each delivery with
     * every attempt. Deliveries of one event share its time; the event id (monotonic) orders those of one millisecond.
     */
    async listDeliveries(webhookId: string, query: PageQueryInput = {}): Promise<Page<Delivery>> {
      const q = parseInput(pageQuerySchema, query);
      const key =
        q.cursor === undefined
          ? undefined
          : decodeCursor(q.cursor, 'deliveries', (k) => k.length === 3 && isFiniteNumber(k[0]) && isId(k[1]) && isId(k[2]));
      await readWebhook(db, webhookId);
      const rows = await db.all<Record<string, unknown>>(
        `SELECT ${DELIVERY_COLUMNS} FROM delivery d JOIN event e ON e.id = d.event_id
         WHERE d.webhook_id = ?${key ? ' AND (d.created_at, d.event_id, d.id) < (?, ?, ?)' : ''}
         ORDER BY d.created_at DESC, d.event_id DESC, d.id DESC LIMIT ?`,
        [webhookId, ...(key ? [ts(db, new Date(key[0] as number)), key[1], key[2]] : []), q.limit + 1],
      );
      const pageRows = rows.slice(0, q.limit);
      const attempts = await readAttempts(db, pageRows.map((r) => r.id as string));
      const page = pageRows.map((r) => toDelivery(r, attempts.get(r.id as string)!));
      const last = page[page.length - 1];
      return {
        data: page,
        nextCursor: rows.length > q.limit && last ? encodeCursor('deliveries', [Date.parse(last.createdAt), last.eventId, last.id]) : null,
      };
    },

    /** One delivery of the workspace with its attempts. */
    retrieveDelivery: (id: string) => readDelivery(db, id),

    /**
     * `POST /v1/webhooks/{webhookId}/deliveries/{deliveryId}/replay`: a fresh delivery of the original
     * payload with a new id, due now. Refused (409) while the webhook is disabled or no longer subscribes
     * to the event's kind.
     */
    async replayDelivery(webhookId: string, deliveryId: string): Promise<Delivery> {
      const now = clock();
      const id = newId('dlv', now.getTime());
      await db.transaction(async (tx) => {
        const webhook = await readWebhook(tx, webhookId, true);
        const original = await tx.one<{ event_id: string; event_type: EventKind }>(
          'SELECT event_id, event_type FROM delivery WHERE id = ? AND webhook_id = ?',
          [deliveryId, webhookId],
        );
        if (!original) throw new FeedbackError('ERR_NOT_FOUND', `No delivery with id ${deliveryId} for webhook ${webhookId}.`);
        if (!toBool(webhook.enabled))
          throw new FeedbackError('ERR_CONFLICT', 'The webhook is disabled: enable it (PATCH enabled: true) before replaying.', {
            reason: 'webhook_disabled',
          });
        if (!decodeEventKinds(webhook.events as string).includes(original.event_type))
          throw new FeedbackError('ERR_CONFLICT', `The webhook no longer subscribes to ${original.event_type}.`, {
            reason: 'event_not_subscribed',
            event: original.event_type,
          });
        await tx.all(
          `INSERT INTO delivery (id, organization_id, webhook_id, event_id, event_type, status, attempt_count, next_attempt_at, replay_of_id, created_at)
           VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)`,
          [id, organizationId, webhookId, original.event_id, original.event_type, ts(tx, now), deliveryId, ts(tx, now)],
        );
        tx.wroteDeliveries();
      });
      return readDelivery(db, id);
    },
  };
}
export type WebhooksService = ReturnType<typeof createWebhooksService>;
