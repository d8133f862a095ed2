import { deliveries, type Database } from '../store/index.js';
import type { Result } from './attempt.js';
import { disableAfterFailures } from './disable.js';
import { failUnattempted } from './sql/leases.js';
import { recordOutcomes, type OutcomeRow } from './sql/record.js';

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

/**
 * Writes outcomes in batches: a batch goes when `RECORD_BATCH_MIN` are waiting or `RECORD_DELAY_MS` after the first,
 * so a busy scheduler writes a few large statements rather than many small ones (each statement costs about as much as
 * a delivery's own request). Only the claim is held meanwhile. PostgreSQL writes two batches at once (they meet only on
 * the webhook row); SQLite one.
 */
export function createRecorder(deps: {
  db: Database;
  clock: () => Date;
  /** Called when a batch finishes: the loop checks whether it is idle. */
  onSettle: () => void;
}) {
  const { db, clock } = deps;
  const queue: Array<{ result: Result; done: (err?: unknown) => void }> = [];
  const writers = db.dialect.modifyingCtes ? 2 : 1;
  let writing = 0;
  let timer: NodeJS.Timeout | undefined;
  const totals: RunSummary = { attempted: 0, succeeded: 0, failed: 0 };

  function flush(): void {
    clearTimeout(timer);
    timer = undefined;
    if (writing < writers && queue.length > 0) void drain();
  }

  async function drain(): Promise<void> {
    writing++;
    while (queue.length > 0) {
      const batch = queue.splice(0, RECORD_BATCH);
      try {
        await write(batch.map((b) => b.result));
        for (const b of batch) b.done();
      } catch (err) {
        for (const b of batch) b.done(err);
      }
      if (queue.length > 0 && queue.length < RECORD_BATCH_MIN) {
        timer ??= setTimeout(flush, RECORD_DELAY_MS);
        break;
      }
    }
    writing--;
    deps.onSettle();
  }

  /**
   * One batch of outcomes; a webhook at its 50th consecutive failure is disabled (with its admins' notice). Only
   * deliveries whose lease this process still holds are recorded.
   */
  async function write(results: Result[]): Promise<void> {
    const now = clock();
    const attempted = results.filter((r) => r.attempt !== null);
    const time = (d: Date | null) => (d === null ? null : db.dialect.jsonTime(d));
    const rows: OutcomeRow[] = attempted.map((r, seq) => {
      const a = r.attempt!;
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
    });
    const { recorded, over, disabledMeanwhile } = await recordOutcomes(db, rows);
    for (const r of results) if (r.attempt === null) await failUnattempted(db, r.id, r.token, now);
    for (const webhookId of disabledMeanwhile) await deliveries.endPending(db, webhookId, now);
    for (const webhookId of over) await disableAfterFailures(db, webhookId, now);
    for (const r of attempted) {
      if (!recorded.has(r.id)) continue;
      totals.attempted++;
      if (r.attempt!.ok) totals.succeeded++;
      else totals.failed++;
    }
  }

  return {
    /** Record one outcome; resolves once it is written (or rejects when its batch could not be). */
    record(result: Result): Promise<void> {
      return new Promise((resolve, reject) => {
        queue.push({ result, done: (err) => (err ? reject(err) : resolve()) });
        if (queue.length >= RECORD_BATCH_MIN) flush();
        else timer ??= setTimeout(flush, RECORD_DELAY_MS);
      });
    },
    /** Whether a batch is being written. */
    get busy(): boolean {
      return writing > 0;
    },
    /** Attempts recorded since the recorder was created. */
    get totals(): Readonly<RunSummary> {
      return { ...totals };
    },
  };
}
export type Recorder = ReturnType<typeof createRecorder>;
