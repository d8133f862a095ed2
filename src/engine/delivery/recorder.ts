import { type Database, deliveries, deliveryOutcomes, leases } from '../store/index.js';
import type { Result } from './attempt.js';
import { Batcher } from './batcher.js';
import { disableAfterFailures } from './disable.js';

type OutcomeRow = deliveryOutcomes.OutcomeRow;

/** Outcomes written per statement at most; a batch goes once this many wait, or this long after the first. */
const RECORD_BATCH = 500;
const RECORD_BATCH_MIN = 250;
const RECORD_DELAY_MS = 20;

export interface RunSummary {
  /** Attempts made (each recorded in the delivery log). */
  attempted: number;
  succeeded: number;
  failed: number;
}

/** An attempted outcome as the record statement takes it (one JSON row). */
function outcomeRow(db: Database, r: Result, seq: number): OutcomeRow {
  const a = r.attempt!;
  const time = (d: Date | null) => (d === null ? null : db.dialect.jsonTime(d));
  return {
    id: r.id,
    token: r.token,
    webhook_id: r.webhookId,
    seq,
    number: a.number,
    ok: a.ok ? 1 : 0,
    at: time(a.attemptedAt)!,
    next_at: time(a.nextAt),
    status_code: a.statusCode,
    error: a.error?.slice(0, 500) ?? null,
    duration_ms: a.durationMs,
    response_body: a.responseBody,
  };
}

/**
 * Writes delivery outcomes in batches (batcher.ts: 250 waiting or 20 ms after the first, at most 500), so a busy
 * scheduler writes a few large statements rather than many small ones (each statement costs about as much as a
 * delivery's own request). Only the claim is held meanwhile. PostgreSQL writes two batches at once (they meet only on
 * the webhook row); SQLite one.
 */
export class Recorder {
  readonly #db: Database;
  readonly #clock: () => Date;
  readonly #batcher: Batcher<Result>;
  readonly #totals: RunSummary = { attempted: 0, succeeded: 0, failed: 0 };

  /** `onSettle`: a batch finished; the loop checks whether it is idle. */
  constructor(deps: { db: Database; clock: () => Date; onSettle: () => void }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    const limits = {
      max: RECORD_BATCH,
      min: RECORD_BATCH_MIN,
      delayMs: RECORD_DELAY_MS,
      writers: deps.db.dialect.modifyingCtes ? 2 : 1,
    };
    this.#batcher = new Batcher(limits, (batch) => this.#write(batch), deps.onSettle);
  }

  /** Record one outcome; resolves once it is written (or rejects when its batch could not be). */
  record(result: Result): Promise<void> {
    return this.#batcher.add(result);
  }

  /** Whether a batch is being written. */
  get busy(): boolean {
    return this.#batcher.busy;
  }

  /** Attempts recorded since the recorder was created. */
  get totals(): Readonly<RunSummary> {
    return { ...this.#totals };
  }

  /**
   * One batch of outcomes; a webhook at its 50th consecutive failure is disabled (with its admins' notice). Only
   * deliveries whose lease this process still holds are recorded.
   */
  async #write(results: Result[]): Promise<void> {
    const db = this.#db;
    const now = this.#clock();
    const attempted = results.filter((r) => r.attempt !== null);
    const { recorded, over, disabledMeanwhile } = await deliveryOutcomes.recordOutcomes(
      db,
      attempted.map((r, seq) => outcomeRow(db, r, seq)),
    );
    for (const r of results) if (r.attempt === null) await leases.failUnattempted(db, r.id, r.token, now);
    for (const webhookId of disabledMeanwhile) await deliveries.endPending(db, webhookId, now);
    for (const webhookId of over) await disableAfterFailures(db, webhookId, now);
    for (const r of attempted) {
      if (!recorded.has(r.id)) continue;
      this.#totals.attempted++;
      if (r.attempt!.ok) this.#totals.succeeded++;
      else this.#totals.failed++;
    }
  }
}

export function createRecorder(deps: { db: Database; clock: () => Date; onSettle: () => void }): Recorder {
  return new Recorder(deps);
}
