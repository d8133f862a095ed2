import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { buildProgram } from '../src/cli/program.js';

// The package as the registry shows it and a user installs it: what `npm pack` puts in, the metadata the registry
// links from, and the README and changelog agreeing with the code.
const root = join(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const readme = readFileSync(join(root, 'README.md'), 'utf8');

it("npm pack builds first and ships the docs the command's help points to", async () => {
  expect(pkg.scripts.prepack).toBe('npm run build'); // a pack from a clean clone has dist/
  // --ignore-scripts: the file list without a build (the build's own output is checked by .ci/run).
  const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: root,
  });
  const files: string[] = JSON.parse(stdout)[0].files.map((f: { path: string }) => f.path);
  let help = '';
  buildProgram({ out: (text) => void (help += text), err: () => {} }).outputHelp();
  const pointedTo = [...help.matchAll(/docs\/[a-z-]+\.md/g)].map((m) => m[0]);
  expect(pointedTo.length).toBeGreaterThan(0);
  for (const doc of [...pointedTo, ...[...readme.matchAll(/\]\((docs\/[a-z-]+\.md)/g)].map((m) => m[1]!)])
    expect(files, doc).toContain(doc);
  expect(files).toEqual(expect.arrayContaining(['README.md', 'CHANGELOG.md', 'package.json']));
  expect(files.filter((f) => /^(src|test|bench|scripts)\//.test(f))).toEqual([]);
});

it('ships its licence, and every file its docs link to; the screenshots stay in the repository', async () => {
  const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: root,
  });
  const files = new Set<string>(JSON.parse(stdout)[0].files.map((f: { path: string }) => f.path));
  expect(files).toContain('LICENSE');
  expect([...files].filter((f) => f.endsWith('.png'))).toEqual([]);
  const broken: string[] = [];
  // The README's links are the registry's to resolve (to the repository); the other docs are read from the package too.
  for (const doc of [...files].filter((f) => f.endsWith('.md') && f !== 'README.md')) {
    const text = readFileSync(join(root, doc), 'utf8');
    for (const [, target] of text.matchAll(/\]\(((?:\.\.\/|\.\/)?[\w./-]+?)(?:#[\w-]*)?\)/g)) {
      if (/^[a-z]+:/.test(target!) || target!.endsWith('.png')) continue; // addresses; images render where the docs are read online
      const path = join(doc, '..', target!).replace(/\\/g, '/');
      if (!files.has(path) && ![...files].some((f) => f.startsWith(`${path}/`))) broken.push(`${doc} -> ${target}`);
    }
  }
  expect(broken).toEqual([]);
});

it("names its repository, so the README's relative links resolve on the registry", () => {
  expect(pkg.repository.url).toMatch(/^git\+https:\/\/github\.com\/[\w-]+\/[\w-]+\.git$/);
  expect(pkg.homepage).toMatch(/^https:\/\//);
});

it("its version is the changelog's newest, and the changelog has the releases before it", () => {
  const changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8');
  const versions = [...changelog.matchAll(/^## (\d+\.\d+\.\d+)\b/gm)].map((m) => m[1]);
  expect(versions[0]).toBe(pkg.version);
  expect(versions).toContain('0.1.0');
});

it('the README lists every command the program has', () => {
  const commands = buildProgram({ out: () => {}, err: () => {} })
    .commands.map((c) => c.name())
    .filter((name) => name !== 'help');
  const line = readme.split('\n').find((l) => l.startsWith('| `feedback-service` command |'))!;
  for (const name of commands) expect(line, name).toContain(`\`${name}\``);
});
