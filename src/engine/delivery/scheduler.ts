import { randomBytes } from 'node:crypto';
import { RETRY_SCHEDULE_MS, WEBHOOK_LIMITS } from '../../schemas/webhooks.js';
import { signPayloadWith } from '../../verify/internal/core.js';
import { createNodeCryptoBackend } from '../../verify/internal/node-crypto.js';
import { toBool, toInt, toJson, ts, type Database, type Sql } from '../internal/sql.js';
import { disableWebhook } from '../services/webhooks.js';
import type { Mailer } from './mailer.js';
import type { AttemptOutcome, Sender } from './sender.js';

export interface SchedulerOptions {
  /** Deliveries claimed and not yet recorded, across all webhooks (64). */
  concurrency?: number;
  /** Requests in flight to one webhook (8): a slow receiver holds at most this many of the slots. */
  perWebhookConcurrency?: number;
  /** How long a claim holds a delivery (60 s). Longer than the attempt time-out, so a live claim never lapses. */
  leaseMs?: number;
  /** The fallback poll, for retries coming due and leases of dead processes expiring (1 s). */
  pollMs?: number;
}

export interface RunSummary {
  /** Attempts made (each recorded in the delivery log). */
  attempted: number;
  succeeded: number;
  failed: number;
}

/** The delivery scheduler: claims due deliveries, sends them, records the outcome. */
export interface DeliveryScheduler {
  /** Start working: wake on local commits, on NOTIFY from other processes (PostgreSQL), and on a poll. */
  start(): Promise<void>;
  /** Stop claiming; resolves when every claimed delivery is sent and recorded. */
  stop(): Promise<void>;
  /** Claim and send everything due now (by the engine's clock), and resolve once all of it is recorded. */
  runDue(): Promise<RunSummary>;
  readonly running: boolean;
  /** Attempts recorded by this scheduler since it was created (for metrics). */
  readonly totals: Readonly<RunSummary>;
}

interface Claimed {
  id: string;
  token: string;
  webhookId: string;
  eventType: string;
  attemptCount: number;
}

interface Ready extends Claimed {
  url: string;
  secret: string;
  enabled: boolean;
  payload: string;
}

/** What the recorder writes for one claimed delivery. */
interface Result {
  id: string;
  token: string;
  webhookId: string;
  /** null: the webhook was disabled before the attempt; the delivery ends without one. */
  attempt: (AttemptOutcome & { number: number; attemptedAt: Date; nextAt: Date | null }) | null;
}

export interface SchedulerDeps {
  db: Database;
  clock: () => Date;
  sender: Sender;
  mailer: Mailer;
  log: (message: string, error?: unknown) => void;
  /** PostgreSQL: the URL to LISTEN on for other processes' commits. */
  listenUrl?: string;
}

/** The channel the `event_fan_out` trigger NOTIFYs on when it writes deliveries. */
export const DELIVERY_CHANNEL = 'feedback_service_delivery';

const RECORD_BATCH = 200;
const hmac = createNodeCryptoBackend();

/**
 * Claims are leases written in one statement: a claimed delivery's `next_attempt_at` moves to the lease's
 * expiry and it gets a `lease_token`. The HTTP call happens outside any transaction; the outcome is written
 * only where the token still matches. A process that dies mid-delivery loses nothing: when its lease
 * expires the delivery is due again and any process retries it.
 */
