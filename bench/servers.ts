// The identify benchmarks' servers and load, shared by bench/run.ts (stack against reference),
// bench/identify-profile.ts (the stack under a profiler) and bench/identify-cpu.ts (each side's CPU): starting a server
// process, stopping it, seeding a database, and the load of each scenario.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import autocannon from 'autocannon';

export const ROOT = join(import.meta.dirname, '..');
/** tsx's command line, to run bench/server.ts from the sources of the bench. */
export const TSX = join(ROOT, 'node_modules/tsx/dist/cli.mjs');

export interface Started {
  child: ChildProcess;
  /** The JSON line a server prints once listening (bench/server.ts: also the seeded key and workspace). */
  info: { url: string; key?: string; organizationId?: string };
}

/** `node <args>` in the repository, resolved with the first JSON line it prints; rejected if it exits before. */
export function start(args: string[]): Promise<Started> {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve({ child, info: JSON.parse(line) });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}`)));
  });
}

/** SIGTERM, and wait for the exit. */
export async function stop(s: Started): Promise<void> {
  s.child.removeAllListeners('exit');
  const exited = new Promise((r) => s.child.once('exit', r));
  s.child.kill('SIGTERM');
  await exited;
}

export type Scenario = 'existing' | 'new';

/** The contacts bench/server.ts --seed makes, u0 to u<SEEDED - 1>. */
export const SEEDED = 1000;

/** Identify's body for request `i`: `existing` changes the name of a seeded contact; `new` creates a contact (`tag` keeps runs apart). */
export function identifyBody(scenario: Scenario, i: number, tag: string): string {
  return JSON.stringify(
    scenario === 'existing'
      ? { externalUserId: `u${i % SEEDED}`, email: `u${i % SEEDED}@example.com`, name: `name ${i}` }
      : { externalUserId: `${tag}-${i}`, email: `${tag}-${i}@example.com`, name: 'new' },
  );
}

/**
 * Seed `db` with a workspace, a key and SEEDED contacts through the stack's server (started with `node <prefix>
 * bench/server.ts`, and stopped again); the key and workspace the servers that take load are given.
 */
export async function seedIdentify(prefix: string[], db: string): Promise<{ key: string; organizationId: string }> {
  const seeded = await start([...prefix, 'bench/server.ts', '--db', db, '--seed', String(SEEDED)]);
  await stop(seeded);
  return seeded.info as { key: string; organizationId: string };
}

/** Identify load on the server at `url`: `connections` clients for `duration` s, each request's body `identifyBody`'s. */
export function identifyLoad(
  url: string,
  key: string,
  scenario: Scenario,
  tag: string,
  connections: number,
  duration: number,
): Promise<autocannon.Result> {
  let n = 0;
  return autocannon({
    url: `${url}/v1/contacts/identify`,
    connections,
    duration,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    requests: [
      { method: 'POST', setupRequest: (req) => ({ ...req, body: identifyBody(scenario, n++, tag) }) as typeof req },
    ],
  });
}
