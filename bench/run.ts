// npm run bench: identify throughput over HTTP against a same-run reference, list latency at 1M contacts.
// Writes docs/benchmarks.md. Servers run in their own processes; the load generator (autocannon) here.
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { hashEmail } from '../src/engine/shared/email.js';
import { encodeCursor } from '../src/engine/shared/pages.js';
import { freshPg } from './databases.js';
import { notes, writeHeader, writeSection } from './doc.js';
import { identifyLoad, type Scenario, SEEDED, type Started, seedIdentify, start, stop, TSX as tsx } from './servers.js';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
/** Rounds per number of connections, the servers taking load in turn (the median kept). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Concurrent clients: one after another, a few, and many. */
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '1,10,50').split(',').map(Number);
/**
 * BENCH_BASELINE: a checkout of an earlier version (built: npm run build there), whose stack is measured in the same
 * run as a third server, for a before/after table.
 */
const BASELINE = process.env.BENCH_BASELINE;
const BASELINE_LABEL = process.env.BENCH_BASELINE_LABEL ?? 'BENCH_BASELINE';

const LIST_ROWS = Number(process.env.BENCH_LIST_ROWS ?? 1_000_000);

interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** Identify load: `existing` changes one trait of a seeded contact per request; `new` creates a contact per request. */
async function load(
  url: string,
  key: string,
  scenario: Scenario,
  tag: string,
  connections: number,
  duration = DURATION,
): Promise<LoadResult> {
  const result = await identifyLoad(url, key, scenario, tag, connections, duration);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

interface Row {
  database: string;
  scenario: Scenario;
  connections: number;
  stack: LoadResult;
  reference: LoadResult;
  baseline?: LoadResult;
}

/**
 * Stack and reference never take load at the same time, and on SQLite each has its own copy of the seeded file: the
 * stack's server checkpoints its database in a worker thread, which would otherwise do the reference's checkpoints for
 * it. The servers of a scenario are started together and warmed up; then, at each number of connections, they take
 * load in turn for ROUNDS rounds, the order rotating each round, and each keeps its median round: on a shared machine,
 * what runs first or last would otherwise show in the ratios.
 */
async function identifyBench(database: 'sqlite' | 'postgresql', dir: string): Promise<Row[]> {
  const rows: Row[] = [];
  const db = database === 'sqlite' ? join(dir, 'identify.db') : await freshPg('fs_bench_identify');
  const { key, organizationId } = await seedIdentify([tsx], db);
  const copy = (name: string) => {
    if (database !== 'sqlite') return db;
    const to = join(dir, name);
    for (const suffix of ['', '-wal', '-shm']) if (existsSync(db + suffix)) copyFileSync(db + suffix, to + suffix);
    return to;
  };
  const referenceDb = copy('reference.db');
  const baselineDb = BASELINE ? copy('baseline.db') : db;
  const median = (results: LoadResult[]) => [...results].sort((a, b) => a.rps - b.rps)[Math.floor(results.length / 2)]!;
  /** Each server's median result at each number of connections, in CONNECTIONS order. */
  const measure = async (commands: string[][], scenario: Scenario) => {
    const servers: Started[] = [];
    try {
      for (const args of commands) servers.push(await start(args));
      for (const [i, server] of servers.entries())
        await load(server.info.url, key, scenario, `warm-${i}`, Math.max(...CONNECTIONS), Math.min(DURATION, 4));
      const byConnections = CONNECTIONS.map(() => servers.map(() => [] as LoadResult[]));
      for (const [c, connections] of CONNECTIONS.entries())
        for (let round = 0; round < ROUNDS; round++)
          for (let k = 0; k < servers.length; k++) {
            const i = (k + round) % servers.length;
            byConnections[c]![i]!.push(
              await load(servers[i]!.info.url, key, scenario, `${i}-${connections}-${round}`, connections),
            );
          }
      return byConnections.map((results) => results.map(median));
    } finally {
      for (const server of servers) await stop(server);
    }
  };
  for (const scenario of ['existing', 'new'] as Scenario[]) {
    const commands = [
      [tsx, 'bench/server.ts', '--db', db, '--key', key, '--org', organizationId],
      ['bench/reference-server.mjs', '--db', referenceDb],
      ...(BASELINE
        ? [
            [
              join(BASELINE, 'node_modules/tsx/dist/cli.mjs'),
              join(BASELINE, 'bench/server.ts'),
              '--db',
              baselineDb,
              '--key',
              key,
              '--org',
              organizationId,
            ],
          ]
        : []),
    ];
    const medians = await measure(commands, scenario);
    CONNECTIONS.forEach((connections, i) => {
      const [stack, reference, baseline] = medians[i]!;
      const row: Row = { database, scenario, connections, stack: stack!, reference: reference!, baseline };
      // A server that answers errors is not doing the work being compared (the reference's upsert once failed on every
      // second change of a row, and its error answers were faster than the writes they stood for).
      for (const [who, result] of [
        ['stack', row.stack],
        ['reference', row.reference],
        ['before', row.baseline],
      ] as const) {
        if (result && result.errors > 0)
          throw new Error(
            `identify ${database} ${scenario} x${connections}: the ${who} answered ${result.errors} errors`,
          );
      }
      rows.push(row);
      console.log(
        `identify ${database} ${scenario} x${connections}: stack ${row.stack.rps.toFixed(0)}/s p50 ${row.stack.p50} p99 ${row.stack.p99}; reference ${row.reference.rps.toFixed(0)}/s; ratio ${(row.stack.rps / row.reference.rps).toFixed(2)}${row.baseline ? `; before ${row.baseline.rps.toFixed(0)}/s, ratio ${(row.baseline.rps / row.reference.rps).toFixed(2)}` : ''}`,
      );
    });
  }
  return rows;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timeGet(
  url: string,
  key: string,
  path: string,
  times = 200,
): Promise<{ p50: number; p99: number; count: number }> {
  const samples: number[] = [];
  let count = 0;
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    const res = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await res.json()) as { data: unknown[] | Record<string, unknown> };
    samples.push(performance.now() - t);
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
    count = Array.isArray(body.data) ? body.data.length : 1;
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), count };
}

