import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

// The faces' layering (.dependency-cruiser.cjs, `npm run lint:layers`): the ground floor imports nothing of ours,
// nothing imports a face above it, faces enter each other only through their public entries, and there are no cycles.
it('the source keeps the layering of .dependency-cruiser.cjs', { timeout: 60_000 }, async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'),
      'src',
      '--config',
      '.dependency-cruiser.cjs',
      '--output-type',
      'json',
    ],
    { cwd: root, maxBuffer: 64 * 1024 * 1024 },
  ).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
  const { summary } = JSON.parse(stdout) as {
    summary: {
      totalCruised: number;
      violations: Array<{ rule: { name: string }; from: string; to: string }>;
      ruleSetUsed: { forbidden: unknown[] };
    };
  };
  expect(summary.ruleSetUsed.forbidden.length).toBeGreaterThanOrEqual(10);
  expect(summary.totalCruised).toBeGreaterThan(100); // it read the source, not an empty folder
  expect(summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)).toEqual([]);
});
