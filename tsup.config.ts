import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { build } from 'esbuild';
import { defineConfig } from 'tsup';

const { version, homepage } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
  homepage: string;
};

const entry = {
  'schemas/index': 'src/schemas/index.ts',
  'contract/index': 'src/contract/index.ts',
  'engine/index': 'src/engine/index.ts',
  'h3/index': 'src/h3/index.ts',
  'verify/index': 'src/verify/index.ts',
  'verify/node': 'src/verify/node.ts',
  'client/index': 'src/client/index.ts',
  'msw/index': 'src/msw/index.ts',
  'mcp/index': 'src/mcp/index.ts',
  'portal/index': 'src/portal/index.ts',
  'console/index': 'src/console/index.ts',
  'cli/index': 'src/cli/index.ts',
};

export default defineConfig({
  entry,
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  // Declarations for every public subpath but verify/node (it shares verify's) and the command. Their type check reads
  // the services' SDKs' declarations too (Linear's alone are 5 MB): 5.9 GB at its peak, so `npm run build` gives Node an
  // 8 GB heap (the default, about 4 GB, ran out once the integrations came; it was 4.4 GB before them).
  dts: {
    entry: Object.fromEntries(Object.entries(entry).filter(([name]) => name !== 'verify/node' && name !== 'cli/index')),
  },
  clean: true,
  splitting: true,
  sourcemap: true,
  shims: false,
  define: { __PACKAGE_VERSION__: JSON.stringify(version), __PACKAGE_HOMEPAGE__: JSON.stringify(homepage) },
  // The API reference page (/docs) is Scalar's standalone bundle, shipped in the package: no CDN, and none of its
  // dependencies in ours (the one file is kept in assets/: scripts/update-api-reference.sh).
  async onSuccess() {
    mkdirSync('dist/assets', { recursive: true });
    copyFileSync('assets/api-reference.js', 'dist/assets/api-reference.js');
    copyFileSync('assets/api-reference.LICENSE', 'dist/assets/api-reference.LICENSE');
    // The browser scripts (// @ts-check JavaScript, checked strict by tsconfig.browser.json and linted), built for the
    // browsers the pages support and minified; the portal and the console read them at start.
    await build({
      entryPoints: {
        portal: 'src/portal/browser/portal.js',
        widget: 'src/portal/browser/widget.js',
        console: 'src/console/browser/console.js',
        theme: 'src/h3/browser/theme.js',
      },
      outdir: 'dist/assets',
      target: ['chrome100', 'firefox100', 'safari15'],
      minify: true,
      legalComments: 'none',
      logLevel: 'warning',
    });
  },
});
