// npm run bench (forgiving search part, issue 52): on the search benchmark's fixture (bench/search.ts: made-up words,
// 10 boards), right after a bulk load and with no ANALYZE by the benchmark, on SQLite and PostgreSQL:
// - the same queries as the search benchmark, a workspace forgiving them (English stems) against one that does not
//   (stems `none`), turn about in rounds of 10 queries: their ratio;
// - the same queries with one typo in the first word (two letters swapped): forgiven, found, and their time;
// - a one-word query of a word in about one post of eight: a board (the portal) and the workspace (the console);
// - "similar posts" for a title being typed (a post's title, its last word cut to 3 letters).
// BENCH_FORGIVE_SIZES (default 100000; 1000000 takes a while). Writes its section to docs/benchmarks.md.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, type Engine } from '../src/engine/index.js';
import { search as searchStore } from '../src/engine/store/index.js';
import { dropPg, freshPg } from './databases.js';
import { notes, writeSection } from './doc.js';
import { f, quantile } from './measure.js';
import { BOARDS, bodyOf, queriesFor, seedPosts, titleOf } from './search-fixture.js';

const SIZES = (process.env.BENCH_FORGIVE_SIZES ?? '100000').split(',').filter(Boolean).map(Number);
const DATABASES = (process.env.BENCH_FORGIVE_DATABASES ?? 'sqlite,postgresql').split(',');
const ROUNDS = 20;

/** The same with the first word's second and third letters swapped: one typo. */
const typo = (q: string) => {
  const [first, ...rest] = q.split(' ');
  const w = first!;
  return [w.length >= 5 ? w[0] + w[2] + w[1] + w.slice(3) : w, ...rest].join(' ');
};

/** A word in about one post of eight (title or body), counted over the fixture as it is written. */
function commonWord(size: number): { word: string; share: number } {
  const posts = new Map<string, number>();
  for (let i = 0; i < size; i += 10) {
    const seen = new Set(`${titleOf(i)} ${bodyOf(i)}`.split(' '));
    for (const w of seen) posts.set(w, (posts.get(w) ?? 0) + 1);
  }
  const sampled = Math.ceil(size / 10);
  const [word, n] = [...posts].sort((a, b) => Math.abs(a[1] / sampled - 1 / 8) - Math.abs(b[1] / sampled - 1 / 8))[0]!;
  return { word, share: n / sampled };
}

/** BENCH_FORGIVE_LOAD=api: the posts are created one by one through the engine's call the API makes (slow: minutes). */
const THROUGH_API = process.env.BENCH_FORGIVE_LOAD === 'api';

async function seed(engine: Engine, size: number) {
  const { org, w, boards } = THROUGH_API ? await seedThroughApi(engine, size) : await seedPosts(engine, size);
  // The scheduler's search chore, as within a minute of a load; no ANALYZE. On SQLite, as many runs (one a minute) as
  // it takes to merge the index's segments.
  const structure = async () =>
    engine.db.dialect.name === 'sqlite' ? searchStore.indexStructure(engine.db) : undefined;
  let chores = 0;
  for (let was = await structure(); ; ) {
    await searchStore.searchChore(engine.db);
    chores++;
    const now = await structure();
    if (now === was || chores >= 60) break;
    was = now;
  }
  return { org, w, board: boards[0]!, chores };
}

/** The same posts, each created as `POST /v1/posts` creates it (`posts.create`: its triggers, its event). */
async function seedThroughApi(engine: Engine, size: number) {
  const org = await engine.organizations.create({ name: 'Bench', plan: 'paid' });
  const w = engine.workspace(org.id);
  const boards: Array<{ id: string }> = [];
  for (let b = 0; b < BOARDS; b++) boards.push(await w.boards.create({ name: `Board ${b}` }));
  for (let i = 0; i < size; i++)
    await w.posts.create(boards[i % BOARDS]!.id, { title: titleOf(i), body: { json: {}, text: bodyOf(i) } });
  return { org, w, boards };
}

/** p50 and p95 of `fn` over ROUNDS x 10 calls, A and B turn about, round by round. */
async function turnAbout(
  a: (i: number) => Promise<unknown>,
  b: (i: number) => Promise<unknown>,
  before: { a: () => Promise<void>; b: () => Promise<void> },
) {
  const times = { a: [] as number[], b: [] as number[] };
  for (let round = 0; round < ROUNDS; round++)
    for (const side of round % 2 ? (['b', 'a'] as const) : (['a', 'b'] as const)) {
      await before[side]();
      const fn = side === 'a' ? a : b;
      await fn(round * 10); // warm
      for (let k = 0; k < 10; k++) {
        const t = performance.now();
        await fn(round * 10 + k);
        times[side].push(performance.now() - t);
      }
    }
  const at = (xs: number[]) => ({ p50: quantile(xs, 0.5), p95: quantile(xs, 0.95) });
  return { a: at(times.a), b: at(times.b) };
}

