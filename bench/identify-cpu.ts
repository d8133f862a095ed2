// What identify costs in CPU, per request, on each side of the wire: the stack's server and the reference's, each under
// the same autocannon load in turn, with the CPU time their processes (and PostgreSQL's, on PostgreSQL) used during the
// load window, read from /proc (user and system apart). Unlike the V8 profile (bench/identify-profile.ts), which
// samples by the clock and so counts the time a process spends descheduled inside a system call as that call's, this
// is only work done. Linux only; not part of `npm run bench`; docs/benchmarks.md quotes it.
//   npx tsx bench/identify-cpu.ts <sqlite|postgresql> <connections> <existing|new>
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropPg, freshPg } from './databases.js';
import { identifyLoad, type Scenario, seedIdentify, start, stop, TSX } from './servers.js';

const [database, connections, scenario] = [
  process.argv[2] ?? 'postgresql',
  Number(process.argv[3] ?? 10),
  (process.argv[4] ?? 'existing') as Scenario,
];
const DURATION = 6;
const TICK_US = 1e6 / Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());

/** The processes pgrep finds with these arguments (it exits 1 when there are none). */
function pgrep(...args: string[]): number[] {
  try {
    return execFileSync('pgrep', args, { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}
/** A process and its descendants (tsx's command line runs the server in a child). */
const tree = (pid: number): number[] => [pid, ...pgrep('-P', String(pid)).flatMap(tree)];

/** User and system CPU of these processes so far, in microseconds (a process that ended since counts nothing). */
function cpu(pids: number[]): { user: number; system: number } {
  let user = 0;
  let system = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      user += Number(fields[11]) * TICK_US;
      system += Number(fields[12]) * TICK_US;
    } catch {
      // ended
    }
  }
  return { user, system };
}

const dir = mkdtempSync(join(tmpdir(), 'feedback-cpu-'));
const db = database === 'sqlite' ? join(dir, 'identify.db') : await freshPg('fs_bench_cpu');
try {
  const { key, organizationId } = await seedIdentify([TSX], db);
  const servers = [
    ['stack', [TSX, 'bench/server.ts', '--db', db, '--key', key, '--org', organizationId]],
    ['reference', ['bench/reference-server.mjs', '--db', db]],
  ] as const;
  console.log(`identify ${database} ${scenario} x${connections}: CPU per request in us (user + system)`);
  for (const [label, args] of servers) {
    const server = await start([...args]);
    const load = (duration: number) => identifyLoad(server.info.url, key, scenario, label, connections, duration);
    try {
      await load(2); // warm-up
      const pids = tree(server.child.pid!);
      const pg = database === 'postgresql' ? pgrep('-u', 'postgres') : [];
      const [node0, pg0] = [cpu(pids), cpu(pg)];
      const result = await load(DURATION);
      const [node1, pg1] = [cpu(pids), cpu(pg)];
      const per = (a: number, b: number) => ((b - a) / result.requests.total).toFixed(0);
      console.log(
        `${label.padEnd(9)} ${result.requests.average.toFixed(0).padStart(6)} req/s  server ${per(node0.user, node1.user)} + ${per(node0.system, node1.system)}` +
          (database === 'postgresql' ? `  postgres ${per(pg0.user, pg1.user)} + ${per(pg0.system, pg1.system)}` : '') +
          (result.non2xx ? `  (${result.non2xx} error answers)` : ''),
      );
    } finally {
      await stop(server);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
  if (database === 'postgresql') await dropPg('fs_bench_cpu');
}
