import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPortal } from '../../src/portal/index.js';
import { axeViolations, HAS_CHROMIUM, useBrowserStand } from '../helpers/browser.js';
import { startReceiver } from '../helpers/receiver.js';
import { startSmtpSink } from '../helpers/smtp.js';

// Taking part on the portal in a real browser: an anonymous vote confirmed with the code a real SMTP server received,
// the opt-in and its absence seen through the REST API, a sign-in link from the workspace's own site (another
// origin) carrying a token minted with the documented recipe, and a form on another site that the portal refuses.
const SHOTS = process.env.PORTAL_SCREENSHOTS ?? join(import.meta.dirname, '../../test-results/portal');

const smtp = await startSmtpSink();
afterAll(() => smtp.close());

/** A page on another site: `localhost` is another site than the portal's `127.0.0.1`, whatever the ports. */
async function otherSite(html: string): Promise<{ origin: string; close(): Promise<void> }> {
  const site = await startReceiver(
    (_req, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html),
  );
  return { origin: site.origin.replace('127.0.0.1', 'localhost'), close: () => site.close() };
}

describe.skipIf(!HAS_CHROMIUM)('taking part on the portal in chromium', () => {
  const stand = useBrowserStand((engine) => ({ sites: [createPortal({ engine })] }), {
    webhooks: { smtpUrl: smtp.url },
  });
  let base: string;
  let postUrl: string;
  let orgId: string;
  let apiKey: string;
  let secret: string;

  beforeAll(async () => {
    const { engine, server } = stand;
    const org = await engine.organizations.create({ name: 'Acme', plan: 'paid' });
    orgId = org.id;
    await engine.organizations.update(org.id, { handle: 'acme', portalEnabled: true });
    const w = engine.workspace(org.id);
    const board = await w.boards.create({ name: 'Feature requests' });
    await w.posts.create(board.id, { title: 'Dark mode', body: { json: {}, text: 'Easier on the eyes at night.' } });
    await w.posts.create(board.id, { title: 'Offline mode' });
    apiKey = (await engine.keys.create(org.id, 'read')).key;
    ({ secret } = await w.participation.secret.create());
    base = `${server.url}/portal/acme`;
    postUrl = `${base}/b/feature-requests/p/dark-mode`;
    mkdirSync(SHOTS, { recursive: true });
  });

  const contacts = async () =>
    (
      (await (
        await fetch(`${stand.server.url}/v1/contacts?limit=100`, { headers: { authorization: `Bearer ${apiKey}` } })
      ).json()) as { data: Array<{ email: string; source: string; consentBasis: string }> }
    ).data;

  /** Vote on Dark mode as an anonymous person, confirming with the code from the SMTP server. */
  async function anonymousVote(
    context: BrowserContext,
    who: { name: string; email: string; notifyMe: boolean },
    shots = false,
  ) {
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(postUrl);
    await page.getByRole('button', { name: 'Vote' }).click();
    await page.getByRole('heading', { name: 'Confirm your email to vote' }).waitFor();
    if (shots) {
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: join(SHOTS, 'portal-identify.png'), fullPage: true });
    }
    await page.getByLabel('Your name').fill(who.name);
    await page.getByLabel('Your email').fill(who.email);
    if (who.notifyMe) await page.getByLabel(/Email me about/).check();
    const seen = smtp.mails.length;
    await page.getByRole('button', { name: 'Email me a code' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    if (shots) expect(await axeViolations(page)).toEqual([]);
    await smtp.waitFor(seen + 1);
    const mail = smtp.mails.filter((m) => m.to.includes(who.email)).at(-1)!;
    await page.getByLabel('Code').fill(/Your code is (\d{6})\./.exec(mail.data)![1]!);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Your vote counts.').waitFor();
    return page;
  }

  it('an anonymous vote counts once the emailed code is entered; the opt-in makes a contact, its absence none (REST)', async () => {
    // axe runs in the page, so this context has JavaScript (and lets axe past the CSP); the next one has none.
    const withOptIn = await stand.browser.newContext({ bypassCSP: true, viewport: { width: 1100, height: 800 } });
    const page = await anonymousVote(withOptIn, { name: 'Ann', email: 'ann@example.com', notifyMe: true }, true);
    expect(await page.locator('article .vote-button').getAttribute('aria-pressed')).toBe('true');
    expect(await page.locator('summary[aria-label="Account: Ann"]').isVisible()).toBe(true);
    expect(await page.locator('[data-vote-total]').textContent()).toBe('1 vote');
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'portal-voted.png'), fullPage: true });
    expect((await contacts()).filter((c) => c.email === 'ann@example.com')).toEqual([
      expect.objectContaining({ source: 'public_vote', consentBasis: 'public_interaction_opt_in' }),
    ]);
    await withOptIn.close();

    const without = await stand.browser.newContext({ javaScriptEnabled: false });
    await anonymousVote(without, { name: 'Bo', email: 'bo@example.com', notifyMe: false });
    expect((await contacts()).map((c) => c.email)).not.toContain('bo@example.com');
    expect((await stand.engine.workspace(orgId).posts.retrieve(await findPost('dark-mode'))).voteCount).toBe(2);
    await without.close();
  });

  async function findPost(slug: string): Promise<string> {
    const w = stand.engine.workspace(orgId).portal;
    const board = (await w.boardBySlug('feature-requests'))!;
    return (await w.post(board.id, slug))!.post.id;
  }

  it("a link from the workspace's own site signs in with a token minted by the documented recipe", async () => {
    // The workspace's backend (docs/portal.md, "Sign users in"): HS256, sub, email, name, aud = the workspace, exp <= 24h.
    const token = await new SignJWT({ email: 'dana@example.com', name: 'Dana' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('user-42')
      .setAudience(orgId)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode(secret));
    const link = `${base}/sign-in?token=${token}&return=${encodeURIComponent('/portal/acme/b/feature-requests/p/offline-mode')}`;
    const site = await otherSite(
      `<!doctype html><html lang="en"><title>Acme app</title><main><a href="${link}">Give feedback</a></main></html>`,
    );
    const context = await stand.browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(site.origin);
      await page.getByRole('link', { name: 'Give feedback' }).click();
      await page.locator('summary[aria-label="Account: Dana"]').waitFor();
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Offline mode');
      const session = (await context.cookies()).find((c) => c.name === 'fs_session')!;
      expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/portal/acme/' });
      // Signed in: the vote counts at once, with no code, and (the script) without leaving the page.
      const mails = smtp.mails.length;
      let navigations = 0;
      page.on('framenavigated', (frame) => frame === page.mainFrame() && navigations++);
      await page.getByRole('button', { name: 'Vote' }).click();
      await page.getByText('Your vote counts.').waitFor();
      expect(navigations).toBe(0);
      expect(await page.locator('[data-vote-total]').textContent()).toBe('1 vote');
      expect(await page.locator('article [data-vote-count]').textContent()).toBe('1');
      // The same button, pressed, still holds the focus: a keyboard user stays where they were.
      expect(
        await page.evaluate(() => {
          const el = document.activeElement;
          return el?.classList.contains('vote-button') ? el.getAttribute('aria-pressed') : null;
        }),
      ).toBe('true');
      expect(smtp.mails.length).toBe(mails);
      // On the board's list, a row votes in place too: its count goes up, the page stays, the focus stays on it.
      const ideas = (await stand.engine.workspace(orgId).portal.boardBySlug('feature-requests'))!;
      await stand.engine.workspace(orgId).posts.create(ideas.id, { title: 'Calendar sync' });
      await page.goto(`${base}/b/feature-requests`);
      const row = (title: string) =>
        page.locator('ul.posts > li', { has: page.getByRole('link', { name: title, exact: true }) });
      expect(await row('Offline mode').locator('.vote-button').getAttribute('aria-pressed')).toBe('true');
      const calendar = await findPost('calendar-sync');
      navigations = 0;
      await row('Calendar sync').getByRole('button', { name: /^Vote/ }).click();
      await expect.poll(() => row('Calendar sync').locator('.vote-button').getAttribute('aria-pressed')).toBe('true');
      expect(await row('Calendar sync').locator('[data-vote-count]').textContent()).toBe('1');
      expect((await stand.engine.workspace(orgId).posts.retrieve(calendar)).voteCount).toBe(1);
      expect(navigations).toBe(0);
      expect(
        await page.evaluate(() => document.activeElement?.closest('li')?.querySelector('.post-title')?.textContent),
      ).toBe('Calendar sync');
      // Pressed again, the vote is taken back in place: the count goes down, the button is no longer pressed, the
      // focus stays; pressed once more, it counts again.
      await row('Calendar sync').locator('.vote-button').click();
      await expect.poll(() => row('Calendar sync').locator('.vote-button').getAttribute('aria-pressed')).toBe('false');
      expect(await row('Calendar sync').locator('[data-vote-count]').textContent()).toBe('0');
      expect((await stand.engine.workspace(orgId).posts.retrieve(calendar)).voteCount).toBe(0);
      expect(await page.locator('#vote-status').textContent()).toBe('Your vote is taken back.');
      expect(
        await page.evaluate(() => document.activeElement?.closest('li')?.querySelector('.post-title')?.textContent),
      ).toBe('Calendar sync');
      await row('Calendar sync').locator('.vote-button').click();
      await expect.poll(() => row('Calendar sync').locator('.vote-button').getAttribute('aria-pressed')).toBe('true');
      expect((await stand.engine.workspace(orgId).posts.retrieve(calendar)).voteCount).toBe(1);
      expect(navigations).toBe(0);
      // While a title is typed, similar posts are offered.
      await page.goto(`${base}/b/feature-requests/new`);
      await page.getByLabel('Title').pressSequentially('A darker mode', { delay: 20 });
      await page.locator('#similar a', { hasText: 'Dark mode' }).waitFor();
      await page.screenshot({ path: join(SHOTS, 'portal-new-post.png'), fullPage: true });
      expect((await contacts()).filter((c) => c.email === 'dana@example.com')).toEqual([
        expect.objectContaining({ source: 'identify', consentBasis: 'sdk_identify' }),
      ]);
    } finally {
      await context.close();
      await site.close();
    }
  });

  it('the widget on an allowed site (examples/portal-host.mjs) opens the portal in a panel, signed in by identify({ token }); other sites cannot frame it', async () => {
    const w = stand.engine.workspace(orgId);
    // The example a user copies: their app's page with the widget and a token minted by the documented recipe.
    const host = spawn(process.execPath, [join(import.meta.dirname, '../../examples/portal-host.mjs')], {
      env: {
        ...process.env,
        PORT: '0',
        FEEDBACK_URL: stand.server.url,
        FEEDBACK_PORTAL: 'acme',
        FEEDBACK_ORG_ID: orgId,
        FEEDBACK_PORTAL_SECRET: secret,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const allowed = await new Promise<string>((resolve, reject) => {
      host.stdout!.on('data', (d: Buffer) => {
        const url = /listening on (\S+)/.exec(String(d))?.[1];
        if (url) resolve(url);
      });
      host.once('exit', (code) => reject(new Error(`examples/portal-host.mjs exited ${code}`)));
    });
    const refused = await otherSite(
      // A German site: the widget speaks its language, and opens the portal in it.
      `<!doctype html><html lang="de"><title>Anderswo</title><script src="${stand.server.url}/portal/widget.js" data-portal="acme" async></script></html>`,
    );
    await stand.engine.organizations.update(orgId, { portalFrameOrigins: [allowed] });
    const context = await stand.browser.newContext({ viewport: { width: 1100, height: 800 } });
    try {
      const tab = await context.newPage();
      const signIns: Promise<string | null>[] = [];
      tab.on('response', (r) => r.url().includes('/sign-in?') && signIns.push(r.headerValue('set-cookie')));
      await tab.goto(allowed);
      await tab.getByRole('button', { name: 'Feedback' }).click();
      const panel = tab.frameLocator('iframe[title="Feedback"]');
      await panel.locator('summary[aria-label="Account: Dana"]').waitFor();
      await panel.getByRole('link', { name: 'Feature requests' }).click();
      await panel.getByRole('link', { name: 'Dark mode' }).click();
      await panel.getByRole('button', { name: 'Vote' }).click();
      await panel.getByText('Your vote counts.').waitFor();
      await tab.screenshot({ path: join(SHOTS, 'portal-widget.png') });
      const darkMode = await findPost('dark-mode');
      const votes = (await w.events.list())
        .map((x) => x.payload as any)
        .filter((p) => p.event === 'vote.created' && p.vote.userId === 'user-42' && p.vote.postId === darkMode);
      expect(votes).toHaveLength(1);
      // The session the panel got is a cookie for this site's frames only (partitioned).
      expect(await signIns[0]).toMatch(
        /fs_session=[^;]+; Path=\/portal\/acme\/; HttpOnly; SameSite=None; Secure; Partitioned/,
      );
      // Escape, pressed inside the portal, closes the panel.
      await panel.getByRole('heading', { level: 1 }).click();
      await tab.keyboard.press('Escape');
      // The frame tells the page by postMessage, which arrives a moment later.
      await tab.locator('iframe[title="Feedback"]').waitFor({ state: 'hidden' });
      expect(await tab.getByRole('button', { name: 'Feedback' }).getAttribute('aria-expanded')).toBe('false');

      // A site that is not on the list gets the button, but the browser refuses to show the portal in its frame: the
      // panel says so, with a link to the portal in a tab of its own, instead of a broken frame.
      const other = await context.newPage();
      await other.goto(refused.origin);
      await other.getByRole('button', { name: 'Feedback' }).click();
      await other.getByRole('alert').getByText('Feedback kann auf dieser Website nicht angezeigt werden.').waitFor();
      expect(await other.getByRole('link', { name: 'Feedback in einem neuen Tab öffnen' }).getAttribute('href')).toBe(
        `${stand.server.url}/portal/acme/?lang=de`,
      );
      expect(await other.getByRole('button', { name: 'Schließen' }).count()).toBe(1);
      expect(await other.locator('iframe[title="Feedback"]').isHidden()).toBe(true);
      const framed = other.frames().find((f) => f !== other.mainFrame());
      expect(await framed!.getByText('Feature requests').count()).toBe(0);
      await other.screenshot({ path: join(SHOTS, 'portal-widget-refused.png') });
    } finally {
      await context.close();
      host.kill();
      await refused.close();
      await stand.engine.organizations.update(orgId, { portalFrameOrigins: [] });
    }
  });

  it('a form on another site that posts to the portal is refused, and nothing is counted', async () => {
    const before = (await stand.engine.workspace(orgId).posts.retrieve(await findPost('offline-mode'))).voteCount;
    const site = await otherSite(
      `<!doctype html><html lang="en"><title>Evil</title><form method="post" action="${base}/b/feature-requests/p/offline-mode/vote"><input name="email" value="victim@example.com"><button>Win a prize</button></form></html>`,
    );
    const context = await stand.browser.newContext();
    try {
      const page = await context.newPage();
      // The victim has a portal session and its anti-forgery cookie.
      await page.goto(postUrl);
      await page.goto(site.origin);
      await page.getByRole('button', { name: 'Win a prize' }).click();
      await page.getByRole('heading', { name: 'Not accepted' }).waitFor();
      expect(await page.getByText('This form was sent from another site').isVisible()).toBe(true);
      expect((await stand.engine.workspace(orgId).posts.retrieve(await findPost('offline-mode'))).voteCount).toBe(
        before,
      );
      expect(smtp.mails.filter((m) => m.to.includes('victim@example.com'))).toEqual([]);
    } finally {
      await context.close();
      await site.close();
    }
  });
});