async function listBench(): Promise<{ label: string; p50: number; p99: number; count: number }[]> {
  const url = await freshPg('fs_bench_list');
  const server = await start([tsx, 'bench/server.ts', '--db', url, '--seed', '0']);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const org = server.info.organizationId!;
    console.log(`inserting ${LIST_ROWS} contacts...`);
    const t0 = performance.now();
    await client.query('DROP INDEX contact_email_trgm_idx; DROP INDEX contact_name_trgm_idx');
    await client.query(
      `INSERT INTO contact (id, organization_id, external_user_id, email, email_hash, name, plan, mrr_cents, currency, metadata,
         source, consent_basis, first_seen_at, last_seen_at, created_at, updated_at)
       SELECT 'ctc_' || lpad(to_hex(g), 26, '0'), $1, 'u' || g,
         'user' || g || '@' || (ARRAY['example.com','acme.io','mail.org'])[1 + g % 3], NULL,
         'Name ' || substr(md5(g::text), 1, 10), (ARRAY['free','pro','team'])[1 + g % 3],
         CASE WHEN g % 4 = 0 THEN NULL ELSE ((g::bigint * 7919) % 100000)::int END, CASE WHEN g % 4 = 0 THEN NULL ELSE 'USD' END,
         '{}', 'identify', 'sdk_identify', ts, ts, ts, ts
       FROM generate_series(1, $2::int) g, LATERAL (SELECT now() - (g || ' seconds')::interval AS ts) t`,
      [org, LIST_ROWS],
    );
    await client.query('CREATE INDEX contact_email_trgm_idx ON contact USING gin (email gin_trgm_ops)');
    await client.query('CREATE INDEX contact_name_trgm_idx ON contact USING gin (name gin_trgm_ops)');
    console.log(`inserted and indexed in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const deep = (
      await client.query(
        'SELECT mrr_cents, id FROM contact WHERE organization_id = $1 AND mrr_cents IS NOT NULL ORDER BY mrr_cents DESC, id DESC OFFSET $2 LIMIT 1',
        [org, Math.floor(LIST_ROWS / 2)],
      )
    ).rows[0];
    const tail = (
      await client.query(
        'SELECT id FROM contact WHERE organization_id = $1 AND mrr_cents IS NULL ORDER BY id DESC OFFSET $2 LIMIT 1',
        [org, Math.floor(LIST_ROWS / 8)],
      )
    ).rows[0];
    const mrrCursor = encodeCursor('contacts:mrr', [Number(deep.mrr_cents), deep.id]);
    const tailCursor = encodeCursor('contacts:mrr', [null, tail.id]);
    // Issue 3: one contact with 10,000 posts across 20 boards, whose email matches 10,000 votes and 10,000 comments.
    const fan = (
      await client.query('SELECT id, email FROM contact WHERE organization_id = $1 AND external_user_id = $2', [
        org,
        `u${Math.min(424_242, LIST_ROWS)}`,
      ])
    ).rows[0];
    await client.query('UPDATE contact SET email_hash = $1 WHERE id = $2', [hashEmail(fan.email), fan.id]);
    await client.query(
      `INSERT INTO board (id, organization_id, name, slug, is_public, created_at, updated_at)
       SELECT 'brd_bench' || g, $1, 'Board ' || g, 'board-' || g, true, now(), now() FROM generate_series(1, 20) g`,
      [org],
    );
    await client.query(
      `INSERT INTO post (id, organization_id, board_id, contact_id, author_user_id, title, slug, body, body_text, status, moderation_status,
         hide_from_roadmap, roadmap_order, merged_into_id, comment_count, vote_count, created_at, updated_at, deleted_at)
       SELECT 'post_' || lpad(to_hex(g), 26, '0'), $1, 'brd_bench' || (1 + g % 20), $2, NULL, 'Post ' || g, 'p-' || g, '', '', 'open', 'approved',
         false, NULL, NULL, 0, 0, now() - (g || ' seconds')::interval, now(), NULL
       FROM generate_series(1, 10000) g`,
      [org, fan.id],
    );
    await client.query(
      `INSERT INTO vote (id, organization_id, post_id, user_id, email_hash, voter_key, contact_id, created_at)
       SELECT 'vote_' || lpad(to_hex(g), 26, '0'), $1, 'post_' || lpad(to_hex(g), 26, '0'), NULL, $2, 'e:' || g, NULL, now()
       FROM generate_series(1, 10000) g`,
      [org, hashEmail(fan.email)],
    );
    await client.query(
      `INSERT INTO comment (id, organization_id, post_id, parent_id, author_user_id, email_hash, contact_id, body_text, created_at)
       SELECT 'cmt_' || lpad(to_hex(g), 26, '0'), $1, 'post_' || lpad(to_hex(g), 26, '0'), NULL, NULL, $2, NULL, 'comment', now()
       FROM generate_series(1, 10000) g`,
      [org, hashEmail(fan.email)],
    );
    // Steady state: autovacuum would have set the visibility map that index-only counts rely on.
    await client.query('VACUUM ANALYZE contact, post, vote, comment');
    const deepPost = (
      await client.query(
        'SELECT created_at, id FROM post WHERE contact_id = $1 AND deleted_at IS NULL ORDER BY created_at DESC, id DESC OFFSET 5000 LIMIT 1',
        [fan.id],
      )
    ).rows[0];
    const postsCursor = encodeCursor('contact-posts', [new Date(deepPost.created_at).getTime(), deepPost.id]);
    const key = server.info.key!;
    const cases: [string, string][] = [
      ['contact posts (10,000 across 20 boards), first page', `/v1/contacts/${fan.id}/posts`],
      ['contact posts, deep page (post 5,000)', `/v1/contacts/${fan.id}/posts?cursor=${postsCursor}`],
      ['contact with counts (10,000 posts, votes and comments)', `/v1/contacts/${fan.id}`],
      ['q, rare term (one match)', '/v1/contacts?q=user123457%40'],
      ['q, absent term', '/v1/contacts?q=zzqqxx'],
      ['q, common term (a third of rows)', '/v1/contacts?q=acme'],
      ['sort=mrr, first page', '/v1/contacts?sort=mrr'],
      [
        `sort=mrr, deep page (row ${Math.floor(LIST_ROWS / 2).toLocaleString('en')})`,
        `/v1/contacts?sort=mrr&cursor=${mrrCursor}`,
      ],
      ['sort=mrr, deep in the null tail', `/v1/contacts?sort=mrr&cursor=${tailCursor}`],
      ['sort=created, first page, limit 100', '/v1/contacts?limit=100'],
    ];
    const out = [];
    for (const [label, path] of cases) {
      await timeGet(server.info.url, key, path, 20);
      const r = await timeGet(server.info.url, key, path);
      console.log(`${label}: p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms (${r.count} rows)`);
      out.push({ label, ...r });
    }
    return out;
  } finally {
    await client.end();
    await stop(server);
  }
}

const fmt = (n: number) => n.toLocaleString('en', { maximumFractionDigits: 0 });
const dir = mkdtempSync(join(tmpdir(), 'feedback-bench-'));
try {
  // BENCH_DATABASES=sqlite (or postgresql) runs one of them; BENCH_SKIP_LIST skips the 1M-row reads.
  const databases = (process.env.BENCH_DATABASES ?? 'sqlite,postgresql').split(',') as Array<'sqlite' | 'postgresql'>;
  const identify: Row[] = [];
  for (const database of databases) identify.push(...(await identifyBench(database, dir)));
  const lists = process.env.BENCH_SKIP_LIST ? [] : await listBench();
  writeHeader(`# Benchmarks

Generated by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)} (${cpus().length} cores, Node ${process.version}).
Servers run in their own processes, taking load one at a time; the load generator (autocannon, ${DURATION} s per run after a warm-up)
runs in another. The machine is shared and noisy: trust the ratios, measured in the same run, over the absolutes.
Its PostgreSQL runs with \`autovacuum = off\` (the machine's own configuration): where a figure needs statistics or a
vacuum, the benchmark says that it ran one.
`);
  const ratio = (a: LoadResult, b: LoadResult) => (a.rps / b.rps).toFixed(2);
  writeSection(`## Identify over HTTP

The **stack** is the whole product: bearer-key lookup, rate limit, scope and billing checks, body parsing, zod validation,
one read of the contact (with the workspace's cap), and one version-conditional write of the change with its
\`contact.created\`/\`contact.updated\` event row (one statement on PostgreSQL; on SQLite an IMMEDIATE transaction, shared
by the writes of one event-loop turn: group commit, docs/architecture.md).
The **reference** is a bare \`node:http\` server with the raw driver (libsql or pg, no ORM) doing a key lookup and one
\`INSERT ... ON CONFLICT DO UPDATE\`: no validation, no transaction, no event. Its two statements are prepared once (per
connection on PostgreSQL, as the stack's are); on SQLite with the pragmas SQLite servers commonly run (WAL,
\`synchronous=NORMAL\`). Same schema and seed: on SQLite each server runs on its own copy of the seeded file, on PostgreSQL
on the same database.
\`existing\`: each request changes one trait (name) of one of ${SEEDED} seeded contacts. \`new\`: each request creates a contact.
The servers of a scenario are started together and warmed up with ${Math.max(...CONNECTIONS)} connections; then, with ${CONNECTIONS.join(', ')} connections in turn, they take\nload one after another for ${ROUNDS} rounds of ${DURATION} s, the order rotating each round, and each server's median round is shown.${
    BASELINE
      ? `\n**before** is the stack at ${BASELINE_LABEL}, measured in the same run on its own copy of the seed.`
      : ''
  }

| database | scenario | clients | stack req/s | p50 ms | p99 ms | reference req/s | p50 ms | p99 ms | stack / reference |${BASELINE ? ' before req/s | before / reference |' : ''}
|---|---|---|---|---|---|---|---|---|---|${BASELINE ? '---|---|' : ''}
${identify
  .map(
    (r) =>
      `| ${r.database} | ${r.scenario} | ${r.connections} | ${fmt(r.stack.rps)} | ${r.stack.p50} | ${r.stack.p99} | ${fmt(r.reference.rps)} | ${r.reference.p50} | ${r.reference.p99} | **${ratio(r.stack, r.reference)}** |${r.baseline ? ` ${fmt(r.baseline.rps)} | ${ratio(r.baseline, r.reference)} |` : ''}`,
  )
  .join('\n')}

${notes('identify-notes.md')}
`);
  if (lists.length)
    writeSection(`## Reads at ${LIST_ROWS.toLocaleString('en')} contacts (PostgreSQL)

One workspace with ${LIST_ROWS.toLocaleString('en')} contacts (a quarter without mrr); one of them has 10,000 posts across 20 boards
and an email that matches 10,000 votes and 10,000 comments. Sequential requests over HTTP through the whole stack, 200 per
case after 20 warm-up requests. Targets: p50 under 10 ms for the contact's posts and counts, under 20 ms for the lists.

| request | p50 ms | p99 ms | rows |
|---|---|---|---|
${lists.map((l) => `| ${l.label} | ${l.p50.toFixed(2)} | ${l.p99.toFixed(2)} | ${l.count} |`).join('\n')}
`);
  console.log('\nwrote docs/benchmarks.md');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
