import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGS, LOCALES, type Locale, translator } from '../../src/engine/index.js';
import { createPortal } from '../../src/portal/index.js';
import { axeViolations, HAS_CHROMIUM, useBrowserStand, withAxe } from '../helpers/browser.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';
import { seedTour, TOUR_ENGINE_OPTIONS, type TourStop } from '../helpers/tour.js';

// Every portal page (and a mail's page) in each of its languages, on a phone (docs/portal.md, "Languages"): the
// browser asks for the language (Accept-Language), and each page answers in it, in its direction, with no message
// name and no English message left on it, no wider than the screen, and axe finds nothing (right to left included).
const receiver: Receiver = await startReceiver((_req, res) => void res.writeHead(200).end('ok'));
afterAll(() => receiver.close());

const PHONE = { width: 390, height: 844 };
const english = CATALOGS.en;
const keys = Object.keys(english) as Array<keyof typeof english>;

/** What on the page (screen readers' text included) is a message's name, or an English message where the language has its own words. */
async function untranslated(page: Page, locale: Locale): Promise<string[]> {
  const text = await page.evaluate(() => document.body.textContent ?? '');
  const names = keys.filter((k) => text.includes(k));
  if (locale === 'en') return names;
  // Messages of three words or more, without values, that the language words otherwise (the seed's own text is
  // English: short messages such as "Open" could be in it).
  const leftovers = keys.filter((k) => {
    const message = english[k];
    return (
      !/[{<]/.test(message) &&
      message.split(' ').length >= 3 &&
      CATALOGS[locale][k] !== message &&
      text.includes(message)
    );
  });
  return [...names, ...leftovers.map((k) => `${k}: ${english[k]}`)];
}

describe.skipIf(!HAS_CHROMIUM)('every portal page in every language, on a phone', () => {
  // The tour files codes and votes for each language: the budgets of one person's minute would refuse them.
  const stand = useBrowserStand(
    (engine) => ({
      sites: [createPortal({ engine, limits: { actionsPerIp: 10_000, codesPerIp: 10_000, codesPerEmail: 100 } })],
    }),
    TOUR_ENGINE_OPTIONS,
  );
  let stops: TourStop[];
  beforeAll(async () => {
    const tour = await seedTour(stand.engine, `${receiver.origin}/hooks`);
    stops = tour.stops.filter((s) => s.face !== 'console');
  });

  for (const locale of LOCALES)
    it(`${locale}: each page in it and in its direction, nothing untranslated, within 390 px, axe finds nothing`, async () => {
      const tr = translator(locale);
      const context = await stand.browser.newContext({
        locale,
        bypassCSP: true, // axe runs in the page
        viewport: PHONE,
        isMobile: true,
        hasTouch: true,
      });
      await withAxe(context);
      const tab = await context.newPage();
      const found: string[] = [];
      try {
        for (const stop of stops) {
          const res = await tab.goto(`${stand.server.url}${stop.path}`);
          const where = `${locale} ${stop.face} ${stop.name}`;
          expect(res?.status(), where).toBe(stop.name === 'not-found' ? 404 : 200);
          await stop.steps?.(tab, tr);
          const root = await tab.evaluate(() => [document.documentElement.lang, document.documentElement.dir]);
          expect(root, where).toEqual([locale, tr.dir]);
          // The theme button's words are set by its script, from the page's.
          expect(await tab.locator('[data-theme-toggle]').textContent(), where).toBe(tr.t('layout.themeAuto'));
          for (const left of await untranslated(tab, locale)) found.push(`${where}: ${left}`);
          const width = await tab.evaluate(() => document.documentElement.scrollWidth);
          if (width > PHONE.width) found.push(`${where}: ${width} px wide`);
          for (const v of await axeViolations(tab)) found.push(`${where}: ${v}`);
        }
      } finally {
        await context.close();
      }
      expect(found).toEqual([]);
    });
});
