// What the benchmarks share: timing a call many times, and loading rows fast.
import type { Engine } from '../src/engine/index.js';

export const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
/** A time in ms as the tables print it: two decimals under 10, one above. */
export const f = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(1));

/** `fn(i)` `runs` times after `warmups` calls (JIT, statement caches, database pages): p50 and p95 in ms. */
export async function timed(
  fn: (i: number) => Promise<unknown>,
  runs: number,
  warmups = 10,
): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < Math.min(warmups, runs); i++) await fn(i);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn(i);
    times.push(performance.now() - t);
  }
  return { p50: quantile(times, 0.5), p95: quantile(times, 0.95) };
}

/** Multi-row inserts of `rows` (each a list of values) into `table`, `per` rows a statement, 20 statements a transaction. */
export async function insertMany(
  engine: Engine,
  table: string,
  columns: string[],
  rows: (i: number) => unknown[],
  count: number,
  per = 500,
) {
  const row = `(${columns.map(() => '?').join(', ')})`;
  for (let done = 0; done < count; done += per * 20) {
    await engine.db.transaction(async (tx) => {
      for (let start = done; start < Math.min(count, done + per * 20); start += per) {
        const n = Math.min(per, count - start);
        await tx.run(
          `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${Array(n).fill(row).join(', ')}`,
          Array.from({ length: n }, (_, k) => rows(start + k)).flat(),
        );
      }
    });
  }
}