export function createScheduler(deps: SchedulerDeps, options: SchedulerOptions = {}): DeliveryScheduler {
  const { db, clock, sender, mailer, log } = deps;
  const concurrency = options.concurrency ?? 64;
  const perWebhook = options.perWebhookConcurrency ?? 8;
  const leaseMs = options.leaseMs ?? 60_000;
  const pollMs = options.pollMs ?? 1000;
  const pg = db.dialect === 'postgresql';

  let running = false;
  let inFlight = 0;
  const inFlightByWebhook = new Map<string, number>();
  const sendQueues = new Map<string, { active: number; waiting: Ready[] }>();
  let pumping: Promise<void> | null = null;
  let again = false;
  let mayHaveMore = false;
  let wakeQueued = false;
  /** Set while `stop()` waits: no new claims. */
  let halted = false;
  /** Admin notices being sent: `runDue()` and `stop()` wait for them too. */
  let notifying = 0;
  const idleWaiters: Array<() => void> = [];
  const totals: RunSummary = { attempted: 0, succeeded: 0, failed: 0 };
  let poll: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;
  let listener: { close(): Promise<void> } | undefined;

  // --- claiming -----------------------------------------------------------------------------------

  /** Up to `limit` due deliveries, at most `perWebhook` per webhook, none of the `saturated` webhooks'. */
  async function claim(limit: number, saturated: string[]): Promise<Claimed[]> {
    const now = clock();
    const token = randomBytes(12).toString('hex');
    const exclude = saturated.length > 0 ? ` AND webhook_id NOT IN (${saturated.map(() => '?').join(', ')})` : '';
    // The oldest due deliveries (bounded scan on delivery_due_idx), ranked per webhook.
    const candidates =
      `SELECT id FROM (SELECT id, next_attempt_at, row_number() OVER (PARTITION BY webhook_id ORDER BY next_attempt_at, id) AS rn ` +
      `FROM (SELECT id, webhook_id, next_attempt_at FROM delivery WHERE status = 'pending' AND next_attempt_at <= ?${exclude} ` +
      `ORDER BY next_attempt_at, id LIMIT ?) due) ranked WHERE rn <= ? ORDER BY next_attempt_at, id LIMIT ?`;
    const candidateParams = [ts(db, now), ...saturated, Math.max(limit * 4, 256), perWebhook, limit];
    // PostgreSQL: rows another process is claiming right now are skipped, not waited for; the conditions are
    // re-checked on the locked row, so a delivery claimed and committed meanwhile is not claimed twice.
    const target = pg
      ? `SELECT id FROM delivery WHERE id IN (${candidates}) AND status = 'pending' AND next_attempt_at <= ? FOR UPDATE SKIP LOCKED`
      : candidates;
    const rows = await db.all<Record<string, unknown>>(
      `UPDATE delivery SET next_attempt_at = ?, lease_token = ? WHERE id IN (${target})
       RETURNING id, webhook_id, event_type, attempt_count`,
      [ts(db, new Date(now.getTime() + leaseMs)), token, ...candidateParams, ...(pg ? [ts(db, now)] : [])],
    );
    return rows.map((r) => ({
      id: r.id as string,
      token,
      webhookId: r.webhook_id as string,
      eventType: r.event_type as string,
      attemptCount: toInt(r.attempt_count),
    }));
  }

  /** The receiver, secret and exact payload bytes of claimed deliveries (gone if their webhook was deleted). */
  async function load(claimed: Claimed[]): Promise<Ready[]> {
    const rows = await db.all<Record<string, unknown>>(
      `SELECT d.id, w.url, w.secret, w.enabled, e.payload FROM delivery d
       JOIN webhook w ON w.id = d.webhook_id JOIN event e ON e.id = d.event_id
       WHERE d.id IN (${claimed.map(() => '?').join(', ')})`,
      claimed.map((c) => c.id),
    );
    const byId = new Map(rows.map((r) => [r.id as string, r]));
    return claimed.flatMap((c) => {
      const r = byId.get(c.id);
      if (!r) return [];
      return [{ ...c, url: r.url as string, secret: r.secret as string, enabled: toBool(r.enabled), payload: r.payload as string }];
    });
  }

  // --- sending ------------------------------------------------------------------------------------

  async function attempt(d: Ready): Promise<Result> {
    if (!d.enabled) return { id: d.id, token: d.token, webhookId: d.webhookId, attempt: null };
    const number = d.attemptCount + 1;
    const attemptedAt = clock();
    const timestamp = Math.floor(attemptedAt.getTime() / 1000);
    const outcome = await sender.send(
      d.url,
      {
        'Content-Type': 'application/json',
        'User-Agent': 'Service-Webhooks/1.0',
        'X-Service-Event': d.eventType,
        'X-Service-Delivery': d.id,
        'X-Service-Signature': await signPayloadWith(hmac, d.secret, d.payload, timestamp),
      },
      d.payload,
    );
    const wait = RETRY_SCHEDULE_MS[number];
    const nextAt = outcome.ok || wait === undefined ? null : new Date(clock().getTime() + wait);
    return { id: d.id, token: d.token, webhookId: d.webhookId, attempt: { ...outcome, number, attemptedAt, nextAt } };
  }

  function dispatch(ready: Ready): void {
    let queue = sendQueues.get(ready.webhookId);
    if (!queue) sendQueues.set(ready.webhookId, (queue = { active: 0, waiting: [] }));
    queue.waiting.push(ready);
    drainSendQueue(ready.webhookId, queue);
  }

  function drainSendQueue(webhookId: string, queue: { active: number; waiting: Ready[] }): void {
    while (queue.active < perWebhook && queue.waiting.length > 0) {
      const next = queue.waiting.shift()!;
      queue.active++;
      void attempt(next)
        .catch((err): Result => {
          log('[feedback-service] delivery attempt crashed', err);
          return { id: next.id, token: next.token, webhookId, attempt: null };
        })
        .then((result) => {
          queue.active--;
          if (queue.active === 0 && queue.waiting.length === 0) sendQueues.delete(webhookId);
          else drainSendQueue(webhookId, queue);
          return record(result);
        })
        .catch((err) => log('[feedback-service] recording a delivery failed; its lease will expire and it will be retried', err))
        .finally(() => release(next));
    }
  }

  function release(d: Claimed): void {
    inFlight--;
    const n = (inFlightByWebhook.get(d.webhookId) ?? 1) - 1;
    if (n <= 0) inFlightByWebhook.delete(d.webhookId);
    else inFlightByWebhook.set(d.webhookId, n);
    if (mayHaveMore) void pump();
    else settleIfIdle();
  }

  // --- recording ----------------------------------------------------------------------------------

  const recordQueue: Array<{ result: Result; done: (err?: unknown) => void }> = [];
  let recording = false;

  /** Outcomes are written in batches: whatever completed while the previous batch was being written. */
  function record(result: Result): Promise<void> {
    return new Promise((resolve, reject) => {
      recordQueue.push({ result, done: (err) => (err ? reject(err) : resolve()) });
      if (!recording) void drainRecords();
    });
  }

  async function drainRecords(): Promise<void> {
    recording = true;
    while (recordQueue.length > 0) {
      const batch = recordQueue.splice(0, RECORD_BATCH);
      try {
        const disabled = await db.transaction((tx) => writeResults(tx, batch.map((b) => b.result)));
        for (const b of batch) b.done();
        for (const webhookId of disabled) {
          notifying++;
          void notifyDisabled(webhookId).finally(() => {
            notifying--;
            settleIfIdle();
          });
        }
      } catch (err) {
        for (const b of batch) b.done(err);
      }
    }
    recording = false;
    settleIfIdle();
  }

  /** One batch of outcomes, in one transaction; returns the webhooks this batch disabled. */
  async function writeResults(tx: Sql, results: Result[]): Promise<string[]> {
    const now = clock();
    const attempted = results.filter((r) => r.attempt !== null);
    const recorded = new Set<string>();
    if (attempted.length > 0) {
      const row = pg ? '(?::text, ?::text, ?::int, ?::int, ?::timestamptz, ?::timestamptz)' : '(?, ?, ?, ?, ?, ?)';
      const rows = await tx.all<{ id: string }>(
        `WITH v (id, token, number, ok, at, next_at) AS (VALUES ${attempted.map(() => row).join(', ')})
         UPDATE delivery SET attempt_count = v.number, lease_token = NULL,
           status = CASE WHEN v.ok = 1 THEN 'succeeded' WHEN delivery.status = 'failed' OR v.number >= ${WEBHOOK_LIMITS.attempts} THEN 'failed' ELSE 'pending' END,
           next_attempt_at = CASE WHEN v.ok = 1 OR delivery.status = 'failed' OR v.number >= ${WEBHOOK_LIMITS.attempts} THEN NULL ELSE v.next_at END,
           succeeded_at = CASE WHEN v.ok = 1 THEN v.at ELSE NULL END,
           failed_at = CASE WHEN v.ok = 1 THEN NULL WHEN delivery.status = 'failed' THEN delivery.failed_at WHEN v.number >= ${WEBHOOK_LIMITS.attempts} THEN v.at ELSE NULL END,
           failure_reason = CASE WHEN v.ok = 1 THEN NULL WHEN delivery.status = 'failed' THEN delivery.failure_reason WHEN v.number >= ${WEBHOOK_LIMITS.attempts} THEN 'attempts_exhausted' ELSE NULL END
         FROM v WHERE delivery.id = v.id AND delivery.lease_token = v.token RETURNING delivery.id`,
        attempted.flatMap((r) => {
          const a = r.attempt!;
          return [r.id, r.token, a.number, a.ok ? 1 : 0, ts(tx, a.attemptedAt), a.nextAt ? ts(tx, a.nextAt) : null];
        }),
      );
      for (const r of rows) recorded.add(r.id);
      const logged = attempted.filter((r) => recorded.has(r.id));
      if (logged.length > 0) {
        await tx.all(
          `INSERT INTO delivery_attempt (delivery_id, number, attempted_at, status_code, error, duration_ms, response_body)
           VALUES ${logged.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
          logged.flatMap((r) => {
            const a = r.attempt!;
            return [r.id, a.number, ts(tx, a.attemptedAt), a.statusCode, a.error?.slice(0, 500) ?? null, a.durationMs, a.responseBody];
          }),
        );
      }
    }
    // Claimed, but the webhook was disabled before the attempt: the delivery ends as the disabling would have ended it.
    for (const r of results.filter((x) => x.attempt === null)) {
      await tx.all(
        `UPDATE delivery SET status = 'failed', failed_at = ?, failure_reason = 'webhook_disabled', next_attempt_at = NULL, lease_token = NULL
         WHERE id = ? AND lease_token = ? AND status = 'pending' RETURNING id`,
        [ts(tx, now), r.id, r.token],
      );
    }
    // Consecutive failures per webhook, in completion order: a success resets the count to the failures after it.
    const byWebhook = new Map<string, { succeeded: boolean; failures: number }>();
    for (const r of attempted) {
      if (!recorded.has(r.id)) continue;
      const entry = byWebhook.get(r.webhookId) ?? { succeeded: false, failures: 0 };
      if (r.attempt!.ok) {
        entry.succeeded = true;
        entry.failures = 0;
      } else entry.failures++;
      byWebhook.set(r.webhookId, entry);
    }
    const disabled: string[] = [];
    for (const [webhookId, { succeeded, failures }] of byWebhook) {
      await tx.all(
        `UPDATE webhook SET consecutive_failures = ${succeeded ? '?' : 'consecutive_failures + ?'} WHERE id = ? RETURNING id`,
        [failures, webhookId],
      );
      // The 50th consecutive failure disables the webhook, exactly once: the update is conditional.
      if (failures > 0 && (await disableWebhook(tx, webhookId, now, ` AND consecutive_failures >= ${WEBHOOK_LIMITS.consecutiveFailures}`)))
        disabled.push(webhookId);
    }
    for (const r of attempted) {
      if (!recorded.has(r.id)) continue;
      totals.attempted++;
      if (r.attempt!.ok) totals.succeeded++;
      else totals.failed++;
    }
    return disabled;
  }

  /** Email the workspace's admins that a webhook was disabled (once: only the disabling transaction gets here). */
  async function notifyDisabled(webhookId: string): Promise<void> {
    try {
      const row = await db.one<Record<string, unknown>>(
        `SELECT w.url, o.id AS org_id, o.name, o.admin_emails FROM webhook w JOIN organization o ON o.id = w.organization_id WHERE w.id = ?`,
        [webhookId],
      );
      if (!row) return;
      await mailer.send({
        to: toJson<string[]>(row.admin_emails),
        subject: `Webhook disabled after ${WEBHOOK_LIMITS.consecutiveFailures} failed deliveries: ${String(row.url)}`,
        text:
          `The webhook ${webhookId} (${String(row.url)}) of workspace "${String(row.name)}" (${String(row.org_id)}) was disabled after ` +
          `${WEBHOOK_LIMITS.consecutiveFailures} consecutive failed delivery attempts.\n\n` +
          `Its pending deliveries were ended as failed (reason webhook_disabled). Once the receiver works again, re-enable it with\n` +
          `PATCH /v1/webhooks/${webhookId} {"enabled": true}\n` +
          `and replay the deliveries you need with POST /v1/webhooks/${webhookId}/deliveries/{deliveryId}/replay.\n`,
      });
    } catch (err) {
      log(`[feedback-service] could not notify the admins that webhook ${webhookId} was disabled`, err);
    }
  }

  // --- the loop -----------------------------------------------------------------------------------

  /** Claim while there is capacity and something is due; one pump at a time, re-run when woken meanwhile. */
  function pump(): Promise<void> {
    if (pumping) {
      again = true;
      return pumping;
    }
    pumping = (async () => {
      do {
        again = false;
        while (inFlight < concurrency && !halted) {
          const saturated = [...inFlightByWebhook].filter(([, n]) => n >= perWebhook).map(([id]) => id);
          const want = concurrency - inFlight;
          const claimed = await claim(want, saturated);
          // A claim held back by the per-webhook cap leaves work behind, to be claimed as those finish.
          mayHaveMore = claimed.length > 0 || saturated.length > 0;
          if (claimed.length === 0) break;
          inFlight += claimed.length;
          for (const c of claimed) inFlightByWebhook.set(c.webhookId, (inFlightByWebhook.get(c.webhookId) ?? 0) + 1);
          let ready: Ready[];
          try {
            ready = await load(claimed);
          } catch (err) {
            for (const c of claimed) release(c);
            throw err;
          }
          const loaded = new Set(ready.map((r) => r.id));
          for (const c of claimed) if (!loaded.has(c.id)) release(c);
          for (const r of ready) dispatch(r);
        }
      } while (again);
    })()
      .catch((err) => log('[feedback-service] claiming deliveries failed; retrying at the next poll', err))
      .finally(() => {
        pumping = null;
        settleIfIdle();
      });
    return pumping;
  }

  function settleIfIdle(): void {
    if (inFlight === 0 && !pumping && notifying === 0 && !recording) for (const resolve of idleWaiters.splice(0)) resolve();
  }

  function idle(): Promise<void> {
    return new Promise((resolve) => {
      idleWaiters.push(resolve);
      settleIfIdle();
    });
  }

  function wake(): void {
    if (!running || wakeQueued) return;
    wakeQueued = true;
    // Commits in the same tick share one claim.
    setImmediate(() => {
      wakeQueued = false;
      mayHaveMore = true;
      void pump();
    });
  }

  async function listen(url: string): Promise<{ close(): Promise<void> }> {
    const { default: pgModule } = await import('pg');
    let client: InstanceType<typeof pgModule.Client> | undefined;
    let closed = false;
    let retry: NodeJS.Timeout | undefined;
    const connect = async () => {
      const c = new pgModule.Client({ connectionString: url });
      c.on('notification', wake);
      c.on('error', (err) => {
        log('[feedback-service] LISTEN connection lost; reconnecting (polling meanwhile)', err);
        void c.end().catch(() => {});
        if (!closed) retry = setTimeout(() => void connect().catch(() => {}), 1000);
      });
      await c.connect();
      await c.query(`LISTEN ${DELIVERY_CHANNEL}`);
      client = c;
      wake(); // whatever was committed while we were not listening
    };
    await connect();
    return {
      async close() {
        closed = true;
        clearTimeout(retry);
        await client?.end().catch(() => {});
      },
    };
  }

  return {
    get running() {
      return running;
    },
    get totals() {
      return { ...totals };
    },
    async start() {
      if (running) return;
      running = true;
      unsubscribe = db.onDeliveriesCommitted(wake);
      poll = setInterval(wake, pollMs);
      poll.unref();
      if (deps.listenUrl) {
        try {
          listener = await listen(deps.listenUrl);
        } catch (err) {
          log('[feedback-service] LISTEN failed; other processes wake this one only by polling', err);
        }
      }
      wake();
    },
    async stop() {
      running = false;
      clearInterval(poll);
      unsubscribe?.();
      await listener?.close();
      listener = undefined;
      halted = true;
      await idle();
      halted = false;
    },
    async runDue() {
      const before = { ...totals };
      mayHaveMore = true;
      await pump();
      await idle();
      return { attempted: totals.attempted - before.attempted, succeeded: totals.succeeded - before.succeeded, failed: totals.failed - before.failed };
    },
  };
}
