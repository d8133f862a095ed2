import type { SecretBox } from '../secrets/index.js';
import type { Database } from '../store/index.js';
import { type AttemptReport, attemptDelivery, createSecretOpener, type Held, type Result } from './attempt.js';
import { type ClaimPolicy, createClaimPolicy } from './claims.js';
import type { Lane, LaneHost } from './lane.js';
import { createLeases, giveBackClaims, type Leases } from './leases.js';
import { Recorder, type RunSummary } from './recorder.js';
import { SendQueue } from './send-queue.js';
import type { Sender } from './sender.js';

export interface WebhookLaneDeps {
  db: Database;
  clock: () => Date;
  sender: Sender;
  /** Opens the webhooks' sealed signing secrets. */
  secrets: SecretBox;
  onAttempt?: (attempt: AttemptReport) => void;
  log: (message: string, error?: unknown) => void;
}

/** What the metrics and the attempt log line hear of one attempt. */
function reportOf(d: Held, result: Result): AttemptReport | null {
  const a = result.attempt;
  if (!a) return null;
  return {
    webhookId: d.webhookId,
    deliveryId: d.id,
    eventType: d.eventType,
    attempt: a.number,
    ok: a.ok,
    statusCode: a.statusCode,
    durationMs: a.durationMs,
    error: a.error,
    final: a.ok || a.nextAt === null,
  };
}

/**
 * Webhook deliveries as a lane of the scheduler:
 *
 *   pending (in the database) --claim--> held: leased to this process, lease renewed while held (leases.ts)
 *     --> queued for its webhook (send-queue.ts) --> sending: at most 8 per webhook, 64 in all (attempt.ts)
 *     --> recorded with other outcomes in one batch (recorder.ts): the outcome is written only where the lease is
 *         still ours; the 50th consecutive failure disables the webhook and writes its admins' notice (disable.ts)
 *     --> released: the claim given back.
 *
 * Which deliveries to claim, and how far ahead per webhook, is the claim policy's (claims.ts).
 */
export class WebhookLane implements Lane {
  readonly kind = 'webhooks' as const;
  mayHaveMore = false;
  readonly #deps: WebhookLaneDeps;
  readonly #host: LaneHost;
  readonly #policy: ClaimPolicy;
  readonly #leases: Leases;
  readonly #recorder: Recorder;
  readonly #queue: SendQueue<Held, Result>;

  constructor(
    deps: WebhookLaneDeps,
    options: { concurrency: number; perWebhook: number; leaseMs: number },
    host: LaneHost,
  ) {
    const { db, clock, log } = deps;
    this.#deps = deps;
    this.#host = host;
    this.#policy = createClaimPolicy({
      db,
      clock,
      leaseMs: options.leaseMs,
      concurrency: options.concurrency,
      perWebhook: options.perWebhook,
    });
    this.#leases = createLeases(db, 'delivery', clock, options.leaseMs, log);
    this.#recorder = new Recorder({ db, clock, onSettle: host.settle });
    const signingSecret = createSecretOpener(deps.secrets);
    this.#queue = new SendQueue<Held, Result>({
      concurrency: options.concurrency,
      perKey: options.perWebhook,
      attempt: (d) => this.#attempt(d, signingSecret),
      done: (webhookId, d, result) => this.#done(webhookId, d, result),
    });
  }

  get full(): boolean {
    return this.#policy.full;
  }
  get held(): number {
    return this.#policy.held;
  }
  get busy(): boolean {
    return this.#recorder.busy;
  }
  get totals(): Readonly<RunSummary> {
    return this.#recorder.totals;
  }

  claimRound(): Promise<number> {
    return this.#policy.claimRound((claimed) => this.#take(claimed));
  }

  rewind(): void {
    this.#policy.rewind();
  }

  /** Claimed but not yet sent: given back, so another process takes them now instead of when the lease lapses. What is being sent finishes and is recorded. */
  async giveBack(): Promise<void> {
    const waiting = this.#queue.takeWaiting();
    if (waiting.length === 0) return;
    try {
      await giveBackClaims(this.#deps.db, 'delivery', waiting);
    } catch (err) {
      this.#deps.log(
        '[feedback-service] giving back unsent claims failed; their leases will lapse and another process will take them',
        err,
      );
    }
    for (const d of waiting) this.#release(d);
  }

  async #attempt(d: Held, signingSecret: (d: Held) => string): Promise<Result> {
    try {
      const result = await attemptDelivery(d, this.#deps.sender, this.#deps.clock, signingSecret);
      const report = this.#deps.onAttempt && reportOf(d, result);
      if (report) this.#deps.onAttempt!(report);
      return result;
    } catch (err) {
      this.#deps.log('[feedback-service] delivery attempt crashed', err);
      return { id: d.id, token: d.token, webhookId: d.webhookId, attempt: null };
    }
  }

  #done(webhookId: string, d: Held, result: Result): void {
    if (this.#policy.observe(webhookId, result.attempt)) this.#host.pump(); // it may hold more now
    void this.#recorder
      .record(result)
      .catch((err) =>
        this.#deps.log(
          '[feedback-service] recording a delivery failed; its lease will expire and it will be retried',
          err,
        ),
      )
      .finally(() => this.#release(d));
  }

  /** Hold claimed deliveries (their leases are renewed from now on) and queue them for sending. */
  #take(claimed: Held[]): void {
    for (const d of claimed) {
      this.#policy.hold(d);
      this.#leases.hold(d.token, d.id);
      this.#queue.push(d.webhookId, d);
    }
    if (claimed.length > 0) this.#queue.start();
  }

  /** A recorded delivery gives back its claim; a webhook dropping below its claim limit can be claimed for again. */
  #release(d: Held): void {
    this.#leases.release(d.token, d.id);
    const belowLimit = this.#policy.release(d);
    if (this.mayHaveMore) this.#policy.wantShallow();
    if (belowLimit || this.mayHaveMore) this.#host.pump();
    else this.#host.settle();
  }
}

export function createWebhookLane(
  deps: WebhookLaneDeps,
  options: { concurrency: number; perWebhook: number; leaseMs: number },
  host: LaneHost,
): WebhookLane {
  return new WebhookLane(deps, options, host);
}
