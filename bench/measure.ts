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

/**
 * A first visit's bytes, as a browser that takes brotli gets them: the page (compressed by the server) and every
 * stylesheet and script it loads (precompressed assets). What a visitor downloads before the page is whole.
 */
export async function firstVisit(
  app: { fetch(request: Request): Response | Promise<Response> },
  path: string,
  headers: Record<string, string> = {},
): Promise<{ total: number; parts: Array<[string, number]> }> {
  const get = async (url: string) => {
    const res = await app.fetch(
      new Request(`http://bench.test${url}`, { headers: { 'accept-encoding': 'br, gzip', ...headers } }),
    );
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    return { bytes: (await res.arrayBuffer()).byteLength, encoding: res.headers.get('content-encoding') };
  };
  const page = await app.fetch(new Request(`http://bench.test${path}`, { headers }));
  const html = await page.text();
  const assets = [...html.matchAll(/<(?:link rel="stylesheet" href|script src)="([^"]+)"/g)].map((m) =>
    m[1]!.replaceAll('&amp;', '&'),
  );
  const parts: Array<[string, number]> = [];
  for (const url of [path, ...assets]) {
    const got = await get(url);
    parts.push([`${url.replace(/^.*\//, '') || 'page'} (${got.encoding ?? 'identity'})`, got.bytes]);
  }
  return { total: parts.reduce((n, [, b]) => n + b, 0), parts };
}
