// npm run bench (search part): full-text search at scale on SQLite and PostgreSQL (docs/search.md), each against the
// same query's unindexed form in the same run (a LIKE scan, what search was before), and the cost of keeping the
// indexes in step: identify and post creation with the search triggers and index, against the same without them, in
// alternating rounds (BENCH_SEARCH_WRITE_ROUNDS, default 5). Sizes: BENCH_SEARCH_SIZES (default 100000,1000000) posts and
// as many contacts; empty for the writes alone. BENCH_SEARCH_KEEP=1 keeps the last PostgreSQL fixture (database
// bench_search) to study its plans. Writes its sections to docs/benchmarks.md.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, type Engine } from '../src/engine/index.js';
import { parseSearch } from '../src/engine/search/index.js';
import { newId } from '../src/engine/shared/ids.js';
import { type Sql, search as searchStore } from '../src/engine/store/index.js';
import { dropPg, freshPg } from './databases.js';
import { notes, writeSection } from './doc.js';
import { f, insertMany, timed } from './measure.js';
import { BOARDS, queriesFor, seedPosts, VOCABULARY, word, words } from './search-fixture.js';

// BENCH_SEARCH_DATABASES=sqlite (or postgresql) measures one of them, and prints its sections instead of writing them.
const DATABASES = (process.env.BENCH_SEARCH_DATABASES ?? 'sqlite,postgresql').split(',');
const SIZES = (process.env.BENCH_SEARCH_SIZES ?? '100000,1000000').split(',').filter(Boolean).map(Number);
const RUNS = Number(process.env.BENCH_SEARCH_RUNS ?? 100);
/** `fn(i)` RUNS times after 10 warm-ups. */
const timedRuns = (fn: (i: number) => Promise<unknown>) => timed(fn, RUNS);

/** A workspace of BOARDS boards holding `size` posts, and `size` contacts. */
async function seed(engine: Engine, size: number) {
  const { org, w, boards, at } = await seedPosts(engine, size);
  await insertMany(
    engine,
    'contact',
    [
      'id',
      'organization_id',
      'external_user_id',
      'email',
      'name',
      'metadata',
      'source',
      'consent_basis',
      'first_seen_at',
      'last_seen_at',
      'created_at',
      'updated_at',
    ],
    (i) => [
      newId('ctc'),
      org.id,
      `u-${i}`,
      `person.${i}.${word(i)}@example${i % 97}.com`,
      `Person ${word(i + 7)} ${i}`,
      '{}',
      'sdk',
      'sdk_identify',
      at(i),
      at(i),
      at(i),
      at(i),
    ],
    size,
    500,
  );
  // As the scheduler's search chore does within a minute of a bulk load (PostgreSQL: list the new posts' words).
  await searchStore.searchChore(engine.db);
  if (engine.dialect === 'postgresql') await engine.db.run('ANALYZE');
  return { org, w, boards };
}

let queries: string[] = [];

/** The same search as a LIKE scan: every word a substring of the title or body, top votes first (what search was). */
async function unindexed(sql: Sql, where: string, id: string, q: string) {
  const terms = parseSearch(q).map((t) => t.words.join(' '));
  const like = terms.map(() => `(p.title ${sql.dialect.ilike} ? OR p.body_text ${sql.dialect.ilike} ?)`).join(' AND ');
  return sql.all(
    `SELECT p.id FROM post p WHERE ${where} = ? AND p.deleted_at IS NULL AND ${like} ORDER BY p.vote_count DESC, p.id DESC LIMIT 50`,
    [id, ...terms.flatMap((t) => [`%${t}%`, `%${t}%`])],
  );
}

/** The console's search: every board of the workspace, most relevant first (how its posts page reads a search's page). */
async function workspaceSearch(sql: Sql, organizationId: string, q: string) {
  return searchStore.searchPage(sql, { organizationId }, parseSearch(q), 50, undefined, async (matches) => {
    const relevance = new Map(matches.map((m) => [m.postId, m.relevance]));
    const rows = await sql.all<{ id: string; vote_count: number; created_at: unknown }>(
      `SELECT p.id, p.vote_count, p.created_at FROM post p WHERE p.id IN (SELECT value FROM ${sql.dialect.jsonStrings}) AND p.deleted_at IS NULL`,
      [JSON.stringify([...relevance.keys()])],
    );
    return rows.map((r) => ({
      id: r.id,
      voteCount: Number(r.vote_count),
      createdAt: new Date(r.created_at as string).getTime(),
      relevance: relevance.get(r.id)!,
    }));
  });
}

