// Webhook delivery: deliveries per second from one process to a local receiver answering 200, against a
// bare loop of signed POSTs (undici.request, keep-alive, the same concurrency) measured in the same run;
// and latency from a committed change to its receipt. Appends its section to docs/benchmarks.md.
import { type ChildProcess, fork } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Agent, request } from 'undici';
import type { Engine } from '../src/engine/index.js';
import { dropPg, freshPg } from './databases.js';
import { writeSection } from './doc.js';

// The built package, as users run it (npm run bench builds first); typed from the source.
const { createEngine } = (await import(
  pathToFileURL(join(import.meta.dirname, '../dist/engine/index.js')).href
)) as typeof import('../src/engine/index.js');

const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 20_000);
const LATENCY_SAMPLES = Number(process.env.BENCH_LATENCY_SAMPLES ?? 300);
const ROUNDS = Number(process.env.BENCH_DELIVERY_ROUNDS ?? 5);
/** The scheduler's per-webhook concurrency (its default); the reference loop uses the same. */
const CONCURRENCY = 8;

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const payload = JSON.stringify({
  event: 'contact.created',
  organizationId: 'org_01m816qb298rtjg45y4psj8gw3',
  contact: {
    id: 'ctc_01m816qb2xkc986a2gbsj212fq',
    externalUserId: 'u_12345',
    name: 'Ada Lovelace',
    plan: 'pro',
    mrrCents: 4900,
    currency: 'USD',
    source: 'api',
    consentBasis: 'contract',
    metadata: { company: 'Analytical Engines Ltd', seats: 12 },
    firstSeenAt: '2026-11-22T08:42:20.637Z',
    lastSeenAt: '2026-11-22T08:42:20.637Z',
    createdAt: '2026-11-22T08:42:20.637Z',
    updatedAt: '2026-11-22T08:42:20.637Z',
  },
});

/** A receiver in its own process (so it does not share the sender's event loop): answers 200 "ok". */
function startReceiverProcess(): Promise<{ url: string; child: ChildProcess }> {
  const child = fork(join(import.meta.dirname, 'receiver.mjs'), { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  return new Promise((resolve) =>
    child.once('message', (m: { port: number }) => resolve({ url: `http://127.0.0.1:${m.port}/hook`, child })),
  );
}

function signedHeaders(i: number): Record<string, string> {
  const t = Math.floor(Date.now() / 1000);
  const signature = createHmac('sha256', secret).update(`${t}.${payload}`).digest('hex');
  return {
    'Content-Type': 'application/json',
    'User-Agent': 'Service-Webhooks/1.0',
    'X-Service-Event': 'contact.created',
    'X-Service-Delivery': `dlv_ref_${i}`,
    'X-Service-Signature': `t=${t},v1=${signature}`,
  };
}

/** A POST function for one receiver: one signed POST, resolving to the status code once the body is read. */
type Poster = (agent: Agent, i: number) => Promise<number>;

/** With `undici.request`, given the url string each time, as the reference is written. */
const requestPoster =
  (url: string): Poster =>
  async (agent, i) => {
    const res = await request(url, { method: 'POST', dispatcher: agent, body: payload, headers: signedHeaders(i) });
    await res.body.text();
    return res.statusCode;
  };

/** Through undici's callback `dispatch` API, the url parsed once, as the scheduler's sender does. */
const dispatchPoster = (url: string): Poster => {
  const { origin, pathname: path } = new URL(url);
  return (agent, i) =>
    new Promise((resolve, reject) => {
      let status = 0;
      agent.dispatch(
        { origin, path, method: 'POST', body: payload, headers: signedHeaders(i) },
        {
          onRequestStart() {},
          onResponseStart(_c, statusCode) {
            status = statusCode;
          },
          onResponseData() {},
          onResponseEnd: () => resolve(status),
          onResponseError: (_c, err) => reject(err),
        },
      );
    });
};

/**
 * A bare loop: `n` signed POSTs, `CONCURRENCY` at a time, over one keep-alive undici Agent. The reference
 * is `undici.request` (the fastest client in perf-notes); the `dispatch` loop is the same loop on the API
 * our sender uses, reported beside it so the ratio's gain from the cheaper API is visible.
 */
async function bareLoop(url: string, n: number, poster: (url: string) => Poster = requestPoster): Promise<Rate> {
  const post = poster(url);
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  let next = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) {
        const status = await post(agent, next++);
        if (status !== 200) throw new Error(`bare loop got ${status}`);
      }
    }),
  );
  const rate = measured(n, started, cpu);
  await agent.close();
  return rate;
}

