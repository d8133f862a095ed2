import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

// The faces' layering (.dependency-cruiser.cjs, `npm run lint:layers`): the ground floor imports nothing of ours,
// nothing imports a face above it, faces enter each other only through their public entries, and there are no cycles.
it('the source keeps the layering of .dependency-cruiser.cjs', async () => {
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

// A function a reader can hold in view: none in src/ runs over 80 lines (as formatted), so a long one is split into
// named steps instead of growing.
it('no function in src/ is over 80 lines', async () => {
  const ts = (await import('typescript')).default;
  const { readdirSync, readFileSync } = await import('node:fs');
  const files = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  const long: string[] = [];
  for (const file of files) {
    const source = ts.createSourceFile(
      file,
      readFileSync(join(root, 'src', file), 'utf8'),
      ts.ScriptTarget.Latest,
      true,
    );
    const visit = (node: import('typescript').Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
        const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        if (last - first + 1 > 80) long.push(`src/${file}:${first + 1} (${last - first + 1} lines)`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  expect(files.length).toBeGreaterThan(100);
  expect(long).toEqual([]);
});
