import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashEmail, type MailRecipient } from '../../src/engine/index.js';
import { createPortal } from '../../src/portal/index.js';
import { axeViolations, HAS_CHROMIUM, useBrowserStand } from '../helpers/browser.js';
import { startSmtpSink } from '../helpers/smtp.js';

// The pages a notification's links lead to, in a real browser: the preferences page (axe, a screenshot, a change
// saved), and the unsubscribe link opened with JavaScript off (the page alone changes nothing; its button does).
const SHOTS = process.env.PORTAL_SCREENSHOTS ?? join(import.meta.dirname, '../../test-results/portal');

const smtp = await startSmtpSink();
afterAll(() => smtp.close());

describe.skipIf(!HAS_CHROMIUM)('the links in notification mail, in chromium', () => {
  const stand = useBrowserStand((engine) => ({ sites: [createPortal({ engine })] }), {
    mail: { smtpUrl: smtp.url, publicUrl: () => stand.server?.url },
  });
  let links: { preferences: string; unsubscribe: string };
  let me: MailRecipient;
  let orgId: string;

  beforeAll(async () => {
    const { engine } = stand;
    const org = await engine.organizations.create({ name: 'Acme', plan: 'paid' });
    orgId = org.id;
    await engine.organizations.update(org.id, { handle: 'acme', portalEnabled: true });
    const w = engine.workspace(org.id);
    const board = await w.boards.create({ name: 'Feature requests' });
    const post = await w.posts.create(board.id, { title: 'Dark mode' });
    const other = await w.posts.create(board.id, { title: 'Offline mode' });
    const vote = await w.participation.vote({ postId: post.id, email: 'ivy@example.com', notifyMe: true });
    await w.participation.vote({ postId: other.id, email: 'ivy@example.com', notifyMe: true });
    me = { organizationId: org.id, contactId: vote.contactId!, emailHash: hashEmail('ivy@example.com')! };
    await w.posts.update(post.id, { status: 'planned' });
    await engine.scheduler.runDue();
    const text = smtp.mails.at(-1)!.data.replace(/=\r\n/g, '').replace(/=3D/g, '=');
    links = {
      preferences: /Choose what you get: (\S+)/.exec(text)![1]!,
      unsubscribe: /Unsubscribe from all Acme email: (\S+)/.exec(text)![1]!,
    };
    mkdirSync(SHOTS, { recursive: true });
  });

  it('the preferences page is accessible and saves what the person chooses', async () => {
    const context = await stand.browser.newContext({ bypassCSP: true, viewport: { width: 1000, height: 900 } });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      await page.goto(links.preferences);
      await page.getByRole('heading', { name: 'Email from Acme' }).waitFor();
      expect(await page.getByText('For i***@example.com.').isVisible()).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: join(SHOTS, 'mail-preferences.png'), fullPage: true });
      await page.getByLabel('Offline mode').uncheck();
      await page.getByLabel(/The changelog/).check();
      await page.getByLabel('At most one email an hour').check();
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Your email settings are saved.').waitFor();
      expect(await page.getByLabel('Offline mode').isChecked()).toBe(false);
      expect(await stand.engine.workspace(orgId).notifications.preferences(me)).toMatchObject({
        posts: true,
        changelog: true,
        digest: 'hourly',
        subscriptions: expect.arrayContaining([
          { postId: expect.any(String), title: 'Offline mode', on: false },
          { postId: expect.any(String), title: 'Dark mode', on: true },
        ]),
      });
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the unsubscribe link shows a button (without JavaScript), and only the button unsubscribes', async () => {
    const context = await stand.browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      await page.goto(links.unsubscribe);
      await page.getByRole('heading', { name: "Unsubscribe from Acme's email" }).waitFor();
      expect((await stand.engine.workspace(orgId).notifications.preferences(me)).all).toBe(false);
      await page.screenshot({ path: join(SHOTS, 'mail-unsubscribe.png'), fullPage: true });
      await page.getByRole('button', { name: 'Unsubscribe' }).click();
      await page.getByRole('heading', { name: 'You are unsubscribed' }).waitFor();
      expect((await stand.engine.workspace(orgId).notifications.preferences(me)).all).toBe(true);
      await page.getByRole('link', { name: 'Choose what you get' }).click();
      await page.getByLabel('Send me no email at all').uncheck();
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Your email settings are saved.').waitFor();
      expect((await stand.engine.workspace(orgId).notifications.preferences(me)).all).toBe(false);
    } finally {
      await context.close();
    }
  });
});
