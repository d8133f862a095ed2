// What the benchmarks share: timing a call many times, and loading rows fast.
import type { Engine } from '../src/engine/index.js';
import { newId } from '../src/engine/shared/ids.js';

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

/** A post as the benchmarks load them in bulk: what differs from one to another (the rest: approved, no comments). */
export interface BulkPost {
  id: string;
  organizationId: string;
  boardId: string;
  title: string;
  slug: string;
  bodyText?: string;
  status: string;
  voteCount: number;
  /** Its creation (and last change), as the database binds a time (`ts`). */
  at: unknown;
}

const POST_COLUMNS = [
  'id',
  'organization_id',
  'board_id',
  'title',
  'slug',
  'body',
  'body_text',
  'status',
  'moderation_status',
  'comment_count',
  'vote_count',
  'created_at',
  'updated_at',
];

/** `count` posts, `post(i)` each, in multi-row inserts. */
export const insertPosts = (engine: Engine, count: number, post: (i: number) => BulkPost) =>
  insertMany(
    engine,
    'post',
    POST_COLUMNS,
    (i) => {
      const p = post(i);
      return [
        p.id,
        p.organizationId,
        p.boardId,
        p.title,
        p.slug,
        '',
        p.bodyText ?? '',
        p.status,
        'approved',
        0,
        p.voteCount,
        p.at,
        p.at,
      ];
    },
    count,
  );

/**
 * A thread of `count` comments on a post, an hour apart, through the comments table's own insert (`comments`: the
 * store module of the code measured): every fifth starts a branch, the others reply down it; `names` people take turns.
 */
export async function insertThread(
  engine: Engine,
  comments: { insert(tx: never, row: never): Promise<unknown> },
  organizationId: string,
  postId: string,
  count: number,
  names: number,
): Promise<void> {
  await engine.db.transaction(async (tx) => {
    let parent: string | null = null;
    for (let i = 0; i < count; i++) {
      const id = newId('cmt');
      await comments.insert(
        tx as never,
        {
          id,
          organizationId,
          postId,
          parentId: i % 5 === 0 ? null : parent,
          authorUserId: null,
          authorName: `Person ${i % names}`,
          emailHash: null,
          contactId: null,
          bodyText: `Comment ${i}: I agree, and here is a sentence or two about how I would use it.`,
          createdAt: new Date(Date.now() - (count - i) * 3600_000),
        } as never,
      );
      if (i % 5 === 0) parent = id;
    }
  });
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

/**
 * An A/B in one process: `rounds` turns each of the old and the new side (the side that goes first alternating, so
 * neither always runs warm), each turn timed by `turn`; the medians.
 */
export async function takingTurns(
  rounds: number,
  turn: (side: 'old' | 'new') => Promise<number>,
): Promise<{ old: number; new: number }> {
  const times = { old: [] as number[], new: [] as number[] };
  for (let round = 0; round < rounds; round++)
    for (const side of round % 2 ? (['old', 'new'] as const) : (['new', 'old'] as const))
      times[side].push(await turn(side));
  const median = (x: number[]) => x.sort((p, q) => p - q)[Math.floor(x.length / 2)]!;
  return { old: median(times.old), new: median(times.new) };
}
