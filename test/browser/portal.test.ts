import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPortal } from '../../src/portal/index.js';
import { axeViolations, HAS_CHROMIUM, useBrowserStand } from '../helpers/browser.js';
import { startReceiver } from '../helpers/receiver.js';

// The portal in a real browser: Debian's chromium, driven by playwright-core; accessibility checked with axe-core.
/** Where the screenshots docs/portal.md shows are written (copied into docs/images by hand when the pages change). */
const SHOTS = process.env.PORTAL_SCREENSHOTS ?? join(import.meta.dirname, '../../test-results/portal');

describe.skipIf(!HAS_CHROMIUM)('the portal in chromium', () => {
  const stand = useBrowserStand((engine) => ({ sites: [createPortal({ engine })] }));
  let base: string;
  let pages: Record<'home' | 'board' | 'post' | 'roadmap' | 'changelog', string>;

  beforeAll(async () => {
    const { engine, server } = stand;
    // A workspace as a screenshot should show it.
    const org = await engine.organizations.create({ name: 'Acme', plan: 'paid' });
    await engine.organizations.update(org.id, { handle: 'acme', portalEnabled: true });
    const w = engine.workspace(org.id);
    const board = await w.boards.create({ name: 'Feature requests' });
    await w.boards.create({ name: 'Bugs' });
    const ideas = [
      ['Dark mode', 'Easier on the eyes at night.', 'planned', 14],
      ['Offline mode', 'Keep working on a plane; sync when back online.', 'in_progress', 9],
      ['Export to CSV', 'Download every post of a board as a spreadsheet.', 'shipped', 6],
      ['Тёмная тема для мобильных', 'Та же тёмная тема в мобильном приложении.', 'open', 3],
      ['<img src=x onerror=alert(1)>', 'A title that tries to run a script.', 'open', 0],
    ] as const;
    const posts = [];
    for (const [title, text, status, votes] of ideas) {
      const p = await w.participation.post({
        boardId: board.id,
        email: `${votes}@example.com`,
        name: 'Ann',
        title,
        body: { json: {}, text },
        notifyMe: false,
      });
      if (status !== 'open') await w.posts.update(p.id, { status });
      for (let i = 0; i < votes; i++)
        await w.participation.vote({ postId: p.id, email: `voter${i}@example.com`, notifyMe: false });
      posts.push(p);
    }
    const first = await w.participation.comment({
      postId: posts[0]!.id,
      email: 'bo@example.com',
      name: 'Bo',
      bodyText: 'Please, my eyes.',
      notifyMe: false,
    });
    await w.participation.comment({
      postId: posts[0]!.id,
      email: 'cy@example.com',
      name: 'Cy',
      parentId: first.id,
      bodyText: 'Same here, and a schedule would be nice.',
      notifyMe: false,
    });
    const entry = await w.changelog.create({
      boardId: board.id,
      title: 'Export to CSV',
      body: 'Every board can be downloaded as CSV from its menu.',
    });
    await w.changelog.publish(entry.id);
    base = `${server.url}/portal/acme`;
    pages = {
      home: `${base}/`,
      board: `${base}/b/feature-requests`,
      post: `${base}/b/feature-requests/p/dark-mode`,
      roadmap: `${base}/roadmap`,
      changelog: `${base}/changelog`,
    };
    mkdirSync(SHOTS, { recursive: true });
  });

  it('every page has no serious or critical accessibility violation (axe-core), and the screenshots are saved', async () => {
    const context = await stand.browser.newContext({ bypassCSP: true, viewport: { width: 1100, height: 800 } });
    for (const [name, url] of Object.entries(pages)) {
      const page = await context.newPage();
      const res = await page.goto(url);
      expect(res?.status(), name).toBe(200);
      expect(await axeViolations(page), name).toEqual([]);
      if (name !== 'home') await page.screenshot({ path: join(SHOTS, `portal-${name}.png`), fullPage: true });
      await page.close();
    }
    await context.close();
  });

  it('works without JavaScript: browse, search, filter and open a post by links and forms', async () => {
    const context = await stand.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(pages.home);
    await page.getByRole('link', { name: 'Feature requests' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Feature requests');
    await page.getByLabel('Search posts').fill('offline');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/q=offline/);
    expect(await page.locator('.post-title').allTextContents()).toEqual(['Offline mode']);
    await page.goto(pages.board);
    await page.getByLabel('Status').selectOption('planned');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/status=planned/);
    expect(await page.locator('.post-title').allTextContents()).toEqual(['Dark mode']);
    await page.getByRole('link', { name: 'Dark mode' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Dark mode');
    expect(await page.getByText('Same here, and a schedule would be nice.').isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Roadmap' }).click();
    expect(await page.getByRole('heading', { name: 'In progress' }).isVisible()).toBe(true);
    await context.close();
  });

  it('a post titled <img src=x onerror=alert(1)> renders as text and runs nothing', async () => {
    const context = await stand.browser.newContext();
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(pages.board);
    expect(await page.getByText('<img src=x onerror=alert(1)>').first().isVisible()).toBe(true);
    expect(await page.locator('main img').count()).toBe(0);
    await page.getByText('<img src=x onerror=alert(1)>').first().click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('<img src=x onerror=alert(1)>');
    expect(dialogs).toEqual([]);
    await context.close();
  });

  it('on a phone (390 px), an unbroken word in a title, a body or a comment never makes a page wider than the screen', async () => {
    const { engine } = stand;
    const org = await engine.organizations.create({ name: 'Long words', plan: 'paid' });
    await engine.organizations.update(org.id, { handle: 'long-words', portalEnabled: true });
    const w = engine.workspace(org.id);
    const board = await w.boards.create({ name: 'Ideas' });
    const word = 'Supercalifragilisticexpialidocious'.repeat(5); // 170 letters: titles take 200
    const post = await w.participation.post({
      boardId: board.id,
      email: 'long@example.com',
      title: word,
      body: { json: {}, text: word },
      notifyMe: false,
    });
    await w.participation.comment({ postId: post.id, email: 'c@example.com', bodyText: word, notifyMe: false });
    const context = await stand.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const at = `${stand.server.url}/portal/long-words`;
    for (const url of [`${at}/b/${board.slug}`, `${at}/b/${board.slug}/p/${post.slug}`]) {
      expect((await page.goto(url))?.status(), url).toBe(200);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), url).toBeLessThanOrEqual(390);
      expect(await page.locator('main [dir="auto"]', { hasText: word }).count(), url).toBeGreaterThan(0);
    }
    await context.close();
  });

  it('another site cannot frame the pages', async () => {
    // A real page on another origin (another port) that frames the portal.
    const host = await startReceiver(
      (_req, res) =>
        void res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(`<!doctype html><title>host</title><iframe src="${pages.board}"></iframe>`),
    );
    const context = await stand.browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(`${host.origin}/`);
      await page.waitForTimeout(1000);
      const framed = page.frames().find((f) => f !== page.mainFrame());
      expect(framed).toBeDefined();
      // Blocked, the frame shows the browser's error page, not the board.
      expect(await framed!.getByText('Feature requests').count()).toBe(0);
      expect(await framed!.locator('.post-title').count()).toBe(0);
    } finally {
      await context.close();
      await host.close();
    }
  });
});
