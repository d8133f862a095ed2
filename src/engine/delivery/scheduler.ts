/**
 * The scheduler's loop, over its lanes: webhook deliveries (webhook-lane.ts) and mail (mail-lane.ts). Each lane claims
 * due rows of its table with leases, holds them (leases renewed), sends them through its send queue and records the
 * outcome only where the lease is still its own; this loop decides when they claim.
 *
 * The loop is either idle or pumping. A wake rewinds lanes and pumps: a local commit wakes the lanes of what it wrote
 * (an identify's event, the webhook lane; a status change's mail, the mail lane too), NOTIFY from another process, the
 * poll and `runDue` wake every lane. Pumping, each lane that wants to claims rounds while it holds fewer than its limit
 * and its last round found something. A release makes its lane want to claim again when the lane had held its limit
 * (`mayHaveMore`) or a webhook dropped below its own.
 * `stop()` halts new claims, gives back what is claimed but not yet being sent, and resolves once nothing is held,
 * claiming, being recorded or being notified. A process that dies mid-send loses nothing: when its leases expire, any
 * process claims the rows again (and mail handed over before it died is never sent twice: mail-lane.ts).
 */
import { type Database, type DeliveryKind } from '../store/index.js';
import { type SecretBox } from '../secrets/index.js';
import { type MailTransport } from '../mail/index.js';
import type { AttemptReport } from './attempt.js';
import type { Lane } from './lane.js';
import { listenForDeliveries } from './listener.js';
import type { Composer } from './mail-compose.js';
import { createMailLane, type MailSummary } from './mail-lane.js';
import type { RunSummary as WebhookSummary } from './recorder.js';
import type { Sender } from './sender.js';
import { createWebhookLane } from './webhook-lane.js';

export type { MailSummary } from './mail-lane.js';
export type { AttemptReport } from './attempt.js';

/** What a run did: webhook delivery attempts, and what the mail lane did. */
export interface RunSummary extends WebhookSummary {
  mail: MailSummary;
}

export interface SchedulerOptions {
  /** Requests in flight, across all webhooks (64). */
  concurrency?: number;
  /** Requests in flight to one webhook (8): a slow receiver holds at most this many of the slots. */
  perWebhookConcurrency?: number;
  /** How long a claim holds a delivery (60 s); renewed every third of it while held, so only a dead process's claims lapse. */
  leaseMs?: number;
  /** The fallback poll, for retries coming due and leases of dead processes expiring (1 s). */
  pollMs?: number;
  /** SMTP connections the mail lane sends over at once (4). */
  mailConnections?: number;
  /** How often the chores run while the scheduler runs: the outbox's retention, erasures' redactions (60 s). */
  choresMs?: number;
}

/** The delivery scheduler: claims due webhook deliveries and mail, sends them, records the outcome. */
export interface DeliveryScheduler {
  /** Start working: wake on local commits, on NOTIFY from other processes (PostgreSQL), and on a poll. */
  start(): Promise<void>;
  /** Stop claiming; resolves when every claimed delivery and message is sent and recorded. */
  stop(): Promise<void>;
  /** Claim and send everything due now (by the engine's clock), and resolve once all of it is recorded. */
  runDue(): Promise<RunSummary>;
  /** Run the chores now (the outbox's retention, erasures' redactions). */
  runChores(): Promise<void>;
  readonly running: boolean;
  /** What this scheduler recorded since it was created (for metrics). */
  readonly totals: Readonly<RunSummary>;
}

export interface SchedulerDeps {
  db: Database;
  clock: () => Date;
  sender: Sender;
  /** Opens the webhooks' sealed signing secrets. */
  secrets: SecretBox;
  /** Where notification mail goes, and how it is put into words. */
  mail: { transport: MailTransport; compose: Composer };
  /** Housekeeping run every `choresMs` while running. */
  chores?: ReadonlyArray<() => Promise<unknown>>;
  /** Hears of every attempt (the server's attempt log line and metrics). */
  onAttempt?: (attempt: AttemptReport) => void;
  log: (message: string, error?: unknown) => void;
  /** PostgreSQL: the URL to LISTEN on for other processes' commits. */
  listen?: { url: string; connectMs: number };
}

