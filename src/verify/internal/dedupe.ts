/**
 * Where a receiver remembers what it has processed. One atomic operation: claim `id` for at least
 * `ttlSeconds`; true if this call claimed it, false if it was already claimed and not expired.
 */
export interface DedupeStore {
  claim(id: string, ttlSeconds: number): Promise<boolean> | boolean;
  /** Give a claim back (for example when processing failed and the retry should be handled). */
  release?(id: string): Promise<void> | void;
}

export interface MemoryDedupeStoreOptions {
  /** At most this many ids are kept; the oldest claims are dropped first. Default 100,000. */
  maxEntries?: number;
  /** Where time comes from (epoch ms); tests inject one. */
  now?: () => number;
}

/**
 * An in-process store with expiry and a size bound. Claims are atomic because JavaScript runs one
 * claim at a time. For several receiver processes use a shared store (examples/dedupe-postgres.ts, examples/dedupe-redis.ts).
 */
export function createMemoryDedupeStore(
  options: MemoryDedupeStoreOptions = {},
): DedupeStore & { readonly size: number } {
  const maxEntries = options.maxEntries ?? 100_000;
  const now = options.now ?? Date.now;
  // Insertion order = claim order, so the first entries are the oldest.
  const expiries = new Map<string, number>();
  let claims = 0;
  /** Drop expired entries from the old end, and the oldest ones beyond the bound. */
  function sweep(t: number): void {
    for (const [k, e] of expiries) {
      if (e > t && expiries.size < maxEntries) break;
      expiries.delete(k);
    }
  }
  return {
    claim(id, ttlSeconds) {
      const t = now();
      const expiry = expiries.get(id);
      if (expiry !== undefined) {
        if (expiry > t) return false;
        expiries.delete(id);
      }
      // Sweeping on every claim costs an iterator per claim; every 64th claim keeps memory just as bounded.
      if ((++claims & 63) === 0 || expiries.size >= maxEntries) sweep(t);
      expiries.set(id, t + ttlSeconds * 1000);
      return true;
    },
    release(id) {
      expiries.delete(id);
    },
    get size() {
      return expiries.size;
    },
  };
}