interface Row {
  database: string;
  size: number;
  board: { p50: number; p95: number };
  boardLike: { p50: number; p95: number };
  workspace: { p50: number; p95: number };
  workspaceLike: { p50: number; p95: number };
  contacts: { p50: number; p95: number };
  contactsLike: { p50: number; p95: number };
  seedSeconds: number;
}

async function measure(database: string, label: string, size: number): Promise<Row> {
  const engine = await createEngine({ database, log: () => {} });
  await engine.migrate();
  const t0 = performance.now();
  const { org, w, boards } = await seed(engine, size);
  const seedSeconds = (performance.now() - t0) / 1000;
  const board = boards[0]!;
  queries = queriesFor(size);
  const hits = await Promise.all(
    queries.slice(0, 10).map(async (q) => (await w.portal.posts(board.id, { q, limit: 100 })).data.length),
  );
  console.log(`${label} ${size}: results per board query (first 10, at most 100): ${hits.join(' ')}`);
  // A piece of a person's name or address as people type it: the rarer word of a contact's name.
  const contactQueries = Array.from({ length: 50 }, (_, i) => word(((i * 7919) % size) + 7));
  const row: Row = {
    database: label,
    size,
    seedSeconds,
    board: await timedRuns((i) => w.portal.posts(board.id, { q: queries[i % queries.length]! })),
    boardLike: await timedRuns((i) => unindexed(engine.db, 'p.board_id', board.id, queries[i % queries.length]!)),
    workspace: await timedRuns((i) => workspaceSearch(engine.db, org.id, queries[i % queries.length]!)),
    workspaceLike: await timedRuns((i) =>
      unindexed(engine.db, 'p.organization_id', org.id, queries[i % queries.length]!),
    ),
    contacts: await timedRuns((i) => w.contacts.list({ q: contactQueries[i % contactQueries.length]! })),
    // The list's statement with no index for q: on PostgreSQL with index scans off for it (else the trigram indexes serve).
    contactsLike: await timedRuns((i) =>
      engine.db.transaction(async (tx) => {
        if (engine.dialect === 'postgresql') await tx.run('SET LOCAL enable_bitmapscan = off');
        const like = `%${contactQueries[i % contactQueries.length]}%`;
        return tx.all(
          `SELECT c.id FROM contact c WHERE c.organization_id = ? AND (c.email ${tx.dialect.ilike} ? OR c.name ${tx.dialect.ilike} ?) ORDER BY c.created_at DESC, c.id DESC LIMIT 25`,
          [org.id, like, like],
        );
      }),
    ),
  };
  await engine.close();
  console.log(
    `${label} ${size}: seeded in ${seedSeconds.toFixed(0)} s; board p50 ${f(row.board.p50)} ms (LIKE ${f(row.boardLike.p50)}), workspace ${f(row.workspace.p50)} (LIKE ${f(row.workspaceLike.p50)}), contacts ${f(row.contacts.p50)} (LIKE ${f(row.contactsLike.p50)})`,
  );
  return row;
}

/** Write rates per second: new contacts, existing contacts (one trait changed), post creations. */
type Rates = { identify: number; existing: number; posts: number };

/**
 * The CPU time (ns) the PostgreSQL server's processes serving `database` have used so far, from /proc (the server runs
 * on this machine): a count of work, as callgrind's is for SQLite, that the disk's pace does not move, where a commit
 * rate does. PostgreSQL's search triggers run there, not in Node.
 */
async function backendCpu(engine: Engine): Promise<Map<number, number>> {
  const rows = await engine.db.all<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
  );
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      cpu.set(pid, Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]));
    } catch {}
  }
  return cpu;
}
const cpuSince = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((sum, [pid, ns]) => sum + ns - (before.get(pid) ?? ns), 0);
const WRITE_KINDS = ['existing', 'identify', 'posts'] as const;
const KIND_NAMES = {
  existing: 'identify, existing contact',
  identify: 'identify, new contact',
  posts: 'post creation',
} as const;

/**
 * Identifies and post creations per second with the search kept in step, and with its triggers dropped: ROUNDS rounds,
 * the two sides alternating, each round on a fresh database, so a slow moment of the machine lands on both sides
 * alike; the median of each side, and the spread of the per-round ratios.
 */
