// npm run bench (sign-in part): how long the console's `POST /console/sign-in` takes to answer for an address on a
// team and for an address on none, on SQLite and PostgreSQL, through app.fetch with the scheduler sending the mail to a
// real SMTP server (its own process) meanwhile. The two answers take the same path (docs/security.md), so their times
// should not tell one from the other: the ratio of the medians is the figure, measured in one run, alternating.
// Appends its section to docs/benchmarks.md.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConsole } from '../src/console/index.js';
import { CLI_ACTOR, createEngine } from '../src/engine/index.js';
import { createApp } from '../src/h3/index.js';
import { dropPg, freshPg } from './databases.js';
import { notes, writeSection } from './doc.js';
import { f, quantile } from './measure.js';

const RUNS = Number(process.env.BENCH_SIGN_IN_RUNS ?? 300);

const sink = fork(join(import.meta.dirname, 'smtp-sink.mjs'), { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
const smtpUrl = await new Promise<string>((resolve) =>
  sink.once('message', (m: { port: number }) => resolve(`smtp://127.0.0.1:${m.port}`)),
);

async function measure(database: string) {
  const engine = await createEngine({
    database,
    log: () => {},
    mail: { smtpUrl, publicUrl: 'https://feedback.example' },
  });
  await engine.migrate();
  await engine.scheduler.start();
  const org = await engine.organizations.create({ name: 'Bench', plan: 'paid' });
  const app = createApp({
    engine,
    sites: [createConsole({ engine, limits: { signInsPerIp: 1e9, codesPerEmail: 1e9 } })],
    logError: () => {},
  });
  // One member per request, so that no address meets its own limits; strangers likewise.
  for (let i = 0; i < RUNS + 10; i++)
    await engine
      .workspace(org.id)
      .team.add(CLI_ACTOR, { email: `m${i}@team.example`, role: 'viewer' }, { invite: false, workspace: 'Bench' });
  const page = await app.fetch(new Request('http://console.test/console/sign-in'));
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1]!;
  const cookie = page.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const ask = async (email: string) => {
    const t = performance.now();
    const res = await app.fetch(
      new Request('http://console.test/console/sign-in', {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          cookie,
          origin: 'http://console.test',
          'sec-fetch-site': 'same-origin',
        },
        body: new URLSearchParams({ csrf, email }).toString(),
      }),
    );
    await res.text();
    if (res.status !== 200) throw new Error(`sign-in answered ${res.status}`);
    return performance.now() - t;
  };
  const member: number[] = [];
  const stranger: number[] = [];
  for (let i = 0; i < RUNS + 10; i++) {
    // Each pair in turn order, so that neither side always follows the other's mail.
    const first = i % 2 === 0 ? 'member' : 'stranger';
    const times = { member: 0, stranger: 0 };
    for (const who of first === 'member' ? (['member', 'stranger'] as const) : (['stranger', 'member'] as const)) {
      times[who] = await ask(who === 'member' ? `m${i}@team.example` : `s${i}@elsewhere.example`);
      // The mail lane's work after the answer (sending a team address's message, dropping another's) is done before the
      // next request, so that neither side is timed while the other's mail is on its way.
      while (
        Number((await engine.db.one<{ n: unknown }>("SELECT count(*) AS n FROM mail WHERE status = 'pending'"))!.n) > 0
      )
        await new Promise((r) => setTimeout(r, 1));
    }
    if (i < 10) continue; // warm-up
    member.push(times.member);
    stranger.push(times.stranger);
  }
  await engine.close();
  return {
    member: quantile(member, 0.5),
    memberP95: quantile(member, 0.95),
    stranger: quantile(stranger, 0.5),
    strangerP95: quantile(stranger, 0.95),
  };
}

const dir = mkdtempSync(join(tmpdir(), 'bench-sign-in-'));
const rows: string[] = [];
try {
  const sqlite = await measure(join(dir, 'sign-in.db'));
  rows.push(
    `| SQLite | ${f(sqlite.member)} / ${f(sqlite.memberP95)} | ${f(sqlite.stranger)} / ${f(sqlite.strangerP95)} | ${(sqlite.member / sqlite.stranger).toFixed(2)} |`,
  );
  const pg = await freshPg('bench_sign_in');
  try {
    const postgres = await measure(pg);
    rows.push(
      `| PostgreSQL | ${f(postgres.member)} / ${f(postgres.memberP95)} | ${f(postgres.stranger)} / ${f(postgres.strangerP95)} | ${(postgres.member / postgres.stranger).toFixed(2)} |`,
    );
  } finally {
    await dropPg('bench_sign_in');
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
  sink.kill();
}

const section = `## Console sign-in: a team address against any other

\`npm run bench\` (bench/sign-in.ts), ${new Date().toISOString().slice(0, 10)}: \`POST /console/sign-in\` through \`app.fetch\`,
${RUNS} addresses on a team and ${RUNS} on none, alternating, with the scheduler sending the mail to a local SMTP server
(its own process) between requests. Both answers write the sign-in and its mail to the outbox and answer; the mail lane sends the message only to
an address on a team (docs/security.md). Before, the answer awaited the SMTP send for a team address: 115-136 ms against
6-19 ms for any other, as the 2026-11 audit measured it.

| database | team address, ms (p50 / p95) | other address, ms (p50 / p95) | ratio of the medians |
|---|---|---|---|
${rows.join('\n')}

${notes('sign-in-notes.md')}
`;
console.log(section);
writeSection(section);
