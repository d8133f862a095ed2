import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const TSX = pathToFileURL(join(import.meta.dirname, '../../node_modules/tsx/dist/loader.mjs')).href;
const SCHEDULER = join(import.meta.dirname, 'scheduler-process.ts');

export interface SchedulerProcess {
  child: ChildProcess;
  /** SIGTERM, then the totals it printed. */
  stop(): Promise<{ attempted: number; succeeded: number; failed: number; mail: { sent: number } }>;
  /** SIGKILL: the process dies with whatever it holds; resolves once it is gone. */
  kill(): Promise<void>;
}

/** A scheduler in a process of its own (scheduler-process.ts), resolved once it is ready. */
export function startSchedulerProcess(env: Record<string, string>): Promise<SchedulerProcess> {
  const child = spawn(process.execPath, ['--import', TSX, SCHEDULER], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const onData = () => {
      if (!out.includes('ready\n')) return;
      child.stdout!.off('data', onData);
      resolve({
        child,
        stop: async () => {
          child.kill('SIGTERM');
          await exited;
          return JSON.parse(out.split('\n').filter(Boolean).pop()!);
        },
        kill: async () => {
          child.kill('SIGKILL');
          await exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`scheduler process exited with ${code} before it was ready`)));
  });
}
