import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsole } from '../../src/console/index.js';
import { CATALOGS, consoleEn, translator } from '../../src/engine/index.js';
import { createPortal } from '../../src/portal/index.js';
import { axeViolations, HAS_CHROMIUM, useBrowserStand, withAxe } from '../helpers/browser.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';
import {
  SCREENS,
  seedTour,
  THEMES,
  TOUR_ENGINE_OPTIONS,
  type TourSession,
  type TourStop,
  tourContext,
  tourSession,
} from '../helpers/tour.js';

// The look (docs/portal.md, docs/console.md): every page of the portal and the console, at 1280 and 390 px, in the
// light and the dark theme, is no wider than the screen and has no serious or critical accessibility violation
// (axe-core, colour contrast included). The same tour is what `npm run screenshots` photographs.
const MESSAGE_NAMES = new Set([...Object.keys(CATALOGS.en), ...Object.keys(consoleEn)]);
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const receiver: Receiver = await startReceiver((_req, res) => void res.writeHead(200).end('ok'));
afterAll(() => receiver.close());

describe.skipIf(!HAS_CHROMIUM)('the look of every page, on a laptop and a phone, light and dark', () => {
  const stand = useBrowserStand(
    (engine) => ({ sites: [createPortal({ engine }), createConsole({ engine })] }),
    TOUR_ENGINE_OPTIONS,
  );
  let stops: TourStop[];
  let session: TourSession;
  let organizationId: string;
  beforeAll(async () => {
    const tour = await seedTour(stand.engine, `${receiver.origin}/hooks`);
    stops = tour.stops;
    organizationId = tour.organizationId;
    session = await tourSession(stand.browser, stand.server.url, tour.signInLink);
  });

  for (const screen of SCREENS)
    for (const theme of THEMES)
      it(`at ${screen.width} px, ${theme}: no page is wider than the screen, and axe finds nothing`, async () => {
        const context = await tourContext(stand.browser, session, screen, theme);
        const outside = await tourContext(stand.browser, null, screen, theme);
        // One tab for each: going from page to page as a person does (a new tab each time costs more than the page).
        await withAxe(context);
        await withAxe(outside);
        const tabs = { in: await context.newPage(), out: await outside.newPage() };
        const found: string[] = [];
        try {
          for (const stop of stops) {
            const page = stop.signedOut ? tabs.out : tabs.in;
            const res = await page.goto(`${stand.server.url}${stop.path}`);
            const where = `${stop.face} ${stop.name}`;
            expect(res?.status(), where).toBe(stop.name === 'not-found' ? 404 : 200);
            await stop.steps?.(page, translator());
            // The theme asked for is the one drawn (the page's background is the theme's).
            const background = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
            expect(background, where).toBe(theme === 'dark' ? 'rgb(14, 16, 20)' : 'rgb(255, 255, 255)');
            // Every word on it is a message of the catalogs said in full, never a message's name in its place (code,
            // such as an event's kind, may look like one).
            const texts = await page.evaluate(() => {
              const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
              const out: string[] = [];
              for (let n = walker.nextNode(); n; n = walker.nextNode())
                if (!n.parentElement?.closest('code, pre, textarea')) out.push((n.textContent ?? '').trim());
              return out;
            });
            for (const t of texts) if (MESSAGE_NAMES.has(t)) found.push(`${where}: shows ${t}`);
            const width = await page.evaluate(() => document.documentElement.scrollWidth);
            if (width > screen.width) found.push(`${where}: ${width} px wide`);
            for (const v of await axeViolations(page)) found.push(`${where}: ${v}`);
          }
        } finally {
          await context.close();
          await outside.close();
        }
        expect(found).toEqual([]);
      });

  it('the widget panel, on a site allowed to frame it, at both widths and in both themes: within its frame, axe finds nothing', async () => {
    // The host is another origin (localhost, not 127.0.0.1), as a customer's site is.
    const host = await startReceiver(
      (_req, res) =>
        void res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(
            `<!doctype html><html lang="en"><title>Acme app</title><main><h1>Acme app</h1></main><script src="${stand.server.url}/portal/widget.js" data-portal="acme" async></script></html>`,
          ),
    );
    const origin = host.origin.replace('127.0.0.1', 'localhost');
    await stand.engine.organizations.update(organizationId, { portalFrameOrigins: [origin] });
    const found: string[] = [];
    try {
      for (const screen of SCREENS)
        for (const theme of THEMES) {
          const context = await tourContext(stand.browser, session, screen, theme);
          const page = await context.newPage();
          await page.goto(`${origin}/`);
          await page.getByRole('button', { name: 'Feedback' }).click();
          const frame = page.frameLocator('iframe[title="Feedback"]');
          await frame.getByRole('heading', { name: 'Boards' }).waitFor();
          const inside = page.frames().find((f) => f.url().includes('/portal/acme/'))!;
          const [scroll, width] = await inside.evaluate(() => [document.documentElement.scrollWidth, innerWidth]);
          if (scroll! > width!) found.push(`${screen.name} ${theme}: the panel's page is ${scroll} px in ${width} px`);
          await inside.evaluate(AXE_SOURCE);
          const result = (await inside.evaluate(() =>
            (globalThis as any).axe.run(document, { resultTypes: ['violations'] }),
          )) as { violations: Array<{ id: string; impact: string }> };
          for (const v of result.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical'))
            found.push(`${screen.name} ${theme}: ${v.id}`);
          await context.close();
        }
    } finally {
      await host.close();
      await stand.engine.organizations.update(organizationId, { portalFrameOrigins: [] });
    }
    expect(found).toEqual([]);
  });

  it("the console's posts page shows 20 posts and more on a 1280 x 800 screen, the list above the fold", async () => {
    const context = await tourContext(stand.browser, session, SCREENS[0], 'light');
    try {
      const page = await context.newPage();
      await page.goto(`${stand.server.url}${stops.find((s) => s.face === 'console' && s.name === 'posts')!.path}`);
      const seen = await page.evaluate(
        () =>
          [...document.querySelectorAll('table.posts tbody tr')].filter(
            (tr) => tr.getBoundingClientRect().bottom <= innerHeight,
          ).length,
      );
      expect(seen).toBeGreaterThanOrEqual(20);
    } finally {
      await context.close();
    }
  });

  it('the theme toggle goes round auto, light and dark, and the browser remembers the choice', async () => {
    const context = await stand.browser.newContext({ colorScheme: 'light' });
    try {
      const page = await context.newPage();
      const home = `${stand.server.url}${stops.find((s) => s.name === 'boards')!.path}`;
      await page.goto(home);
      const toggle = page.getByRole('button', { name: /^Theme/ });
      expect(await toggle.textContent()).toBe('Theme: auto');
      await toggle.click();
      expect(await toggle.textContent()).toBe('Theme: light');
      await toggle.click();
      expect(await toggle.textContent()).toBe('Theme: dark');
      const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
      expect(await background()).toBe('rgb(14, 16, 20)');
      // Another page of the same browser, and the console: the choice holds before anything is drawn.
      const other = await context.newPage();
      await other.goto(`${stand.server.url}/console/sign-in`);
      expect(await other.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
      expect(await other.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)).toBe(
        'rgb(14, 16, 20)',
      );
      await toggle.click();
      expect(await toggle.textContent()).toBe('Theme: auto');
      expect(await background()).toBe('rgb(255, 255, 255)');
    } finally {
      await context.close();
    }
  });
});
