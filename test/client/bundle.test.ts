import { expect, it } from 'vitest';
import { bundle } from '../helpers/bundle.js';

it('feedback-service/client bundles to under 30 KB minified, with ky and without zod', async () => {
  const { bytes, inputs } = await bundle('src/client/index.ts', 'browser');
  expect(inputs.some((f) => f.includes('node_modules/ky/'))).toBe(true);
  expect(
    inputs.filter(
      (f) => f.includes('node_modules/zod/') || (f.includes('src/schemas/') && !f.endsWith('error-codes.ts')),
    ),
  ).toEqual([]);
  expect(bytes).toBeLessThan(30 * 1024);
});
