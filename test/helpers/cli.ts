import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Node arguments that run the `feedback-service` command from source through tsx's loader (resolved from this
 * repository, so it works from any cwd): tests need no build. `.ci/run` checks the built command separately.
 */
export const CLI_ARGS = [
  '--import',
  pathToFileURL(join(import.meta.dirname, '../../node_modules/tsx/dist/loader.mjs')).href,
  join(import.meta.dirname, '../../src/cli/index.ts'),
];