/** Deliveries per second, and this process's CPU time per delivery (all its threads). */
interface Rate {
  perSecond: number;
  cpuMicros: number;
}
function measured(n: number, started: number, cpu: NodeJS.CpuUsage): Rate {
  const used = process.cpuUsage(cpu);
  return { perSecond: n / ((performance.now() - started) / 1000), cpuMicros: (used.user + used.system) / n };
}

async function openEngine(dialect: 'sqlite' | 'postgresql'): Promise<{ engine: Engine; drop(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'bench-webhooks-'));
    const engine = await createEngine({ database: join(dir, 'bench.db'), webhooks: { allowPrivateNetworks: true } });
    return { engine, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `bench_webhooks_${process.pid}`;
  const engine = await createEngine({ database: await freshPg(name), webhooks: { allowPrivateNetworks: true } });
  return { engine, drop: () => dropPg(name) };
}

/** `n` events written in one statement; the fan-out trigger turns each into a due delivery. */
async function insertEvents(engine: Engine, organizationId: string, n: number, round: number): Promise<void> {
  const now = engine.dialect === 'postgresql' ? new Date() : Date.now();
  const series =
    engine.dialect === 'postgresql'
      ? `SELECT g FROM generate_series(1, ${n}) g`
      : `WITH RECURSIVE s(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s WHERE g < ${n}) SELECT g FROM s`;
  await engine.db.all(
    `INSERT INTO event (id, organization_id, type, payload, created_at)
     SELECT 'evt_r${round}_' || g, ?, 'contact.created', ?, ? FROM (${series}) x`,
    [organizationId, payload, now],
  );
}

interface DialectResult {
  dialect: string;
  rounds: Array<{ ours: Rate; reference: Rate; dispatch: Rate }>;
  p50: number;
  p99: number;
}

async function benchDialect(dialect: 'sqlite' | 'postgresql', receiverUrl: string): Promise<DialectResult> {
  const { engine, drop } = await openEngine(dialect);
  try {
    await engine.migrate();
    const org = await engine.organizations.create({ name: 'bench', plan: 'paid' });
    const w = engine.workspace(org.id);
    const hook = await w.webhooks.create({ url: receiverUrl, events: ['contact.created'] });
    await bareLoop(receiverUrl, 2000); // warm both sides
    await bareLoop(receiverUrl, 2000, dispatchPoster);
    const rounds: DialectResult['rounds'] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const reference = await bareLoop(receiverUrl, DELIVERIES);
      const dispatch = await bareLoop(receiverUrl, DELIVERIES, dispatchPoster);
      await insertEvents(engine, org.id, DELIVERIES, round);
      const started = performance.now();
      const cpu = process.cpuUsage();
      const summary = await engine.scheduler.runDue();
      const ours = measured(summary.succeeded, started, cpu);
      if (summary.succeeded !== DELIVERIES) throw new Error(`delivered ${summary.succeeded} of ${DELIVERIES}`);
      // The round's dead rows are vacuumed here, untimed, so no autovacuum of them runs into the next round's
      // bare loops (it would slow the reference, not us). Autovacuum after the event insert still runs into ours.
      if (dialect === 'postgresql') await engine.db.all('VACUUM ANALYZE delivery, delivery_attempt, event');
      rounds.push({ ours, reference, dispatch });
      console.log(
        `${dialect} round ${round + 1}: scheduler ${Math.round(ours.perSecond)}/s (${Math.round(ours.cpuMicros)} us CPU each), ` +
          `reference ${Math.round(reference.perSecond)}/s (${Math.round(reference.cpuMicros)} us) = ${(ours.perSecond / reference.perSecond).toFixed(2)}; ` +
          `bare dispatch ${Math.round(dispatch.perSecond)}/s (${Math.round(dispatch.cpuMicros)} us) = ${(ours.perSecond / dispatch.perSecond).toFixed(2)}`,
      );
    }
    await w.webhooks.delete(hook.id);

    // Latency from a committed change to its receipt, with the scheduler running as `serve` runs it.
    let arrived: (() => void) | undefined;
    const local = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.end('ok');
        arrived?.();
      });
    });
    await new Promise<void>((r) => local.listen(0, '127.0.0.1', r));
    await w.webhooks.create({
      url: `http://127.0.0.1:${(local.address() as AddressInfo).port}/`,
      events: ['contact.created'],
    });
    await engine.scheduler.start();
    const samples: number[] = [];
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      const received = new Promise<number>((resolve) => (arrived = () => resolve(performance.now())));
      await w.contacts.create({ externalUserId: `lat-${i}` });
      const committed = performance.now();
      samples.push((await received) - committed);
    }
    await engine.scheduler.stop();
    local.close();
    samples.sort((a, b) => a - b);
    const q = (p: number) => samples[Math.min(samples.length - 1, Math.floor(p * samples.length))]!;
    console.log(`${dialect} commit-to-receipt p50 ${q(0.5).toFixed(2)} ms, p99 ${q(0.99).toFixed(2)} ms`);
    return { dialect, rounds, p50: q(0.5), p99: q(0.99) };
  } finally {
    await engine.close();
    await drop();
  }
}

