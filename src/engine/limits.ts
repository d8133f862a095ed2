/** The budget of one key in the current window. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** When the window ends and the budget refills (epoch ms). */
  resetAt: number;
  allowed: boolean;
}

const WINDOW_MS = 60_000;

/**
 * Per-key fixed one-minute windows aligned to the clock minute, kept in process memory.
 * Several server processes each count their own requests (docs/api.md, "Rate limits").
 */
export function createRateLimiter(clock: () => Date) {
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
    /** The key's budget without counting a request. */
    peek(keyId: string, limit: number): RateLimitState {
      const now = clock().getTime();
      const w = window(keyId, now);
      return { limit, remaining: Math.max(0, limit - w.count), resetAt: w.start + WINDOW_MS, allowed: w.count < limit };
    },
    reset(): void {
      windows.clear();
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
