import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    'schemas/index': 'src/schemas/index.ts',
    'contract/index': 'src/contract/index.ts',
    'engine/index': 'src/engine/index.ts',
    'h3/index': 'src/h3/index.ts',
    'verify/index': 'src/verify/index.ts',
    'verify/node': 'src/verify/node.ts',
    'client/index': 'src/client/index.ts',
    'msw/index': 'src/msw/index.ts',
    'mcp/index': 'src/mcp/index.ts',
    'cli/index': 'src/cli/index.ts',
  },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  dts: {
    entry: {
      'schemas/index': 'src/schemas/index.ts',
      'contract/index': 'src/contract/index.ts',
      'engine/index': 'src/engine/index.ts',
      'h3/index': 'src/h3/index.ts',
      'verify/index': 'src/verify/index.ts',
      'client/index': 'src/client/index.ts',
      'msw/index': 'src/msw/index.ts',
      'mcp/index': 'src/mcp/index.ts',
    },
  },
  clean: true,
  splitting: true,
  sourcemap: true,
  shims: false,
});