export function createScheduler(deps: SchedulerDeps, options: SchedulerOptions = {}): DeliveryScheduler {
  const { db, log } = deps;
  const leaseMs = options.leaseMs ?? 60_000;
  const pollMs = options.pollMs ?? 1000;
  const choresMs = options.choresMs ?? 60_000;
  const settle = () => settleIfIdle();
  const webhooks = createWebhookLane(
    deps,
    { concurrency: options.concurrency ?? 64, perWebhook: options.perWebhookConcurrency ?? 8, leaseMs },
    { pump: () => void want(webhooks), settle },
  );
  const mail = createMailLane({ db, clock: deps.clock, log, ...deps.mail }, { connections: options.mailConnections ?? 4, leaseMs }, { pump: () => void want(mail), settle });
  const lanes: Lane[] = [webhooks, mail];

  let running = false;
  let pumping: Promise<void> | null = null;
  /** The lanes to claim in at the next round. */
  const wanted = new Set<Lane>();
  /** The kinds of the wake queued for the next turn (every lane: null). */
  let wakeKinds: Set<DeliveryKind> | null | undefined;
  /** Set while `stop()` waits: no new claims. */
  let halted = false;
  const idleWaiters: Array<() => void> = [];
  let poll: NodeJS.Timeout | undefined;
  let choreTimer: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;
  let listener: { close(): Promise<void> } | undefined;

  /** A lane claims while there is room and something is due. */
  async function claimWhileRoom(lane: Lane): Promise<void> {
    while (!lane.full && !halted) {
      const claimed = await lane.claimRound();
      // Claim again until a round comes back empty: what is due is then claimed, or the lane is at its limit and is
      // claimed for again as releases make room.
      lane.mayHaveMore = lane.full;
      if (claimed === 0) break;
    }
  }

  function want(lane: Lane): Promise<void> {
    wanted.add(lane);
    return pump();
  }

  /** Claim in the lanes that want it, all at once; one pump at a time, which takes in what is wanted meanwhile. */
  function pump(): Promise<void> {
    if (pumping) return pumping;
    pumping = (async () => {
      while (wanted.size > 0) {
        const round = [...wanted];
        wanted.clear();
        const results = await Promise.allSettled(round.map(claimWhileRoom));
        results.forEach((r, i) => {
          if (r.status === 'rejected') log(`[feedback-service] claiming ${round[i]!.kind} failed; retrying at the next poll`, r.reason);
        });
      }
    })().finally(() => {
      pumping = null;
      if (wanted.size > 0) void pump();
      settleIfIdle();
    });
    return pumping;
  }

  function settleIfIdle(): void {
    if (!pumping && lanes.every((lane) => lane.held === 0 && !lane.busy)) for (const resolve of idleWaiters.splice(0)) resolve();
  }

  function idle(): Promise<void> {
    return new Promise((resolve) => {
      idleWaiters.push(resolve);
      settleIfIdle();
    });
  }

  /** Claim from the start again in these lanes (all of them by default). */
  function rewind(only: ReadonlySet<DeliveryKind> | null = null): void {
    for (const lane of lanes) {
      if (only && !only.has(lane.kind)) continue;
      lane.mayHaveMore = true;
      lane.rewind();
      wanted.add(lane);
    }
  }

  /** Wake the lanes of these kinds (every lane: null); wakes in the same tick share one claim. */
  function wake(kinds: ReadonlySet<DeliveryKind> | null = null): void {
    if (!running) return;
    const queued = wakeKinds !== undefined;
    wakeKinds = kinds === null || wakeKinds === null ? null : new Set([...(wakeKinds ?? []), ...kinds]);
    if (queued) return;
    setImmediate(() => {
      const kindsNow = wakeKinds ?? null;
      wakeKinds = undefined;
      rewind(kindsNow);
      void pump();
    });
  }

  async function runChores(): Promise<void> {
    for (const chore of deps.chores ?? []) {
      try {
        await chore();
      } catch (err) {
        log('[feedback-service] a scheduled chore failed; it runs again at the next interval', err);
      }
    }
  }

  return {
    get running() {
      return running;
    },
    get totals() {
      return { ...webhooks.totals, mail: mail.totals };
    },
    async start() {
      if (running) return;
      running = true;
      unsubscribe = db.onDeliveriesCommitted(wake);
      poll = setInterval(() => wake(), pollMs);
      poll.unref();
      choreTimer = setInterval(() => void runChores(), choresMs);
      choreTimer.unref();
      if (deps.listen) listener = await listenForDeliveries(deps.listen.url, () => wake(), log, deps.listen.connectMs);
      wake();
    },
    async stop() {
      running = false;
      clearInterval(poll);
      clearInterval(choreTimer);
      unsubscribe?.();
      await listener?.close();
      listener = undefined;
      halted = true;
      // Claimed but not yet sent: given back, so another process takes them now. What is being sent finishes.
      await Promise.all(lanes.map((lane) => lane.giveBack()));
      await idle();
      halted = false;
    },
    async runDue() {
      const before = { ...webhooks.totals, mail: mail.totals };
      // What the run itself commits for another lane (a disabled webhook's notice to its admins) is due too: a stopped
      // scheduler hears of such commits only while this runs (a started one hears of every commit).
      const hear = running ? undefined : db.onDeliveriesCommitted((kinds) => {
        rewind(kinds);
        void pump();
      });
      try {
        rewind();
        await pump();
        await idle();
      } finally {
        hear?.();
      }
      const w = webhooks.totals;
      const m = mail.totals;
      return {
        attempted: w.attempted - before.attempted,
        succeeded: w.succeeded - before.succeeded,
        failed: w.failed - before.failed,
        mail: { sent: m.sent - before.mail.sent, retried: m.retried - before.mail.retried, failed: m.failed - before.mail.failed, unconfirmed: m.unconfirmed - before.mail.unconfirmed },
      };
    },
    runChores,
  };
}
