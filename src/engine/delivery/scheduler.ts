import { randomBytes } from 'node:crypto';
import { RETRY_SCHEDULE_MS, WEBHOOK_LIMITS } from '../../schemas/webhooks.js';
import { signPayloadWith } from '../../verify/internal/core.js';
import { createNodeCryptoBackend } from '../../verify/internal/node-crypto.js';
import { disableWebhook } from '../shared/webhooks.js';
import { endPending as endPendingDeliveries } from '../store/deliveries.js';
import { statement, toBool, toInt, toJson, ts, type Database } from '../store/sql.js';
import type { Mailer } from './mailer.js';
import type { AttemptOutcome, Sender } from './sender.js';

export interface SchedulerOptions {
  /** Requests in flight, across all webhooks (64). */
  concurrency?: number;
  /** Requests in flight to one webhook (8): a slow receiver holds at most this many of the slots. */
  perWebhookConcurrency?: number;
  /** How long a claim holds a delivery (60 s); renewed every third of it while held, so only a dead process's claims lapse. */
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

/** A delivery this process holds a lease on, with everything its attempt needs. */
interface Claimed {
  id: string;
  /** The claim's lease token: the outcome is recorded only where the delivery still carries it. */
  token: string;
  webhookId: string;
  eventType: string;
  attemptCount: number;
  url: string;
  secret: string;
  enabled: boolean;
  /** The exact bytes sent. */
  payload: string;
}

interface SendQueue {
  active: number;
  waiting: Claimed[];
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

/** Outcomes written per statement at most; a batch goes once this many wait, or this long after the first. */
const RECORD_BATCH = 500;
const RECORD_BATCH_MIN = 250;
const RECORD_DELAY_MS = 20;
/** A receiver that answered 2xx within this is claimed for deep. */
const FAST_MS = 1000;

/** The columns of one recorded outcome (`v`), as each database reads them from the JSON parameter. */
const RESULT_FIELDS = [
  ['id', 'text'],
  ['token', 'text'],
  ['webhook_id', 'text'],
  ['seq', 'int'],
  ['number', 'int'],
  ['ok', 'int'],
  ['at', 'timestamptz'],
  ['next_at', 'timestamptz'],
  ['status_code', 'int'],
  ['error', 'text'],
  ['duration_ms', 'int'],
  ['response_body', 'text'],
] as const;
const RESULT_COLUMNS = {
  pg: RESULT_FIELDS.map(([name, type]) => `${name} ${type}`).join(', '),
  sqlite: RESULT_FIELDS.map(([name]) => `value ->> '${name}' AS ${name}`).join(', '),
};

const LAST = WEBHOOK_LIMITS.attempts;
/**
 * An attempt's outcome, where the lease is still held: a 2xx succeeds; otherwise the next attempt is due at
 * `next_at`, or after the fifth the delivery fails (`attempts_exhausted`). A delivery failed meanwhile by
 * disabling its webhook stays failed with that reason. The rows are found by primary key: on PostgreSQL the
 * ids also go in as an array (`= ANY`), because a join with the JSON rows alone, estimated at 100 rows
 * whatever the batch, is planned as a hash join over a scan of the whole delivery table.
 */
const updateDeliveries = (pg: boolean) => `UPDATE delivery SET attempt_count = v.number, lease_token = NULL, lease_expires_at = NULL,
  status = CASE WHEN v.ok = 1 THEN 'succeeded' WHEN delivery.status = 'failed' OR v.number >= ${LAST} THEN 'failed' ELSE 'pending' END,
  next_attempt_at = CASE WHEN v.ok = 1 OR delivery.status = 'failed' OR v.number >= ${LAST} THEN NULL ELSE v.next_at END,
  succeeded_at = CASE WHEN v.ok = 1 THEN v.at ELSE NULL END,
  failed_at = CASE WHEN v.ok = 1 THEN NULL WHEN delivery.status = 'failed' THEN delivery.failed_at WHEN v.number >= ${LAST} THEN v.at ELSE NULL END,
  failure_reason = CASE WHEN v.ok = 1 THEN NULL WHEN delivery.status = 'failed' THEN delivery.failure_reason
    WHEN v.number >= ${LAST} THEN 'attempts_exhausted' ELSE NULL END
  FROM v WHERE ${pg ? 'delivery.id = ANY(ARRAY(SELECT id FROM v)) AND ' : ''}delivery.id = v.id AND delivery.lease_token = v.token`;

/** The attempt log rows of the recorded outcomes (`r`). */
const INSERT_ATTEMPTS = `INSERT INTO delivery_attempt (delivery_id, number, attempted_at, status_code, error, duration_ms, response_body)
  SELECT id, number, at, status_code, error, duration_ms, response_body FROM r`;

/**
 * Consecutive failures per webhook, in completion order (`seq`): a success resets the count to the failures
 * after the last one; without one, the failures add to the count.
 */
const COUNT_FAILURES = `s AS (SELECT webhook_id, max(CASE WHEN ok = 1 THEN seq END) AS last_ok, sum(CASE WHEN ok = 0 THEN 1 ELSE 0 END) AS failures
    FROM r GROUP BY webhook_id),
  c AS (SELECT webhook_id, failures,
    CASE WHEN last_ok IS NULL THEN NULL ELSE (SELECT count(*) FROM r WHERE r.webhook_id = s.webhook_id AND r.ok = 0 AND r.seq > s.last_ok) END AS tail
    FROM s)`;
const UPDATE_COUNTERS = `UPDATE webhook SET consecutive_failures = CASE WHEN c.tail IS NULL THEN webhook.consecutive_failures + c.failures ELSE c.tail END
  FROM c WHERE webhook.id = c.webhook_id AND (c.failures > 0 OR webhook.consecutive_failures <> 0)
  RETURNING webhook.id, CASE WHEN webhook.enabled AND webhook.consecutive_failures >= ${WEBHOOK_LIMITS.consecutiveFailures} THEN 1 ELSE 0 END AS over,
    CASE WHEN webhook.enabled THEN 0 ELSE 1 END AS disabled`;

/** PostgreSQL: a whole batch of outcomes in one statement. */
const RECORD_PG = statement(`WITH v AS (SELECT * FROM json_to_recordset(?::json) AS x (${RESULT_COLUMNS.pg})),
  u AS (${updateDeliveries(true)} RETURNING delivery.id),
  r AS (SELECT v.* FROM v JOIN u ON u.id = v.id),
  a AS (${INSERT_ATTEMPTS}),
  ${COUNT_FAILURES},
  w AS (${UPDATE_COUNTERS})
  SELECT 'recorded' AS kind, id FROM u UNION ALL SELECT 'over' AS kind, id FROM w WHERE over = 1
  UNION ALL SELECT 'disabled' AS kind, id FROM w WHERE disabled = 1`);

const hmac = createNodeCryptoBackend();

/**
 * Claims are leases written in one statement: a claimed delivery gets a `lease_token` and a `lease_expires_at`,
 * and is not claimable again until that passes. The HTTP call happens outside any transaction; the outcome is written
 * only where the token still matches. A process that dies mid-delivery loses nothing: when its lease
 * expires the delivery is due again and any process retries it.
 */
export function createScheduler(deps: SchedulerDeps, options: SchedulerOptions = {}): DeliveryScheduler {
  const { db, clock, sender, mailer, log } = deps;
  const concurrency = options.concurrency ?? 64;
  const perWebhook = options.perWebhookConcurrency ?? 8;
  const leaseMs = options.leaseMs ?? 60_000;
  const pollMs = options.pollMs ?? 1000;
  const pg = db.dialect.name === 'postgresql';

  // Claims run ahead of sending and recording, so neither waits for the other. How far ahead depends on the
  // receiver: a webhook whose last attempt succeeded within a second is claimed for deep (batches of
  // `deep.batch` while it holds fewer than `deep.held`); any other (new, failing, slow) shallow, so a hanging
  // receiver holds few of the process's `heldLimit` claims. Held deliveries have their leases renewed while
  // this process lives, so a queue slower than a lease keeps its claims.
  const deep = { batch: perWebhook * 16, held: perWebhook * 48 };
  const shallow = { batch: perWebhook * 2, held: perWebhook * 2 };
  const heldLimit = concurrency * 64;
  /** Webhooks whose last recorded attempt succeeded within FAST_MS. */
  const fast = new Set<string>();
  const limitOf = (webhookId: string) => (fast.has(webhookId) ? deep.held : shallow.held);

  let running = false;
  /** Claimed and not yet recorded, overall and per webhook. */
  let held = 0;
  const heldByWebhook = new Map<string, number>();
  /** Requests in flight, and per webhook the deliveries waiting to be sent. */
  let sending = 0;
  const sendQueues = new Map<string, SendQueue>();
  let pumping: Promise<void> | null = null;
  let again = false;
  let mayHaveMore = false;
  /**
   * Whether a claim for the shallow class may find anything: set on every wake (a commit, NOTIFY, the poll),
   * when one of its webhooks drops below its limit or leaves the deep class, and while its claims bring
   * something. A deep webhook refilling its claims then costs one statement, not one per class.
   */
  let shallowWanted = true;
  let wakeQueued = false;
  /** Set while `stop()` waits: no new claims. */
  let halted = false;
  /** Admin notices being sent: `runDue()` and `stop()` wait for them too. */
  let notifying = 0;
  const idleWaiters: Array<() => void> = [];
  const totals: RunSummary = { attempted: 0, succeeded: 0, failed: 0 };
  let poll: NodeJS.Timeout | undefined;
  let renewal: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;
  let listener: { close(): Promise<void> } | undefined;

  // --- claiming -----------------------------------------------------------------------------------

  /**
   * Up to `limit` due deliveries, oldest first, at most `batch` of each webhook `h`. Every step is an index
   * seek on delivery_pending_idx (webhook_id, next_attempt_at): each webhook gives its oldest due deliveries,
   * so a claim costs one seek per webhook, however long any webhook's backlog is, and a slow webhook's
   * backlog never hides another webhook's deliveries. The webhooks are either given (the deep class, known
   * from its recorded outcomes) or found by a loose index scan of the webhooks with pending deliveries, less
   * the `excluded` ones (the shallow class: new, failing or slow webhooks).
   *
   * A given webhook may come with a cursor: the position (next_attempt_at, id) of the newest delivery this
   * process claimed for it since it was last woken. Its seek then starts there, past what this process holds
   * and past the index entries of deliveries already done (which stay in the index until vacuum), instead of
   * walking them on every refill. What lies before a cursor and becomes claimable (a lease of a dead process
   * expiring, a delivery committed out of order) comes with a wake (the poll, a commit, NOTIFY), and every
   * wake claims without cursors.
   */
  const GIVEN_WEBHOOKS = pg
    ? `h (id, at, after) AS (SELECT id, at, after FROM json_to_recordset(?::json) AS x (id text, at timestamptz, after text))`
    : `h (id, at, after) AS (SELECT value ->> 'id', value ->> 'at', value ->> 'after' FROM json_each(?))`;
  const PENDING_WEBHOOKS = `RECURSIVE h (id) AS (
       SELECT (SELECT webhook_id FROM delivery WHERE status = 'pending' ORDER BY webhook_id LIMIT 1)
       UNION ALL
       SELECT (SELECT webhook_id FROM delivery WHERE status = 'pending' AND webhook_id > h.id ORDER BY webhook_id LIMIT 1) FROM h WHERE h.id IS NOT NULL
     )`;
  /** A webhook's oldest due deliveries; for given webhooks, from the cursor on. */
  const oldestDue = (given: boolean) => `SELECT ${pg ? 'ctid, ' : ''}id, next_attempt_at FROM delivery
    WHERE webhook_id = h.id AND status = 'pending' AND next_attempt_at <= ?${
      given ? ` AND (next_attempt_at, id) > (COALESCE(h.at, ${pg ? "'-infinity'" : '-1'}), COALESCE(h.after, ''))` : ''
    }
    AND (lease_expires_at IS NULL OR lease_expires_at <= ?) ORDER BY next_attempt_at, id LIMIT ?`;
  // PostgreSQL: rows another process is claiming right now are skipped, not waited for, and the conditions
  // are re-checked on the locked row, so a delivery claimed and committed meanwhile is not claimed twice.
  // The locked rows are updated by their tuple id (a TID scan), not looked up again by primary key: a row
  // locked by this statement cannot move before the update. SQLite serializes writers: the statement sees
  // no concurrent claim.
  const picked = (given: boolean) => {
    const due = pg
      ? `CROSS JOIN LATERAL (${oldestDue(given)} FOR UPDATE SKIP LOCKED) d`
      : `CROSS JOIN delivery d ON d.id IN (SELECT id FROM (${oldestDue(given)}))`;
    const excluded = pg ? 'json_array_elements_text(?::json)' : 'json_each(?)';
    return `SELECT ${pg ? 'd.ctid, ' : ''}d.id, d.next_attempt_at FROM h ${due}
      WHERE h.id IS NOT NULL${given ? '' : ` AND h.id NOT IN (SELECT value FROM ${excluded})`}`;
  };
  // The claimed rows come back in claim order (next_attempt_at, id), as the database orders them: a
  // webhook's last row is its cursor. SQLite has no UPDATE in a WITH, so its rows are ordered here (its text
  // order is by code unit, as JavaScript compares).
  const update = (given: boolean) => `UPDATE delivery SET lease_expires_at = ?, lease_token = ?
       WHERE ${pg ? 'ctid = ANY(ARRAY' : 'id IN'}(SELECT ${pg ? 'ctid' : 'id'} FROM (${picked(given)}) p ORDER BY next_attempt_at, id LIMIT ?)${pg ? ')' : ''}
       RETURNING id, webhook_id, event_type, attempt_count, next_attempt_at,
         (SELECT url FROM webhook w WHERE w.id = delivery.webhook_id) AS url,
         (SELECT secret FROM webhook w WHERE w.id = delivery.webhook_id) AS secret,
         (SELECT enabled FROM webhook w WHERE w.id = delivery.webhook_id) AS enabled,
         (SELECT payload FROM event e WHERE e.id = delivery.event_id) AS payload`;
  const claimStatement = (given: boolean) => {
    const webhooks = given ? GIVEN_WEBHOOKS : PENDING_WEBHOOKS;
    return statement(pg ? `WITH ${webhooks}, c AS (${update(given)}) SELECT * FROM c ORDER BY next_attempt_at, id` : `WITH ${webhooks} ${update(given)}`);
  };
  const CLAIM_GIVEN = claimStatement(true);
  const CLAIM_PENDING = claimStatement(false);

  /** Per deep webhook, where its next refill claim starts; cleared on every wake. */
  const cursors = new Map<string, { at: unknown; after: string }>();

  /** Claim for the `given` webhooks (from their cursors), or else for any webhook with pending deliveries but the `excluded`. */
  async function claim(limit: number, batch: number, webhooks: { given: string[] } | { excluded: string[] }): Promise<Claimed[]> {
    const now = clock();
    const token = randomBytes(12).toString('hex');
    const lease = [ts(db, new Date(now.getTime() + leaseMs)), token, ts(db, now)];
    let rows: Array<Record<string, unknown>>;
    if ('given' in webhooks) {
      const given = JSON.stringify(webhooks.given.map((id) => ({ id, ...cursors.get(id) })));
      rows = await db.all<Record<string, unknown>>(CLAIM_GIVEN, [given, ...lease, ts(db, now), batch, limit]);
      if (!pg) rows.sort((a, b) => Number(a.next_attempt_at) - Number(b.next_attempt_at) || (a.id! < b.id! ? -1 : 1));
      for (const r of rows) cursors.set(r.webhook_id as string, { at: r.next_attempt_at, after: r.id as string });
    } else {
      rows = await db.all<Record<string, unknown>>(CLAIM_PENDING, [...lease, ts(db, now), batch, JSON.stringify(webhooks.excluded), limit]);
    }
    return rows.map((r) => ({
      id: r.id as string,
      token,
      webhookId: r.webhook_id as string,
      eventType: r.event_type as string,
      attemptCount: toInt(r.attempt_count),
      url: r.url as string,
      secret: r.secret as string,
      enabled: toBool(r.enabled),
      payload: r.payload as string,
    }));
  }

  // --- sending ------------------------------------------------------------------------------------

  async function attempt(d: Claimed): Promise<Result> {
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

  /**
   * Sends start in webhook order, rotating, while fewer than `concurrency` are in flight overall and fewer
   * than `perWebhook` to that webhook: a slow receiver holds at most `perWebhook` of the slots.
   */
  function startSends(): void {
    for (const [webhookId, queue] of sendQueues) {
      if (sending >= concurrency) return;
      let launched = false;
      while (queue.active < perWebhook && queue.waiting.length > 0 && sending < concurrency) {
        launch(webhookId, queue, queue.waiting.shift()!);
        launched = true;
      }
      if (queue.active === 0 && queue.waiting.length === 0) sendQueues.delete(webhookId);
      else if (launched) {
        // The next round starts with the other webhooks.
        sendQueues.delete(webhookId);
        sendQueues.set(webhookId, queue);
      }
    }
  }

  function launch(webhookId: string, queue: SendQueue, next: Claimed): void {
    sending++;
    queue.active++;
    void attempt(next)
      .catch((err): Result => {
        log('[feedback-service] delivery attempt crashed', err);
        return { id: next.id, token: next.token, webhookId, attempt: null };
      })
      .then((result) => {
        sending--;
        queue.active--;
        if (result.attempt?.ok && result.attempt.durationMs < FAST_MS) {
          if (!fast.has(webhookId)) {
            fast.add(webhookId);
            void pump(); // it may hold more now
          }
        } else if (fast.delete(webhookId)) {
          shallowWanted = true; // its deliveries are shallow from now on
          cursors.delete(webhookId);
        }
        if (!sendQueues.has(webhookId) && queue.waiting.length > 0) sendQueues.set(webhookId, queue);
        startSends();
        return record(result);
      })
      .catch((err) => log('[feedback-service] recording a delivery failed; its lease will expire and it will be retried', err))
      .finally(() => release(next));
  }

  function dispatch(ready: Claimed): void {
    let queue = sendQueues.get(ready.webhookId);
    if (!queue) sendQueues.set(ready.webhookId, (queue = { active: 0, waiting: [] }));
    queue.waiting.push(ready);
  }

  /** A recorded delivery gives back its claim; a webhook dropping below its claim limit can be claimed for again. */
  function release(d: Claimed): void {
    const ids = leases.get(d.token);
    ids?.delete(d.id);
    if (ids?.size === 0) leases.delete(d.token);
    if (leases.size === 0 && renewal) {
      clearInterval(renewal);
      renewal = undefined;
    }
    held--;
    const n = (heldByWebhook.get(d.webhookId) ?? 1) - 1;
    if (n <= 0) heldByWebhook.delete(d.webhookId);
    else heldByWebhook.set(d.webhookId, n);
    const belowLimit = n === limitOf(d.webhookId) - 1;
    if ((belowLimit && !fast.has(d.webhookId)) || mayHaveMore) shallowWanted = true;
    if (belowLimit || mayHaveMore) void pump();
    else settleIfIdle();
  }

  // --- recording ----------------------------------------------------------------------------------

  const recordQueue: Array<{ result: Result; done: (err?: unknown) => void }> = [];
  /** Batches being written. PostgreSQL writes two at once (they meet only on the webhook row); SQLite one. */
  let recording = 0;
  const recorders = pg ? 2 : 1;

  let flushTimer: NodeJS.Timeout | undefined;

  /**
   * Outcomes are written in batches: a batch goes when `RECORD_BATCH_MIN` are waiting or `RECORD_DELAY_MS`
   * after the first, so a busy scheduler writes a few large statements rather than many small ones (each
   * statement costs about as much as a delivery's own request). Only the claim is held meanwhile.
   */
  function record(result: Result): Promise<void> {
    return new Promise((resolve, reject) => {
      recordQueue.push({ result, done: (err) => (err ? reject(err) : resolve()) });
      if (recordQueue.length >= RECORD_BATCH_MIN) flushRecords();
      else flushTimer ??= setTimeout(flushRecords, RECORD_DELAY_MS);
    });
  }

  function flushRecords(): void {
    clearTimeout(flushTimer);
    flushTimer = undefined;
    if (recording < recorders && recordQueue.length > 0) void drainRecords();
  }

  async function drainRecords(): Promise<void> {
    recording++;
    while (recordQueue.length > 0) {
      const batch = recordQueue.splice(0, RECORD_BATCH);
      try {
        const disabled = await writeResults(batch.map((b) => b.result));
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
      if (recordQueue.length > 0 && recordQueue.length < RECORD_BATCH_MIN) {
        flushTimer ??= setTimeout(flushRecords, RECORD_DELAY_MS);
        break;
      }
    }
    recording--;
    settleIfIdle();
  }

  /**
   * One batch of outcomes; returns the webhooks this batch disabled. Only deliveries whose lease this process
   * still holds are recorded. On PostgreSQL the whole batch is one statement (data-modifying CTEs); on SQLite
   * the same statements run in one transaction. The rows travel as one JSON parameter, so the statement text
   * is the same for every batch size.
   */
  async function writeResults(results: Result[]): Promise<string[]> {
    const now = clock();
    const attempted = results.filter((r) => r.attempt !== null);
    const rows = attempted.map((r, seq) => {
      const a = r.attempt!;
      const time = (d: Date | null) => (d === null ? null : pg ? d.toISOString() : d.getTime());
      return {
        id: r.id,
        token: r.token,
        webhook_id: r.webhookId,
        seq,
        number: a.number,
        ok: a.ok ? 1 : 0,
        at: time(a.attemptedAt),
        next_at: time(a.nextAt),
        status_code: a.statusCode,
        error: a.error?.slice(0, 500) ?? null,
        duration_ms: a.durationMs,
        response_body: a.responseBody,
      };
    });
    const recorded = new Set<string>();
    const over: string[] = [];
    /** Webhooks disabled while this batch was in flight: what it left pending is ended here. */
    const disabledMeanwhile: string[] = [];
    if (rows.length > 0) {
      if (pg) {
        const out = await db.all<{ kind: string; id: string }>(RECORD_PG, [JSON.stringify(rows)]);
        for (const row of out) {
          if (row.kind === 'recorded') recorded.add(row.id);
          else if (row.kind === 'over') over.push(row.id);
          else disabledMeanwhile.push(row.id);
        }
      } else {
        await db.transaction(async (tx) => {
          const v = `v AS (SELECT ${RESULT_COLUMNS.sqlite} FROM json_each(?))`;
          for (const row of await tx.all<{ id: string }>(`WITH ${v} ${updateDeliveries(false)} RETURNING delivery.id`, [JSON.stringify(rows)]))
            recorded.add(row.id);
          const kept = JSON.stringify(rows.filter((row) => recorded.has(row.id)));
          await tx.all(`WITH ${v}, r AS (SELECT * FROM v) ${INSERT_ATTEMPTS}`, [kept]);
          const counted = await tx.all<{ id: string }>(`WITH ${v}, r AS (SELECT * FROM v), ${COUNT_FAILURES} ${UPDATE_COUNTERS}`, [kept]);
          over.push(...counted.filter((row) => toBool((row as { over?: unknown }).over)).map((row) => row.id));
          disabledMeanwhile.push(...counted.filter((row) => toBool((row as { disabled?: unknown }).disabled)).map((row) => row.id));
        });
      }
    }
    // Claimed, but the webhook was disabled before the attempt: the delivery ends as the disabling would have ended it.
    for (const r of results.filter((x) => x.attempt === null)) {
      await db.all(
        `UPDATE delivery SET status = 'failed', failed_at = ?, failure_reason = 'webhook_disabled', next_attempt_at = NULL, lease_token = NULL, lease_expires_at = NULL
         WHERE id = ? AND lease_token = ? AND status = 'pending' RETURNING id`,
        [ts(db, now), r.id, r.token],
      );
    }
    for (const webhookId of disabledMeanwhile) await endPendingDeliveries(db, webhookId, now);
    // The 50th consecutive failure disables the webhook, exactly once: the update is conditional, and re-checks
    // the count, so a success recorded meanwhile by another process wins.
    const disabled: string[] = [];
    for (const webhookId of over) {
      if (await db.transaction((tx) => disableWebhook(tx, webhookId, now, WEBHOOK_LIMITS.consecutiveFailures))) disabled.push(webhookId);
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

  // --- leases -------------------------------------------------------------------------------------

  /** Held delivery ids per claim token. */
  const leases = new Map<string, Set<string>>();

  /** Push the leases of everything this process still holds one lease further out (every third of a lease while it holds any). */
  async function renewLeases(): Promise<void> {
    const until = ts(db, new Date(clock().getTime() + leaseMs));
    for (const [token, ids] of leases) {
      const list = [...ids];
      for (let i = 0; i < list.length; i += 500) {
        const chunk = list.slice(i, i + 500);
        await db.all(
          `UPDATE delivery SET lease_expires_at = ? WHERE lease_token = ? AND id IN (${chunk.map(() => '?').join(', ')}) RETURNING id`,
          [until, token, ...chunk],
        );
      }
    }
  }

  // --- the loop -----------------------------------------------------------------------------------

  /** Hold claimed deliveries (their leases are renewed from now on) and queue them for sending. */
  function take(claimed: Claimed[]): number {
    held += claimed.length;
    for (const c of claimed) {
      let ids = leases.get(c.token);
      if (!ids) leases.set(c.token, (ids = new Set()));
      ids.add(c.id);
      heldByWebhook.set(c.webhookId, (heldByWebhook.get(c.webhookId) ?? 0) + 1);
      dispatch(c);
    }
    if (claimed.length > 0) {
      renewal ??= setInterval(() => void renewLeases().catch((err) => log('[feedback-service] renewing delivery leases failed', err)), leaseMs / 3);
      startSends();
    }
    return claimed.length;
  }

  /** Claim while there is capacity and something is due; one pump at a time, re-run when woken meanwhile. */
  function pump(): Promise<void> {
    if (pumping) {
      again = true;
      return pumping;
    }
    pumping = (async () => {
      do {
        again = false;
        while (held < heldLimit && !halted) {
          const saturated = [...heldByWebhook].filter(([id, n]) => n >= limitOf(id)).map(([id]) => id);
          const deepOnes = [...fast].filter((id) => (heldByWebhook.get(id) ?? 0) < deep.held);
          const room = heldLimit - held;
          // The two classes are disjoint sets of webhooks: claim both at once (on PostgreSQL, two connections),
          // and start sending what each brings as soon as it arrives. Each may fill at most half the room.
          const claimShallow = shallowWanted;
          shallowWanted = false;
          const counts = await Promise.all([
            deepOnes.length > 0 ? claim(Math.ceil(room / 2), deep.batch, { given: deepOnes }).then(take) : 0,
            claimShallow
              ? claim(Math.floor(room / 2) || 1, shallow.batch, { excluded: [...saturated, ...fast] }).then((claimed) => {
                  if (claimed.length > 0) shallowWanted = true;
                  return take(claimed);
                })
              : 0,
          ]);
          const claimedCount = counts[0] + counts[1];
          // Claim again until a claim comes back empty: every webhook with due work is then either emptied or
          // holding its limit, and is claimed for again when it drains below it.
          mayHaveMore = held >= heldLimit;
          if (claimedCount === 0) break;
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
    if (held === 0 && !pumping && notifying === 0 && recording === 0) for (const resolve of idleWaiters.splice(0)) resolve();
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
      shallowWanted = true;
      cursors.clear();
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
      shallowWanted = true;
      cursors.clear();
      await pump();
      await idle();
      return { attempted: totals.attempted - before.attempted, succeeded: totals.succeeded - before.succeeded, failed: totals.failed - before.failed };
    },
  };
}
