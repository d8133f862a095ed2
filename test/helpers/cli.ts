import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { run } from '../../src/cli/program.js';

/**
 * Node arguments that run the `feedback-service` command from source through tsx's loader (resolved from this
 * repository, so it works from any cwd): for what needs a process of its own (serve, the load trace, the smoke test).
 * `.ci/run` checks the built command separately.
 */
export const CLI_ARGS = [
  '--import',
  pathToFileURL(join(import.meta.dirname, '../../node_modules/tsx/dist/loader.mjs')).href,
  join(import.meta.dirname, '../../src/cli/index.ts'),
];

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The command line `args`, run in this process: what it printed on each stream and its exit code. */
export async function command(...args: string[]): Promise<CommandResult> {
  let stdout = '';
  let stderr = '';
  const code = await run(args, { out: (text) => void (stdout += text), err: (text) => void (stderr += text) });
  return { code, stdout, stderr };
}

/** `command`, refused as execFile refuses a failed process (the result is the rejection), else its stdout. */
export async function succeeds(...args: string[]): Promise<string> {
  const result = await command(...args);
  if (result.code !== 0)
    throw Object.assign(new Error(`exit ${result.code}: ${result.stdout}${result.stderr}`), result);
  return result.stdout;
}