async function writeCost(database: 'sqlite' | 'postgresql', label: string) {
  const rates = async (withSearch: boolean, round: number): Promise<{ rates: Rates; cpu: Rates }> => {
    const url =
      database === 'sqlite' ? join(dir, `writes-${withSearch}-${round}.db`) : await freshPg('bench_search_writes');
    const engine = await createEngine({ database: url, log: () => {} });
    try {
      await engine.migrate();
      if (!withSearch) {
        if (engine.dialect === 'sqlite')
          for (const { name } of await engine.db.all<{ name: string }>(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name GLOB '*_search_*'",
          ))
            await engine.db.run(`DROP TRIGGER ${name}`);
        else for (const k of ['insert', 'update']) await engine.db.run(`DROP TRIGGER post_search_${k} ON post`);
      }
      const org = await engine.organizations.create({ name: 'Writes', plan: 'paid' });
      const w = engine.workspace(org.id);
      const board = await w.boards.create({ name: 'Ideas' });
      // Writes per second, and (PostgreSQL) the server's CPU time per write in microseconds.
      const per = async (n: number, fn: (i: number) => Promise<unknown>) => {
        for (let i = 0; i < 200; i++) await fn(-1 - i);
        const pg = engine.dialect === 'postgresql';
        const before = pg ? await backendCpu(engine) : new Map();
        const t = performance.now();
        for (let i = 0; i < n; i++) await fn(i);
        const rate = n / ((performance.now() - t) / 1000);
        return { rate, cpu: pg ? cpuSince(before, await backendCpu(engine)) / n / 1000 : 0 };
      };
      const identify = await per(3000, (i) =>
        w.contacts.identify({ externalUserId: `u-${i}`, email: `person${i}@example.com`, name: `Person ${i}` }),
      );
      // The hot path: an existing contact, one trait changed (its email and name as they were).
      const existing = await per(3000, (i) =>
        w.contacts.identify({ externalUserId: `u-${Math.abs(i) % 3000}`, plan: `plan-${i}` }),
      );
      const posts = await per(2000, (i) =>
        w.posts.create(board.id, { title: `Idea ${i} ${words(i, 4)}`, body: { json: {}, text: words(i, 20) } }),
      );
      return {
        rates: { identify: identify.rate, existing: existing.rate, posts: posts.rate },
        cpu: { identify: identify.cpu, existing: existing.cpu, posts: posts.cpu },
      };
    } finally {
      await engine.close();
      if (database === 'postgresql') await dropPg('bench_search_writes');
      else rmSync(url, { force: true });
    }
  };
  const without: Rates[] = [];
  const withSearch: Rates[] = [];
  const cpuWithout: Rates[] = [];
  const cpuWith: Rates[] = [];
  for (let round = 0; round < WRITE_ROUNDS; round++) {
    // Alternate which side goes first, so neither always runs on the warmer machine.
    for (const side of round % 2 ? [true, false] : [false, true]) {
      const r = await rates(side, round);
      (side ? withSearch : without).push(r.rates);
      (side ? cpuWith : cpuWithout).push(r.cpu);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const summary = Object.fromEntries(
    WRITE_KINDS.map((k) => {
      const ratios = withSearch.map((r, i) => r[k] / without[i]![k]);
      return [
        k,
        {
          with: median(withSearch.map((r) => r[k])),
          without: median(without.map((r) => r[k])),
          low: Math.min(...ratios),
          high: Math.max(...ratios),
        },
      ];
    }),
  ) as Record<(typeof WRITE_KINDS)[number], { with: number; without: number; low: number; high: number }>;
  // The server's CPU per write (PostgreSQL): medians of each side.
  const cpu = Object.fromEntries(
    WRITE_KINDS.map((k) => [
      k,
      { with: median(cpuWith.map((r) => r[k])), without: median(cpuWithout.map((r) => r[k])) },
    ]),
  ) as Record<(typeof WRITE_KINDS)[number], { with: number; without: number }>;
  console.log(
    label,
    'writes',
    JSON.stringify(summary),
    database === 'postgresql' ? `server CPU us/write ${JSON.stringify(cpu)}` : '',
  );
  return { label, database, summary, cpu };
}

const WRITE_ROUNDS = Number(process.env.BENCH_SEARCH_WRITE_ROUNDS ?? 5);
const dir = mkdtempSync(join(tmpdir(), 'feedback-bench-search-'));
try {
  const rows: Row[] = [];
  for (const size of SIZES) {
    if (DATABASES.includes('sqlite')) rows.push(await measure(join(dir, `search-${size}.db`), 'SQLite', size));
    if (!DATABASES.includes('postgresql')) continue;
    const url = await freshPg('bench_search');
    try {
      rows.push(await measure(url, 'PostgreSQL', size));
    } finally {
      if (!process.env.BENCH_SEARCH_KEEP) await dropPg('bench_search');
    }
  }
  const writes = [];
  if (WRITE_ROUNDS > 0)
    for (const [database, label] of [
      ['sqlite', 'SQLite'],
      ['postgresql', 'PostgreSQL'],
    ] as const)
      if (DATABASES.includes(database)) writes.push(await writeCost(database, label));
  const line = (r: Row, name: string, a: { p50: number; p95: number }, b: { p50: number; p95: number }) =>
    `| ${r.database} | ${r.size.toLocaleString('en')} | ${name} | ${f(a.p50)} | ${f(a.p95)} | ${f(b.p50)} | **${(b.p50 / a.p50).toFixed(0)}x** |`;
  // BENCH_SEARCH_SIZES= (empty) measures the writes alone and leaves the reads' section as it is.
  // A run of one database prints its sections instead of writing them, so the other's figures stay in the file.
  const write = DATABASES.length === 2 ? writeSection : (section: string) => console.log(`\n${section}`);
  if (rows.length)
    write(`## Search

Full-text search (docs/search.md) at ${SIZES.map((s) => s.toLocaleString('en')).join(' and ')} posts (${BOARDS} boards of one
workspace; titles of 3 to 9 and bodies of 4 to 79 words, made-up words of 2 to 4 syllables drawn from ${VOCABULARY.toLocaleString('en')} with a skew, as text has) and as many contacts. Server time
of the engine call, one at a time after 10 warm-ups, ${RUNS} runs cycling through 50 queries of two words of middling frequency, the
second as typed so far (a prefix). Against the same query's unindexed form in the same run: a \`LIKE '%word%'\` scan of
title and body (what the portal's search was), and for contacts the list's \`LIKE\` without the trigram table.
PostgreSQL after an \`ANALYZE\`. Targets (issue 30): posts p50 under 15 ms and p95 under 40 ms; contacts p50 under 20 ms.

| database | rows | search | p50 ms | p95 ms | unindexed p50 ms | unindexed / indexed |
|---|---|---|---|---|---|---|
${rows.flatMap((r) => [line(r, 'portal: one board', r.board, r.boardLike), line(r, 'console: the workspace', r.workspace, r.workspaceLike), line(r, 'contacts (REST q)', r.contacts, r.contactsLike)]).join('\n')}

${notes('search-notes.md')}
`);
  if (writes.length)
    write(`## Search: writes with the indexes kept in step

Identifies and post creations per second, one writer, with the search kept in step (SQLite: the triggers that mark
changed posts and contacts for FTS5, and keep the watermark of new ones; PostgreSQL: the triggers that write \`post_search\`, its GIN index and \`post_search_word\`; the contacts'
trigram indexes are older than search and stay on both sides) and with those triggers dropped. ${WRITE_ROUNDS} rounds, the sides
alternating (which goes first alternates too), each round on a fresh database: medians, and the lowest and highest
per-round ratio. Target (issue 30): no more than 10 % below (ratio at least 0.90).

| database | write | with search /s | without /s | ratio of medians | per-round ratios |
|---|---|---|---|---|---|
${writes.flatMap((x) => WRITE_KINDS.map((k) => `| ${x.label} | ${KIND_NAMES[k]} | ${x.summary[k].with.toFixed(0)} | ${x.summary[k].without.toFixed(0)} | **${(x.summary[k].with / x.summary[k].without).toFixed(2)}** | ${x.summary[k].low.toFixed(2)} to ${x.summary[k].high.toFixed(2)} |`)).join('\n')}

Counting work instead of time on PostgreSQL: the CPU time its server processes spent on the measured writes (from
\`/proc/<pid>/schedstat\` of the database's backends: their own work, the triggers included, and not the waits for the
disk), per write, medians of the same rounds. The writes/s above are paced by the commit's \`fsync\`; this is what the
triggers add to the server's work, the part that does not wait for the disk.

| PostgreSQL, server CPU per write | with search us | without us | more work with search |
|---|---|---|---|
${writes
  .filter((x) => x.database === 'postgresql')
  .flatMap((x) =>
    WRITE_KINDS.map(
      (k) =>
        `| ${KIND_NAMES[k]} | ${x.cpu[k].with.toFixed(0)} | ${x.cpu[k].without.toFixed(0)} | ${(100 * (x.cpu[k].with / x.cpu[k].without - 1)).toFixed(1)} % |`,
    ),
  )
  .join('\n')}

${notes('search-writes-notes.md')}
`);
  if (DATABASES.length === 2) console.log('\nwrote the search sections of docs/benchmarks.md');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
