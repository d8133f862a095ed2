import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine/index.js';
import { createApp, serveNode, type NodeServer } from '../../src/h3/index.js';

import { HAS_CHROMIUM, launchChromium } from '../helpers/browser.js';

// The API reference page in a real browser: Debian's chromium, driven by playwright-core.
describe.skipIf(!HAS_CHROMIUM)('the API reference page at /docs (chromium)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feedback-docs-'));
  let engine: Engine;
  let server: NodeServer;
  let browser: Browser;
  beforeAll(async () => {
    engine = await createEngine({ database: join(dir, 'docs.db'), log: () => {} });
    await engine.migrate();
    server = await serveNode(createApp({ engine, logError: () => {} }), { port: 0 });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await engine?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('renders the OpenAPI document with everything served by this server, no key and no CDN', async () => {
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const res = await page.goto(`${server.url}/docs`);
    expect(res?.status()).toBe(200);
    // The identify operation, by its summary, as Scalar lists it.
    await page.getByText('Create or update a contact by externalUserId').first().waitFor({ timeout: 30_000 });
    expect(await page.getByText('Feedback Service API').first().isVisible()).toBe(true);
    if (process.env.DOCS_SCREENSHOT) {
      mkdirSync(dirname(process.env.DOCS_SCREENSHOT), { recursive: true });
      await page.screenshot({ path: process.env.DOCS_SCREENSHOT, fullPage: false });
    }
    // Everything the page loaded came from this server.
    const foreign = requested.filter((u) => !u.startsWith(server.url) && !u.startsWith('data:') && !u.startsWith('blob:'));
    expect(foreign, foreign.join(" ")).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('serves the bundle gzipped to browsers that take it', async () => {
    const res = await fetch(`${server.url}/docs/api-reference.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect((await res.text()).length).toBeGreaterThan(1_000_000); // fetch decodes it
  });
});
