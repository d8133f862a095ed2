/**
 * The scheduler's loop, over its lanes: webhook deliveries (webhook-lane.ts), mail (mail-lane.ts) and the integrations'
 * jobs (integration-lane.ts). Each lane claims
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

import type { MailTransport } from '../mail/index.js';
import type { SecretBox } from '../secrets/index.js';
import type { Database, DeliveryKind } from '../store/index.js';
import type { AttemptReport } from './attempt.js';
import { IntegrationLane, type IntegrationRunner, type IntegrationSummary } from './integration-lane.js';
import { listenForDeliveries } from './listener.js';
import { LaneLoop } from './loop.js';
import type { Composer } from './mail-compose.js';
import { MailLane, type MailSummary } from './mail-lane.js';
import type { RunSummary as WebhookSummary } from './recorder.js';
import type { Sender } from './sender.js';
import { WebhookLane } from './webhook-lane.js';

export type { AttemptReport } from './attempt.js';
export type { IntegrationRunner, IntegrationSummary, JobResult } from './integration-lane.js';
export type { MailSummary } from './mail-lane.js';

/** What a run did: webhook delivery attempts, what the mail lane did, and the integrations' jobs. */
export interface RunSummary extends WebhookSummary {
  mail: MailSummary;
  integrations: IntegrationSummary;
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
  /** Does the integrations' jobs (Linear, GitHub, Slack calls and inbound webhooks). */
  integrations: IntegrationRunner;
  /** Housekeeping run every `choresMs` while running. */
  chores?: ReadonlyArray<() => Promise<unknown>>;
  /** Hears of every attempt (the server's attempt log line and metrics). */
  onAttempt?: (attempt: AttemptReport) => void;
  log: (message: string, error?: unknown) => void;
  /** PostgreSQL: the URL to LISTEN on for other processes' commits. */
  listen?: { url: string; connectMs: number };
}

/** The scheduler: its two lanes, the loop that drives them, the wake-ups (commits, NOTIFY, the poll) and the chores. */
class Scheduler implements DeliveryScheduler {
  readonly #deps: SchedulerDeps;
  readonly #pollMs: number;
  readonly #choresMs: number;
  readonly #webhooks: WebhookLane;
  readonly #mail: MailLane;
  readonly #integrations: IntegrationLane;
  readonly #loop: LaneLoop;
  #running = false;
  #timers: NodeJS.Timeout[] = [];
  #unsubscribe: (() => void) | undefined;
  #listener: { close(): Promise<void> } | undefined;

  constructor(deps: SchedulerDeps, options: SchedulerOptions) {
    this.#deps = deps;
    const leaseMs = options.leaseMs ?? 60_000;
    this.#pollMs = options.pollMs ?? 1000;
    this.#choresMs = options.choresMs ?? 60_000;
    const host = (lane: () => WebhookLane | MailLane | IntegrationLane) => ({
      pump: () => void this.#loop.want(lane()),
      settle: () => this.#loop.settleIfIdle(),
    });
    const perWebhook = options.perWebhookConcurrency ?? 8;
    this.#webhooks = new WebhookLane(
      deps,
      { concurrency: options.concurrency ?? 64, perWebhook, leaseMs },
      host(() => this.#webhooks),
    );
    const mail = { db: deps.db, clock: deps.clock, log: deps.log, ...deps.mail };
    this.#mail = new MailLane(
      mail,
      { connections: options.mailConnections ?? 4, leaseMs },
      host(() => this.#mail),
    );
    this.#integrations = new IntegrationLane(
      { db: deps.db, clock: deps.clock, runner: deps.integrations, log: deps.log },
      leaseMs,
      host(() => this.#integrations),
    );
    this.#loop = new LaneLoop([this.#webhooks, this.#mail, this.#integrations], deps.log);
  }

  get running(): boolean {
    return this.#running;
  }

  get totals(): Readonly<RunSummary> {
    return { ...this.#webhooks.totals, mail: this.#mail.totals, integrations: this.#integrations.totals };
  }

  async start(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    const wake = (kinds?: ReadonlySet<DeliveryKind>) => {
      if (this.#running) this.#loop.wake(kinds ?? null);
    };
    this.#unsubscribe = this.#deps.db.onDeliveriesCommitted(wake);
    this.#timers = [setInterval(() => wake(), this.#pollMs), setInterval(() => void this.runChores(), this.#choresMs)];
    for (const timer of this.#timers) timer.unref();
    const listen = this.#deps.listen;
    if (listen) this.#listener = await listenForDeliveries(listen.url, () => wake(), this.#deps.log, listen.connectMs);
    wake();
  }

  async stop(): Promise<void> {
    this.#running = false;
    for (const timer of this.#timers) clearInterval(timer);
    this.#timers = [];
    this.#unsubscribe?.();
    await this.#listener?.close();
    this.#listener = undefined;
    await this.#loop.halt();
  }

  async runDue(): Promise<RunSummary> {
    const before = this.totals;
    // What the run itself commits for another lane (a disabled webhook's notice to its admins) is due too: a stopped
    // scheduler hears of such commits only while this runs (a started one hears of every commit).
    const hear = this.#running ? undefined : this.#deps.db.onDeliveriesCommitted((kinds) => this.#loop.claimNow(kinds));
    try {
      await this.#loop.drain();
    } finally {
      hear?.();
    }
    const after = this.totals;
    const m = after.mail;
    const i = after.integrations;
    return {
      attempted: after.attempted - before.attempted,
      succeeded: after.succeeded - before.succeeded,
      failed: after.failed - before.failed,
      mail: {
        sent: m.sent - before.mail.sent,
        retried: m.retried - before.mail.retried,
        failed: m.failed - before.mail.failed,
        unconfirmed: m.unconfirmed - before.mail.unconfirmed,
        cancelled: m.cancelled - before.mail.cancelled,
      },
      integrations: {
        done: i.done - before.integrations.done,
        retried: i.retried - before.integrations.retried,
        failed: i.failed - before.integrations.failed,
      },
    };
  }

  async runChores(): Promise<void> {
    for (const chore of this.#deps.chores ?? []) {
      try {
        await chore();
      } catch (err) {
        this.#deps.log('[feedback-service] a scheduled chore failed; it runs again at the next interval', err);
      }
    }
  }
}

export function createScheduler(deps: SchedulerDeps, options: SchedulerOptions = {}): DeliveryScheduler {
  return new Scheduler(deps, options);
}