async function measure(database: string, label: string, size: number) {
  const engine = await createEngine({ database, log: () => {} });
  try {
    await engine.migrate();
    const { org, w, board, chores } = await seed(engine, size);
    const queries = queriesFor(size);
    const typos = queries.map(typo);
    const stems = (s: 'english' | 'none') => async () =>
      void (await engine.organizations.update(org.id, { searchStems: s }));
    const boardSearch = (qs: string[]) => (i: number) => w.portal.posts(board.id, { q: qs[i % qs.length]! });
    const typed = await turnAbout(boardSearch(queries), boardSearch(queries), {
      a: stems('english'),
      b: stems('none'),
    });
    await stems('english')();
    let found = 0;
    for (const q of typos) if ((await w.portal.posts(board.id, { q })).data.length > 0) found++;
    const typoTimes = await turnAbout(boardSearch(typos), boardSearch(queries), {
      a: async () => {},
      b: async () => {},
    });
    const common = commonWord(size);
    const one = await turnAbout(
      () => w.portal.posts(board.id, { q: common.word }),
      () => w.triage.list({ q: common.word }), // GET /v1/posts
      { a: async () => {}, b: async () => {} },
    );
    // "Similar posts" for a title being typed: a first-board post's title, its last word cut to 3 letters.
    const typing = queries.map((_, i) => {
      const words = titleOf(((i * 7919) % (size / BOARDS)) * BOARDS).split(' ');
      return [...words.slice(0, -1), words.at(-1)!.slice(0, 3)].join(' ');
    });
    let suggested = 0;
    for (const t of typing) if ((await w.portal.similar(board.id, t)).length > 0) suggested++;
    const similar = await turnAbout(
      (i) => w.portal.similar(board.id, typing[i % typing.length]!),
      boardSearch(queries),
      { a: async () => {}, b: async () => {} },
    );
    return { label, size, chores, typed, typoTimes, found, common, one, similar, suggested };
  } finally {
    await engine.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'feedback-bench-forgive-'));
const rows: Awaited<ReturnType<typeof measure>>[] = [];
try {
  for (const size of SIZES)
    for (const database of DATABASES) {
      const url = database === 'sqlite' ? join(dir, `forgive-${size}.db`) : await freshPg('bench_forgive');
      const row = await measure(url, database === 'sqlite' ? 'SQLite' : 'PostgreSQL', size);
      rows.push(row);
      console.log(
        `${row.label} ${size} (${row.chores} chore runs after the load): similar posts ${f(row.similar.a.p50)} ms (${row.suggested}/50 with a suggestion); typed queries forgiving ${f(row.typed.a.p50)} ms vs not ${f(row.typed.b.p50)} (ratio ${(row.typed.a.p50 / row.typed.b.p50).toFixed(2)}); with a typo ${f(row.typoTimes.a.p50)} ms (${row.found}/50 found); "${row.common.word}" (${(row.common.share * 100).toFixed(1)} % of posts): board ${f(row.one.a.p50)} ms, workspace ${f(row.one.b.p50)} ms`,
      );
      if (database === 'postgresql' && !process.env.BENCH_FORGIVE_KEEP) await dropPg('bench_forgive');
    }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const n = (x: number) => x.toLocaleString('en');
// Loaded through the API, the section is printed: the notes keep its figures beside the bulk-loaded table.
(THROUGH_API ? console.log : writeSection)(`## Search that forgives (issue 52)

\`npm run bench\` (bench/forgive.ts), ${new Date().toISOString().slice(0, 10)}: the search benchmark's fixture (made-up words,
10 boards), ${THROUGH_API ? 'each post created as the API creates it' : 'bulk-loaded'}, the search chore run as the scheduler runs it (a minute apart) until it had nothing left to do, no \`ANALYZE\` by the benchmark. Times are a board's search on the
portal (\`w.portal.posts\`), ${ROUNDS} rounds of 10 queries, the two sides turn about. "Typed" is the search
benchmark's 50 queries; forgiving (English stems, the default) against a workspace with stems \`none\`. "One typo"
swaps the first word's second and third letters.

| database | posts | typed, forgiving p50 | typed, stems none p50 | ratio | one typo p50 (found) | a word in ${'~'}1 post of 8: board p50 | workspace (GET /v1/posts) p50 | similar posts while typing p50 (with a suggestion) |
|---|---|---|---|---|---|---|---|---|
${rows
  .map(
    (r) =>
      `| ${r.label} | ${n(r.size)} | ${f(r.typed.a.p50)} ms | ${f(r.typed.b.p50)} ms | **${(r.typed.a.p50 / r.typed.b.p50).toFixed(2)}** | ${f(r.typoTimes.a.p50)} ms (${r.found}/50) | ${f(r.one.a.p50)} ms | ${f(r.one.b.p50)} ms | ${f(r.similar.a.p50)} ms (${r.suggested}/50) |`,
  )
  .join('\n')}

${notes('forgive-notes.md')}
`);
