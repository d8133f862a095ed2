// npm run screenshots: every page of the portal and the console, at 1280 and 390 px, light and dark, written to
// docs/images/<face>-<page>-<width>-<theme>.png (docs/portal.md and docs/console.md show them). It starts what the
// tests start: a fresh SQLite file, the engine migrated and seeded, the server, Debian's chromium. Then the board page
// on a phone in German, Japanese and Arabic (docs/images/portal-board-<locale>-390.png). `npm run screenshots --
// languages` takes only those (Japanese and Arabic need their fonts: apt-get install fonts-noto-cjk fonts-noto-core).
const ONLY_LANGUAGES = process.argv.includes('languages');

import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConsole } from '../src/console/index.js';
import { createEngine, translator } from '../src/engine/index.js';
import { createApp, serveNode } from '../src/h3/index.js';
import { createPortal } from '../src/portal/index.js';
import { launchChromium } from '../test/helpers/browser.js';
import { startFakeGitHub } from '../test/helpers/fakes/github.js';
import { startFakeLinear } from '../test/helpers/fakes/linear.js';
import { startFakeSlack } from '../test/helpers/fakes/slack.js';
import { SCREENS, seedTour, THEMES, tourContext, tourSession } from '../test/helpers/tour.js';

const OUT = join(import.meta.dirname, '../docs/images');
const dir = mkdtempSync(join(tmpdir(), 'feedback-screenshots-'));
const receiver = createServer((_req, res) => void res.writeHead(200).end('ok')).listen(0, '127.0.0.1');
await once(receiver, 'listening');
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
// Linear, GitHub and Slack as the tests' local stand-ins: the Integrations page shows connected accounts.
const [linear, github, slack] = await Promise.all([startFakeLinear(), startFakeGitHub(), startFakeSlack()]);
const engine = await createEngine({
  log: () => {},
  database: join(dir, 'shots.db'),
  webhooks: { allowPrivateNetworks: true },
  mail: { publicUrl: 'https://feedback.acme.example' },
  integrations: {
    linear: { apiUrl: linear.apiUrl },
    github: { apiUrl: github.origin },
    slack: { apiUrl: slack.apiUrl, hooksUrl: slack.hooksUrl },
  },
});
await engine.migrate();
const server = await serveNode(
  createApp({ engine, logError: () => {}, sites: [createPortal({ engine }), createConsole({ engine })] }),
  { port: 0 },
);
const browser = await launchChromium();
try {
  const { stops, signInLink, organizationId } = await seedTour(engine, receiverUrl);
  const session = await tourSession(browser, server.url, signInLink);
  const board = stops.find((s) => s.face === 'portal' && s.name === 'board')!;
  for (const locale of ['de', 'ja', 'ar']) {
    const context = await browser.newContext({ locale, viewport: { width: 390, height: 844 }, isMobile: true });
    const page = await context.newPage();
    await page.goto(`${server.url}${board.path}`);
    const file = join(OUT, `portal-board-${locale}-390.png`);
    await page.screenshot({ path: file });
    console.log(file);
    await context.close();
  }
  for (const screen of ONLY_LANGUAGES ? [] : SCREENS)
    for (const theme of THEMES) {
      const context = await tourContext(browser, session, screen, theme);
      const outside = await tourContext(browser, null, screen, theme);
      for (const stop of stops) {
        const page = await (stop.signedOut ? outside : context).newPage();
        await page.goto(`${server.url}${stop.path}`);
        await stop.steps?.(page, translator());
        const file = join(OUT, `${stop.face}-${stop.name}-${screen.name}-${theme}.png`);
        await page.screenshot({ path: file, fullPage: screen.width > 500 });
        await page.close();
        console.log(file);
      }
      await context.close();
      await outside.close();
    }
  // The widget's panel open on a workspace's own site (another origin: localhost, not 127.0.0.1).
  const host = createServer(
    (_req, res) =>
      void res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          `<!doctype html><html lang="en"><title>Acme app</title><style>body{font:16px system-ui;margin:2rem}</style><main><h1>Acme app</h1><p>Your dashboard.</p></main><script src="${server.url}/portal/widget.js" data-portal="acme" async></script></html>`,
        ),
  ).listen(0, '127.0.0.1');
  await once(host, 'listening');
  const origin = `http://localhost:${(host.address() as AddressInfo).port}`;
  await engine.organizations.update(organizationId, { portalFrameOrigins: [origin] });
  try {
    for (const screen of ONLY_LANGUAGES ? [] : SCREENS)
      for (const theme of THEMES) {
        const context = await tourContext(browser, session, screen, theme);
        const page = await context.newPage();
        await page.goto(`${origin}/`);
        await page.getByRole('button', { name: 'Feedback' }).click();
        await page.frameLocator('iframe[title="Feedback"]').getByRole('heading', { name: 'Boards' }).waitFor();
        const file = join(OUT, `portal-widget-${screen.name}-${theme}.png`);
        await page.screenshot({ path: file });
        console.log(file);
        await context.close();
      }
  } finally {
    host.close();
  }
} finally {
  await browser.close();
  await server.close();
  await engine.close();
  receiver.close();
  await Promise.all([linear.close(), github.close(), slack.close()]);
  rmSync(dir, { recursive: true, force: true });
}
