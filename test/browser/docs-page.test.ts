import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, useBrowserStand } from '../helpers/browser.js';

// The API reference page in a real browser: Debian's chromium, driven by playwright-core.
describe.skipIf(!HAS_CHROMIUM)('the API reference page at /docs (chromium)', () => {
  const stand = useBrowserStand();

  it('renders the OpenAPI document with everything served by this server, no key and no CDN', async () => {
    const page = await stand.browser.newPage();
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const res = await page.goto(`${stand.server.url}/docs`);
    expect(res?.status()).toBe(200);
    // The identify operation, by its summary, as Scalar lists it.
    await page.getByText('Create or update a contact by externalUserId').first().waitFor({ timeout: 30_000 });
    expect(await page.getByText('Feedback Service API').first().isVisible()).toBe(true);
    if (process.env.DOCS_SCREENSHOT) {
      mkdirSync(dirname(process.env.DOCS_SCREENSHOT), { recursive: true });
      await page.screenshot({ path: process.env.DOCS_SCREENSHOT, fullPage: false });
    }
    // Everything the page loaded came from this server.
    const foreign = requested.filter(
      (u) => !u.startsWith(stand.server.url) && !u.startsWith('data:') && !u.startsWith('blob:'),
    );
    expect(foreign, foreign.join(' ')).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('serves the bundle gzipped to browsers that take it', async () => {
    const res = await fetch(`${stand.server.url}/docs/api-reference.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect((await res.text()).length).toBeGreaterThan(1_000_000); // fetch decodes it
  });
});
