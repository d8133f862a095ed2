import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

const { version, homepage } = JSON.parse(readFileSync(join(import.meta.dirname, 'package.json'), 'utf8')) as {
  version: string;
  homepage: string;
};

export default defineConfig({
  define: { __PACKAGE_VERSION__: JSON.stringify(version), __PACKAGE_HOMEPAGE__: JSON.stringify(homepage) },
  resolve: {
    // Examples import the package by name, as users do; the tests run them on the sources, so `npm test` needs no build.
    alias: [{ find: /^feedback-service\/([a-z0-9]+)$/, replacement: join(import.meta.dirname, 'src/$1/index.ts') }],
  },
  test: {
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    // The net that catches a hung test, not a budget: tests wait for the condition they need (test/helpers/wait.ts),
    // and at load 15 on two cores a test that starts processes or a browser took up to 40 s. No test sets a shorter one.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // A worker runs its files one after another in one process, its modules loaded once (not once a file): on two
    // cores the suite took 270 s isolated and 206 s so (2026-11-28), the loading 95 s -> 12 s of the workers' time.
    // So a file may leave nothing behind: environment variables are stubbed and put back (`vi.stubEnv`), servers,
    // engines and mocks closed in `afterAll`.
    isolate: false,
    // Two files at once even on two cores (vitest's default there is one): most of a file's time is waiting on a
    // server, a browser, a spawned process or PostgreSQL, and every file has its own databases and ports. On two
    // cores the suite took 550 s with one worker, 289 s with two and 243 s with three (2026-11-27); three crowded
    // the timed tests' margins for 46 s more.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The key that seals webhook secrets at rest, as a deployment sets it (PostgreSQL needs one). The tests of the
    // embedded default's key file clear it (test/engine/secrets/secrets.test.ts, test/cli/cli.test.ts).
    env: { FEEDBACK_SECRET_KEY: '8gX3WODrr8t9MmXJxBUCO6q6sa3ULrXjAHZ8Uz1mza0' },
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