const receiver = await startReceiverProcess();
const results: DialectResult[] = [];
try {
  for (const dialect of (process.env.BENCH_DIALECTS ?? 'postgresql,sqlite').split(',') as Array<
    'postgresql' | 'sqlite'
  >)
    results.push(await benchDialect(dialect, receiver.url));
} finally {
  receiver.child.kill();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const section = `## Webhook delivery

\`npm run bench\` (bench/webhooks.ts), ${new Date().toISOString().slice(0, 10)}. One process delivers ${DELIVERIES.toLocaleString('en')} due
deliveries of one webhook (\`scheduler.runDue()\`: claim, sign, POST, record) to a receiver in another process
that answers 200. The reference is a bare loop of the same signed POSTs with \`undici.request\` (the fastest
client in perf-notes), the same concurrency (${CONCURRENCY}, the scheduler's per-webhook default) and keep-alive,
measured in the same run, alternating with ours (${ROUNDS} rounds, medians). Beside it, the same bare loop on
undici's callback \`dispatch\` API, which our sender uses: the ratio to it shows what the pipeline (claims,
records, bookkeeping, the database's CPU) costs on top of the cheapest POST, without the API's gain. On
PostgreSQL each round's dead rows are vacuumed after our run, untimed, so no autovacuum lands in the next bare
loops. Latency: a contact created with the scheduler started, from the commit resolving to the receiver having
the request, ${LATENCY_SAMPLES} sequential samples.

Targets: 0.50 of the reference or more; p50 under 20 ms.

Where the time goes: the two cores are shared by the sender, the receiver and the database, so throughput
follows CPU per delivery. Ours pays, beside the POST itself, its share of the claim and record statements
(a claim of up to 128 deliveries, a record per 250 or per 20 ms), the JSON of the batch and the bookkeeping; the
database's own work per delivery (a HOT update for the claim, an update and an attempt row for the outcome)
runs on the same cores. The bare loops move by a third or more between rounds and runs, hence the ranges.
Across three full runs on 2026-11-22 with the current scheduler, the median ratio to the reference was 0.74,
0.71 and 0.57 on PostgreSQL and 0.63, 0.69 and 0.58 on SQLite, the lowest round 0.55: the 0.50 target is met in
every round, with less margin when the machine is quiet (the last run, the table: bare loops 20-36k/s against
11-26k/s in the two before, ours 11-12.6k/s against 8-11.5k/s). To the bare dispatch loop the medians were 0.47,
0.44 and 0.33 on PostgreSQL, 0.41, 0.42 and 0.38 on SQLite: the pipeline costs about as much CPU as the POST
itself, or more. Before this version (undici.request in the sender, a claim per class on every refill) the
medians were 0.40-0.51 on PostgreSQL and 0.47-0.59 on SQLite. With SQLite on libsql (2026-11-23: a kept connection, statements
prepared once, WAL checkpoints in a worker thread) the SQLite medians were 0.71, 0.71 and 0.67 across three full runs,
and the sender's CPU per delivery fell from 87-142 us to 84-115 us.

| database | scheduler deliveries/s | reference/s | ratio (range) | bare dispatch loop/s | ratio to it (range) | sender CPU per delivery: ours / reference / dispatch | commit-to-receipt p50 | p99 |
|---|---|---|---|---|---|---|---|---|
${results
  .map((r) => {
    const ours = median(r.rounds.map((x) => x.ours.perSecond));
    const against = (pick: (x: DialectResult['rounds'][number]) => Rate) => {
      const ratios = r.rounds.map((x) => x.ours.perSecond / pick(x).perSecond);
      const rate = Math.round(median(r.rounds.map((x) => pick(x).perSecond))).toLocaleString('en');
      return `${rate} | ${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)})`;
    };
    const cpu = (pick: (x: DialectResult['rounds'][number]) => Rate) =>
      Math.round(median(r.rounds.map((x) => pick(x).cpuMicros)));
    return `| ${r.dialect} | ${Math.round(ours).toLocaleString('en')} | ${against((x) => x.reference)} | ${against((x) => x.dispatch)} | ${cpu((x) => x.ours)} / ${cpu((x) => x.reference)} / ${cpu((x) => x.dispatch)} us | ${r.p50.toFixed(1)} ms | ${r.p99.toFixed(1)} ms |`;
  })
  .join('\n')}
`;
writeSection(section);
console.log('\nappended the webhook delivery section to docs/benchmarks.md');
