/**
 * The delivery scheduler's loop. A delivery's way through one process:
 *
 *   pending (in the database) --claim--> held: leased to this process, lease renewed while held (leases.ts)
 *     --> queued for its webhook (send-queue.ts) --> sending: at most 8 per webhook, 64 in all (attempt.ts)
 *     --> recorded with other outcomes in one batch (recorder.ts): the outcome is written only where the lease is
 *         still ours; the 50th consecutive failure disables the webhook and emails its admins (disable.ts)
 *     --> released: the claim given back.
 *
 * The loop itself is either idle or pumping. A wake (a local commit, NOTIFY from another process, the poll, `runDue`)
 * rewinds the claim policy (claims.ts) and pumps: claim rounds run while the process holds fewer than its limit and
 * the last round found something. A release pumps again when its webhook drops below its limit or the process had
 * held its limit (`mayHaveMore`). `stop()` halts new claims and resolves once nothing is held, claiming, being
 * recorded or being notified. A process that dies mid-delivery loses nothing: when its leases expire, any process
 * claims the deliveries again.
 */
import type { Database } from '../store/sql.js';
import type { SecretBox } from '../secrets.js';
import { releaseLeases } from './sql/leases.js';
import { attemptDelivery, createSecretOpener, type Held, type Result } from './attempt.js';
import { createClaimPolicy } from './claims.js';
import { createLeases } from './leases.js';
import { listenForDeliveries } from './listener.js';
import type { Mailer } from './mailer.js';
import { createRecorder, type RunSummary } from './recorder.js';
import { createSendQueue } from './send-queue.js';
import type { Sender } from './sender.js';

export type { RunSummary } from './recorder.js';

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

/** One delivery attempt, as the server logs and counts it. */
export interface AttemptReport {
  webhookId: string;
  deliveryId: string;
  eventType: string;
  /** 1 to 5. */
  attempt: number;
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** No attempt follows: it succeeded, or it was the last. */
  final: boolean;
}

export interface SchedulerDeps {
  db: Database;
  clock: () => Date;
  sender: Sender;
  mailer: Mailer;
  /** Opens the webhooks' sealed signing secrets. */
  secrets: SecretBox;
  /** Hears of every attempt (the server's attempt log line and metrics). */
  onAttempt?: (attempt: AttemptReport) => void;
  log: (message: string, error?: unknown) => void;
  /** PostgreSQL: the URL to LISTEN on for other processes' commits. */
  listenUrl?: string;
}

export function createScheduler(deps: SchedulerDeps, options: SchedulerOptions = {}): DeliveryScheduler {
  const { db, clock, sender, mailer, log } = deps;
  const signingSecret = createSecretOpener(deps.secrets);
  const concurrency = options.concurrency ?? 64;
  const perWebhook = options.perWebhookConcurrency ?? 8;
  const leaseMs = options.leaseMs ?? 60_000;
  const pollMs = options.pollMs ?? 1000;

  const policy = createClaimPolicy({ db, clock, leaseMs, concurrency, perWebhook });
  const leases = createLeases(db, clock, leaseMs, log);
  const recorder = createRecorder({ db, clock, mailer, log, onSettle: () => settleIfIdle() });
  const queue = createSendQueue<Held, Result>({
    concurrency,
    perWebhook,
    attempt: (d) =>
      attemptDelivery(d, sender, clock, signingSecret).then(
        (result) => {
          if (deps.onAttempt && result.attempt) {
            const a = result.attempt;
            deps.onAttempt({
              webhookId: d.webhookId,
              deliveryId: d.id,
              eventType: d.eventType,
              attempt: a.number,
              ok: a.ok,
              statusCode: a.statusCode,
              durationMs: a.durationMs,
              error: a.error,
              final: a.ok || a.nextAt === null,
            });
          }
          return result;
        },
        (err): Result => {
          log('[feedback-service] delivery attempt crashed', err);
          return { id: d.id, token: d.token, webhookId: d.webhookId, attempt: null };
        },
      ),
    done(webhookId, d, result) {
      if (policy.observe(webhookId, result.attempt)) void pump(); // it may hold more now
      void recorder
        .record(result)
        .catch((err) => log('[feedback-service] recording a delivery failed; its lease will expire and it will be retried', err))
        .finally(() => release(d));
    },
  });

  let running = false;
  let pumping: Promise<void> | null = null;
  /** Woken while pumping: pump again once this round ends. */
  let again = false;
  /** The last claim left the process at its limit: a release may make room for more. */
  let mayHaveMore = false;
  let wakeQueued = false;
  /** Set while `stop()` waits: no new claims. */
  let halted = false;
  const idleWaiters: Array<() => void> = [];
  let poll: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;
  let listener: { close(): Promise<void> } | undefined;

  /** Hold claimed deliveries (their leases are renewed from now on) and queue them for sending. */
  function take(claimed: Held[]): void {
    for (const d of claimed) {
      policy.hold(d);
      leases.hold(d.token, d.id);
      queue.push(d.webhookId, d);
    }
    if (claimed.length > 0) queue.start();
  }

  /** A recorded delivery gives back its claim; a webhook dropping below its claim limit can be claimed for again. */
  function release(d: Held): void {
    leases.release(d.token, d.id);
    const belowLimit = policy.release(d);
    if (mayHaveMore) policy.wantShallow();
    if (belowLimit || mayHaveMore) void pump();
    else settleIfIdle();
  }

  /** Claim while there is room and something is due; one pump at a time, re-run when woken meanwhile. */
  function pump(): Promise<void> {
    if (pumping) {
      again = true;
      return pumping;
    }
    pumping = (async () => {
      do {
        again = false;
        while (!policy.full && !halted) {
          const claimed = await policy.claimRound(take);
          // Claim again until a round comes back empty: every webhook with due work is then either emptied or
          // holding its limit, and is claimed for again when it drains below it.
          mayHaveMore = policy.full;
          if (claimed === 0) break;
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
    if (policy.held === 0 && !pumping && !recorder.busy) for (const resolve of idleWaiters.splice(0)) resolve();
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
      policy.rewind();
      void pump();
    });
  }

  return {
    get running() {
      return running;
    },
    get totals() {
      return recorder.totals;
    },
    async start() {
      if (running) return;
      running = true;
      unsubscribe = db.onDeliveriesCommitted(wake);
      poll = setInterval(wake, pollMs);
      poll.unref();
      if (deps.listenUrl) {
        try {
          listener = await listenForDeliveries(deps.listenUrl, wake, log);
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
      // Claimed but not yet sent: give them back, so another process takes them now instead of when the lease
      // lapses. What is being sent finishes and is recorded.
      const waiting = queue.takeWaiting();
      if (waiting.length > 0) {
        const byToken = new Map<string, string[]>();
        for (const d of waiting) (byToken.get(d.token) ?? byToken.set(d.token, []).get(d.token)!).push(d.id);
        try {
          for (const [token, ids] of byToken) for (let i = 0; i < ids.length; i += 500) await releaseLeases(db, token, ids.slice(i, i + 500));
        } catch (err) {
          log('[feedback-service] giving back unsent claims failed; their leases will lapse and another process will take them', err);
        }
        for (const d of waiting) release(d);
      }
      await idle();
      halted = false;
    },
    async runDue() {
      const before = recorder.totals;
      mayHaveMore = true;
      policy.rewind();
      await pump();
      await idle();
      const after = recorder.totals;
      return { attempted: after.attempted - before.attempted, succeeded: after.succeeded - before.succeeded, failed: after.failed - before.failed };
    },
  };
}
