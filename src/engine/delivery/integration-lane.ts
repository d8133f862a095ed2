import { randomBytes } from 'node:crypto';
import { type Database, integrationJobs } from '../store/index.js';
import type { Lane, LaneHost } from './lane.js';
import { createLeases, giveBackClaims, type Leases } from './leases.js';
import { SendQueue } from './send-queue.js';

/** The waits before a job's second to seventh attempts: a service down for hours still gets the call. */
export const INTEGRATION_RETRY_SCHEDULE_MS = [
  10_000,
  60_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  6 * 3_600_000,
] as const;

/** How a job ended this time: done (its effects committed with its success), or failed, to retry or not. */
export type JobResult = { ok: true } | { ok: false; error: string; retry: boolean; retryAfterMs: number | null };

/** What does the jobs: the integrations concept (engine/integrations/runner.ts). */
export interface IntegrationRunner {
  /**
   * Do one job claimed under `token`. On success the runner commits the job's effects with `integrationJobs.succeed`
   * in one transaction, so a job whose lease was lost meanwhile changes nothing.
   */
  run(job: integrationJobs.ClaimedJob, token: string): Promise<JobResult>;
}

/** What the integration lane did: jobs done, tried again later, failed for good. */
export interface IntegrationSummary {
  done: number;
  retried: number;
  failed: number;
}

interface Held {
  token: string;
  job: integrationJobs.ClaimedJob;
}

/**
 * The integrations' outbox as a lane of the scheduler: due jobs claimed under a lease (the claim counts the attempt
 * begun, so an attempt after a crash knows one may have reached the service), done by the runner at most 16 at a time
 * and one per connection (in claim order), then tried again on the schedule (or when the service's `Retry-After` says, if later), or
 * failed for good after the last attempt.
 */
export class IntegrationLane implements Lane {
  readonly kind = 'integrations' as const;
  mayHaveMore = false;
  readonly #db: Database;
  readonly #clock: () => Date;
  readonly #runner: IntegrationRunner;
  readonly #log: (message: string, error?: unknown) => void;
  readonly #host: LaneHost;
  readonly #leaseMs: number;
  readonly #leases: Leases;
  readonly #queue: SendQueue<Held, JobResult>;
  readonly #totals: IntegrationSummary = { done: 0, retried: 0, failed: 0 };
  readonly #limit = 64;
  #held = 0;
  #recording = 0;

  constructor(
    deps: { db: Database; clock: () => Date; runner: IntegrationRunner; log: (m: string, e?: unknown) => void },
    leaseMs: number,
    host: LaneHost,
  ) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#runner = deps.runner;
    this.#log = deps.log;
    this.#host = host;
    this.#leaseMs = leaseMs;
    this.#leases = createLeases(deps.db, 'integration_job', deps.clock, leaseMs, deps.log);
    this.#queue = new SendQueue<Held, JobResult>({
      concurrency: 16,
      // One call at a time per connection: its notices reach the channel in the order of their events.
      perKey: 1,
      attempt: (h) => this.#attempt(h),
      done: (_key, h, result) => this.#done(h, result),
    });
  }

  get full(): boolean {
    return this.#held >= this.#limit;
  }
  get held(): number {
    return this.#held;
  }
  get busy(): boolean {
    return this.#recording > 0;
  }
  get totals(): Readonly<IntegrationSummary> {
    return { ...this.#totals };
  }
  rewind(): void {}

  async claimRound(): Promise<number> {
    const now = this.#clock();
    const token = randomBytes(12).toString('hex');
    const jobs = await integrationJobs.claim(this.#db, {
      now,
      token,
      leaseUntil: new Date(now.getTime() + this.#leaseMs),
      limit: this.#limit - this.#held,
    });
    for (const job of jobs) {
      this.#held++;
      this.#leases.hold(token, job.id);
      this.#queue.push(job.integrationId, { token, job });
    }
    if (jobs.length > 0) this.#queue.start();
    return jobs.length;
  }

  async giveBack(): Promise<void> {
    const waiting = this.#queue.takeWaiting();
    if (waiting.length === 0) return;
    try {
      await giveBackClaims(
        this.#db,
        'integration_job',
        waiting.map((h) => ({ token: h.token, id: h.job.id })),
      );
    } catch (err) {
      this.#log('[feedback-service] giving back integration jobs failed; their leases will lapse', err);
    }
    for (const h of waiting) this.#release(h);
  }

  async #attempt(h: Held): Promise<JobResult> {
    try {
      return await this.#runner.run(h.job, h.token);
    } catch (err) {
      this.#log(`[feedback-service] integration job ${h.job.id} (${h.job.kind}) failed; it will be retried`, err);
      return { ok: false, error: (err as Error).message, retry: true, retryAfterMs: null };
    }
  }

  #done(h: Held, result: JobResult): void {
    this.#recording++;
    void this.#record(h, result)
      .catch((err) => this.#log('[feedback-service] recording an integration job failed; its lease will lapse', err))
      .finally(() => {
        this.#recording--;
        this.#release(h);
      });
  }

  async #record({ token, job }: Held, result: JobResult): Promise<void> {
    if (result.ok) {
      this.#totals.done++;
      return;
    }
    const now = this.#clock();
    const wait = result.retry ? INTEGRATION_RETRY_SCHEDULE_MS[job.attemptCount - 1] : undefined;
    if (wait === undefined) this.#totals.failed++;
    else this.#totals.retried++;
    const next = wait === undefined ? null : new Date(now.getTime() + Math.max(wait, result.retryAfterMs ?? 0));
    await integrationJobs.requeue(this.#db, job.id, token, result.error, next, now);
  }

  #release(h: Held): void {
    this.#leases.release(h.token, h.job.id);
    this.#held--;
    if (this.mayHaveMore && this.#held <= this.#limit / 2) this.#host.pump();
    else this.#host.settle();
  }
}
