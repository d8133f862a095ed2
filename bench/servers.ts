// The identify benchmarks' servers and load, shared by bench/run.ts (stack against reference) and
// bench/identify-profile.ts (the stack under a profiler): starting a server process, stopping it, and the request body
// of each scenario.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

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
