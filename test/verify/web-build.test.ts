import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { expect, it } from 'vitest';
import { bundle } from '../helpers/bundle.js';

const root = join(import.meta.dirname, '../..');

it('the web build of verify bundles without any node: import, Buffer or process, and verifies the vector', async () => {
  const result = await build({
    entryPoints: [join(root, 'src/verify/index.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    // Anything outside src/verify (except type-only imports, which vanish) would be bundled in and show here.
  });
  const code = result.outputFiles[0]!.text;
  expect(code).not.toMatch(/["']node:/);
  expect(code).not.toMatch(/\bBuffer\b/);
  expect(code).not.toMatch(/\bprocess\./);
  expect(code).not.toMatch(/\brequire\(/);
  const mod = await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
  const header = await mod.signPayload('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', '{}', 1795310400);
  expect(header).toMatch(/^t=1795310400,v1=[0-9a-f]{64}$/);
  // The source files of the web build import nothing outside src/verify at run time.
  for (const file of [
    'index.ts',
    'internal/api.ts',
    'internal/core.ts',
    'internal/web-crypto.ts',
    'internal/crypto.ts',
    'internal/dedupe.ts',
    'internal/errors.ts',
    'internal/exports.ts',
  ]) {
    const src = readFileSync(join(root, 'src/verify', file), 'utf8');
    for (const m of src.matchAll(/^import (?!type )[^;]*from '([^']+)'/gm))
      expect(m[1], file).toMatch(/^\.\.?\/(?!\.\.\/)/);
    for (const m of src.matchAll(/^export [^;]*from '([^']+)'/gm))
      if (!/^export type/.test(m[0])) expect(m[1], file).toMatch(/^\.\.?\/(?!\.\.\/)/);
  }
});

it('feedback-service/verify bundles to under 6 KB minified, web and Node builds alike', async () => {
  for (const [entry, platform] of [
    ['src/verify/index.ts', 'neutral'],
    ['src/verify/node.ts', 'node'],
  ] as const) {
    const { bytes, inputs } = await bundle(entry, platform);
    expect(
      inputs.every((f) => f.startsWith('src/verify/')),
      entry,
    ).toBe(true);
    expect(bytes, entry).toBeLessThan(6 * 1024);
  }
});
