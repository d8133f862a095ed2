// Where identify's time goes: the stack's server (bench/server.ts on the build) under autocannon's identify load, with
// V8's CPU profiler on, then its samples summed by who spent them (libsql, the pg driver, Node's HTTP and sockets, h3,
// zod, our code, the garbage collector). Not part of `npm run bench`; docs/benchmarks.md quotes its split.
//   npx tsx bench/identify-profile.ts <database: a SQLite file or a postgres:// URL> <connections> <existing|new>
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import './databases.js'; // FEEDBACK_SECRET_KEY for a PostgreSQL server
import { identifyLoad, ROOT, type Scenario, seedIdentify, start, stop } from './servers.js';

const [database, connections, scenario] = [
  process.argv[2]!,
  Number(process.argv[3] ?? 50),
  (process.argv[4] ?? 'existing') as Scenario,
];
const DURATION = 8;
const dir = mkdtempSync(join(tmpdir(), 'feedback-profile-'));

// The tsx loader in this process, not tsx's command line (which runs the script in a child, out of the profiler's reach).
const loader = ['--import', join(ROOT, 'node_modules/tsx/dist/loader.mjs')];
const { key, organizationId } = await seedIdentify(loader, database);
const server = await start([
  '--cpu-prof',
  `--cpu-prof-dir=${dir}`,
  ...loader,
  'bench/server.ts',
  '--db',
  database,
  '--key',
  key,
  '--org',
  organizationId,
]);
const result = await identifyLoad(server.info.url, key, scenario, 'profile', connections, DURATION);
await stop(server);

const file = join(dir, readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))!);
const profile = JSON.parse(readFileSync(file, 'utf8')) as {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string } }>;
  samples: number[];
  timeDeltas: number[];
};
rmSync(dir, { recursive: true, force: true });
const self = new Map<number, number>();
// Only the samples of the load's last DURATION seconds (the server stops right after it): not its start-up.
for (let i = profile.samples.length - 1, window = 0; i >= 0 && window < DURATION * 1e6; i--) {
  const delta = profile.timeDeltas[i] ?? 0;
  window += delta;
  self.set(profile.samples[i]!, (self.get(profile.samples[i]!) ?? 0) + delta);
}
const who = (name: string, url: string) => {
  if (name === '(idle)') return 'idle';
  if (name === '(garbage collector)') return 'garbage collector';
  if (name === 'writev' || name === 'writeUtf8String' || name === 'writeBuffer') return 'socket writes (writev)';
  if (url.includes('node_modules/libsql')) return 'libsql';
  if (url.includes('node_modules/pg')) return 'pg driver';
  if (url.includes('node_modules/zod')) return 'zod';
  if (url.includes('node_modules/h3') || url.includes('node_modules/srvx')) return 'h3 and srvx';
  if (url.includes('/dist/')) return 'our code';
  if (url.startsWith('node:')) return "Node's HTTP, streams and the rest of Node";
  return 'other (V8, natives)';
};
const totals = new Map<string, number>();
for (const node of profile.nodes) {
  const key = who(node.callFrame.functionName, node.callFrame.url);
  totals.set(key, (totals.get(key) ?? 0) + (self.get(node.id) ?? 0));
}
const busy = [...totals].filter(([k]) => k !== 'idle').reduce((sum, [, v]) => sum + v, 0);
const requests = result.requests.average * DURATION;
console.log(
  `${database.startsWith('postgres') ? 'PostgreSQL' : 'SQLite'} ${scenario}, ${connections} clients: ${result.requests.average.toFixed(0)} req/s; the server's busy time, ${(busy / requests).toFixed(0)} us per request:`,
);
for (const [k, v] of [...totals].filter(([k]) => k !== 'idle').sort((a, b) => b[1] - a[1]))
  console.log(`  ${k}: ${((100 * v) / busy).toFixed(1)} % (${(v / requests).toFixed(0)} us)`);
