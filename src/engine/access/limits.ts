import { FeedbackError } from '../shared/index.js';
import { type Database, rateLimits } from '../store/index.js';

/** The budget of one key in the current window. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** When the window ends and the budget refills (epoch ms). */
  resetAt: number;
  allowed: boolean;
}

const WINDOW_MS = 60_000;

/** The refusal of a request over its key's budget (429), with when the budget refills. */
export const rateLimited = (state: RateLimitState) =>
  new FeedbackError('ERR_RATE_LIMITED', `Rate limit of ${state.limit} requests per minute exceeded.`, {
    limit: state.limit,
    resetAt: new Date(state.resetAt).toISOString(),
  });

/** Counts requests against each key's budget: per-key fixed one-minute windows aligned to the clock minute. */
export interface RateLimiter {
  /** Count one request; synchronous where the count is in memory, so the common path takes no extra tick. */
  consume(keyId: string, limit: number): RateLimitState | Promise<RateLimitState>;
  close(): void;
}

/** The embedded default (SQLite, one process): windows in process memory. */
export function createRateLimiter(clock: () => Date): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();

  function window(keyId: string, now: number) {
    const start = now - (now % WINDOW_MS);
    let w = windows.get(keyId);
    if (!w || w.start !== start) {
      w = { start, count: 0 };
      windows.set(keyId, w);
      if (windows.size > 100_000) for (const [k, v] of windows) if (v.start !== start) windows.delete(k);
    }
    return w;
  }

  return {
    /** Count one request against the key's budget. */
    consume(keyId: string, limit: number): RateLimitState {
      const now = clock().getTime();
      const w = window(keyId, now);
      const allowed = w.count < limit;
      if (allowed) w.count++;
      return { limit, remaining: Math.max(0, limit - w.count), resetAt: w.start + WINDOW_MS, allowed };
    },
    close(): void {
      windows.clear();
    },
  };
}

/**
 * PostgreSQL (the scale path, several instances on one database): one budget per key across every instance, counted
 * by one upsert per request on an UNLOGGED table, so `whoami` and the `RateLimit-*` headers agree whichever instance
 * answers. Windows of past minutes are removed once a minute.
 */
export function createSharedRateLimiter(
  db: Database,
  clock: () => Date,
  log: (message: string, error?: unknown) => void,
): RateLimiter {
  let sweep: NodeJS.Timeout | undefined;
  return {
    async consume(keyId, limit) {
      const now = clock().getTime();
      const start = now - (now % WINDOW_MS);
      sweep ??= setInterval(() => {
        const t = clock().getTime();
        void rateLimits
          .removeBefore(db, t - (t % WINDOW_MS))
          .catch((err) => log('[feedback-service] removing past rate-limit windows failed', err));
      }, WINDOW_MS).unref();
      const count = await rateLimits.count(db, keyId, start);
      return { limit, remaining: Math.max(0, limit - count), resetAt: start + WINDOW_MS, allowed: count <= limit };
    },
    close() {
      clearInterval(sweep);
      sweep = undefined;
    },
  };
}
