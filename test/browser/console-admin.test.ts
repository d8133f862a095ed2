import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsole } from '../../src/console/index.js';
import { CLI_ACTOR } from '../../src/engine/index.js';
import { createPortal } from '../../src/portal/index.js';
import { axeViolations, HAS_CHROMIUM, useBrowserStand } from '../helpers/browser.js';
import { startReceiver } from '../helpers/receiver.js';
import { startSmtpSink } from '../helpers/smtp.js';
import { seedConsole } from './console-seed.js';

// The console's part 2 in a real browser (docs/console.md): the roadmap ordered by drag and drop, by keyboard and
// without JavaScript (and the portal following), the changelog's Markdown editor with its preview, publishing that
// ships posts, contacts, webhooks with a real receiver, keys and settings with the portal's branding; axe-core on every
// page, and the screenshots of docs/images (CONSOLE_SCREENSHOTS=docs/images to write them there).
const SHOTS = process.env.CONSOLE_SCREENSHOTS ?? join(import.meta.dirname, '../../test-results/console');

const smtp = await startSmtpSink();
const receiver = await startReceiver();
afterAll(async () => {
  await smtp.close();
  await receiver.close();
});

describe.skipIf(!HAS_CHROMIUM)('the console’s part 2 in chromium', () => {
  const stand = useBrowserStand((engine) => ({ sites: [createPortal({ engine }), createConsole({ engine })] }), {
    mail: { smtpUrl: smtp.url, publicUrl: () => stand.server?.url },
    webhooks: { allowPrivateNetworks: true },
  });
  let s: Awaited<ReturnType<typeof seedConsole>>;
  let owner: { context: BrowserContext; page: Page };
  beforeAll(async () => {
    s = await seedConsole(stand.engine);
    for (const p of [s.dark, s.night]) await s.w.posts.update(p.id, { status: 'planned' });
    mkdirSync(SHOTS, { recursive: true });
    owner = await signedIn(stand.browser, true, 'owner@acme.example', 'owner');
  });

  async function signedIn(
    browser: Browser,
    javaScriptEnabled: boolean,
    email: string,
    role: 'owner' | 'member',
  ): Promise<{ context: BrowserContext; page: Page }> {
    const link = (
      await s.w.team.add(CLI_ACTOR, { email, role, name: 'Olive Owner' }, { invite: false, workspace: 'Acme' })
    ).signIn.link!;
    const context = await browser.newContext({
      bypassCSP: javaScriptEnabled,
      javaScriptEnabled,
      viewport: { width: 1200, height: 900 },
    });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(link);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Posts' }).waitFor();
    return { context, page };
  }
  const go = (page: Page, path: string) => page.goto(`${stand.server.url}/console/${s.org.id}/${path}`);
  const planned = async () =>
    (await s.w.portal.roadmap()).find((c) => c.status === 'planned')!.posts.map((p) => p.title);

  it('orders the roadmap by dragging a post, by keyboard with its buttons, and without JavaScript; the portal follows', async () => {
    const page = owner.page;
    await go(page, 'roadmap');
    expect(await axeViolations(page)).toEqual([]);
    const cards = () => page.locator('ol[data-status="planned"] > li > a').allTextContents();
    expect(await cards()).toEqual(['Dark mode', 'Night theme']);

    // Drag "Night theme" above "Dark mode": the column's order is saved, and the portal shows it.
    await page
      .locator('li', { hasText: 'Night theme' })
      .dragTo(page.locator('li', { hasText: 'Dark mode' }), { targetPosition: { x: 20, y: 5 } });
    await page.getByText('Order saved').waitFor();
    expect(await cards()).toEqual(['Night theme', 'Dark mode']);
    expect(await planned()).toEqual(['Night theme', 'Dark mode']);
    await page.screenshot({ path: join(SHOTS, 'console-roadmap.png') });

    // Keyboard: focus the first post's Down button and press Enter.
    await page.getByRole('button', { name: /^Down.*“Night theme” down$/ }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Moved:').waitFor();
    expect(await planned()).toEqual(['Dark mode', 'Night theme']);

    // Without JavaScript: the Up button is a form.
    const member = await signedIn(stand.browser, false, 'pm@acme.example', 'member');
    await go(member.page, 'roadmap');
    await member.page.getByRole('button', { name: /^Up.*“Night theme” up$/ }).click();
    await member.page.getByText('Moved:').waitFor();
    expect(await planned()).toEqual(['Night theme', 'Dark mode']);
    await member.context.close();
  });

  it('writes a changelog entry in Markdown with its preview, links the posts it ships, publishes: the portal renders it and the posts are shipped', async () => {
    const page = owner.page;
    await go(page, 'changelog');
    await page.getByLabel('Title').fill('Autumn release');
    await page.getByRole('button', { name: 'Create draft' }).click();
    await page.getByText('Draft created').waitFor();
    await page
      .getByLabel(/What shipped/)
      .fill(
        '## Night owls\n\n**Dark mode** is here, and a [guide](https://example.com/guide).\n\n<script>alert(1)</script>',
      );
    // The preview follows the typing (rendered by the server, like the portal).
    await page.locator('#preview strong', { hasText: 'Dark mode' }).waitFor();
    expect(await page.locator('#preview script').count()).toBe(0);
    expect(await page.locator('#preview').textContent()).toContain('<script>alert(1)</script>');
    await page.getByLabel(/Dark mode/).check();
    await page.getByLabel(/Night theme/).check();
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Draft saved.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'console-changelog.png'), fullPage: true });

    await page.getByRole('button', { name: 'Publish and notify' }).click();
    await page.getByText('Published:').waitFor();
    for (const p of [s.dark, s.night]) expect((await s.w.posts.retrieve(p.id)).status).toBe('shipped');
    await page.goto(`${stand.server.url}/portal/acme/changelog`);
    await page.locator('article h2', { hasText: 'Night owls' }).waitFor();
    expect(await page.locator('article strong').first().textContent()).toBe('Dark mode');
    expect(await page.locator('article a[href="https://example.com/guide"]').getAttribute('rel')).toBe(
      'nofollow noopener',
    );
  });

  it('contacts: by revenue, searched; a contact’s page; one added by hand with an attestation; erased after typing the word', async () => {
    const page = owner.page;
    await go(page, 'contacts');
    expect(await axeViolations(page)).toEqual([]);
    expect((await page.locator('tbody tr td:first-child a').allTextContents())[0]).toBe('Dana Whit');
    await page.screenshot({ path: join(SHOTS, 'console-contacts.png') });
    await page.getByLabel('Search').fill('lee');
    await page.getByRole('button', { name: 'Show' }).click();
    expect(await page.locator('tbody tr td:first-child a').allTextContents()).toEqual(['Lee Park']);
    await page.getByRole('link', { name: 'Lee Park' }).click();
    await page.getByRole('heading', { name: 'Lee Park' }).waitFor();
    expect(await page.locator('table.facts').first().textContent()).toContain('lee@shop.example');
    expect(await page.getByText('sdk_identify').count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Dark mode' }).count()).toBeGreaterThan(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'console-contact.png'), fullPage: true });

    await go(page, 'contacts/new');
    await page.getByLabel('Email').fill('rio@partner.example');
    await page.getByLabel('Name').fill('Rio Vance');
    await page.getByRole('button', { name: 'Add the contact' }).click();
    expect(await page.locator(':invalid').count()).toBeGreaterThan(0); // the attestation is required
    await page.getByLabel(/Your attestation/).fill('Signed the partner agreement, which covers product updates.');
    await page.getByRole('button', { name: 'Add the contact' }).click();
    await page.getByText('Contact added').waitFor();
    expect(await page.getByText('admin_created').count()).toBe(1);
    await page.getByRole('link', { name: 'Erase this person' }).click();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel(/to confirm/).fill('nope');
    await page.getByRole('button', { name: 'Erase this person' }).click();
    expect(await page.getByRole('alert').textContent()).toBe('Type erase to confirm: nothing was erased.');
    await page.getByLabel(/to confirm/).fill('erase');
    await page.getByRole('button', { name: 'Erase this person' }).click();
    await page.getByText('Erased.').waitFor();
    expect((await s.w.contacts.list({ q: 'rio' })).data).toEqual([]);
  });

  it('webhooks: added with its secret shown once, deliveries to a real receiver with their attempts, disabled, enabled again, replayed', async () => {
    const page = owner.page;
    await go(page, 'webhooks');
    await page.getByLabel('Receiver URL').fill(`${receiver.origin}/hooks`);
    await page.getByLabel('Description').fill('Our CRM');
    await page.getByRole('button', { name: 'Add the webhook' }).click();
    const secret = await page.getByLabel('Secret').inputValue();
    expect(secret).toMatch(/^whsec_[\w-]{43}$/);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Go to the webhook' }).click();
    await s.w.posts.create(s.ideas.id, { title: 'Offline mode' });
    await stand.engine.scheduler.runDue();
    await receiver.waitFor(1);
    await page.reload();
    expect(await page.locator('tbody tr').first().textContent()).toContain('post.created');
    expect(await page.locator('ol.attempts').first().textContent()).toContain('200');
    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByText('Disabled: its pending').waitFor();
    await page.getByRole('button', { name: 'Enable again' }).click();
    await page.getByText('Enabled: its failure count').waitFor();
    await page
      .getByRole('button', { name: /^Replay/ })
      .first()
      .click();
    await page.getByText('Replay queued').waitFor();
    await stand.engine.scheduler.runDue();
    await receiver.waitFor(2);
    expect(receiver.requests[1]!.body).toBe(receiver.requests[0]!.body);
    expect(await axeViolations(page)).toEqual([]);
    await page.reload();
    await page.screenshot({ path: join(SHOTS, 'console-webhook.png'), fullPage: true });
    await go(page, 'webhooks');
    await page.screenshot({ path: join(SHOTS, 'console-webhooks.png') });
  });

  it('keys: a key shown once, rotated with a grace period (both work meanwhile), revoked; the portal secret; axe on the page', async () => {
    const page = owner.page;
    await go(page, 'keys');
    await page.getByRole('button', { name: 'Create key' }).click();
    const first = await page.getByLabel('Secret').inputValue();
    await page.getByRole('link', { name: 'Back to the keys' }).click();
    await page
      .getByRole('button', { name: /^Rotate key_/ })
      .first()
      .click();
    const second = await page.getByLabel('Secret').inputValue();
    expect(await stand.engine.keys.authenticate(first)).not.toBeNull();
    expect(await stand.engine.keys.authenticate(second)).not.toBeNull();
    await page.getByRole('link', { name: 'Back to the keys' }).click();
    expect(await page.getByText('Rotated: works until').count()).toBe(1);
    await page
      .getByRole('button', { name: /^Revoke key_/ })
      .last()
      .click();
    await page.getByText('Key revoked').waitFor();
    expect(await stand.engine.keys.authenticate(second)).toBeNull();
    // The rotated key, still in its grace period, can be ended at once.
    await page.getByRole('button', { name: /^End now key_/ }).click();
    await page.getByText('Key revoked').waitFor();
    expect(await stand.engine.keys.authenticate(first)).toBeNull();
    await page.getByRole('button', { name: 'Create the portal secret' }).click();
    expect(await page.getByLabel('Secret').inputValue()).toMatch(/^fps_/);
    await page.getByRole('link', { name: 'Back to the keys' }).click();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'console-keys.png'), fullPage: true });
  });

  it('settings: the portal’s branding (a too-light colour refused with why), and the portal shows the logo and the colour', async () => {
    const page = owner.page;
    await go(page, 'settings');
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel(/Logo/).fill(`${stand.server.url}/console/assets/none.png`);
    await page.getByLabel(/Accent colour/).fill('#ffee00');
    await page.getByRole('button', { name: 'Save' }).nth(2).click();
    await page.getByText('too light').waitFor();
    // What was typed is still there.
    expect(await page.getByLabel(/Logo/).inputValue()).toBe(`${stand.server.url}/console/assets/none.png`);
    await page.getByLabel(/Accent colour/).fill('#0f766e');
    await page.getByRole('button', { name: 'Save' }).nth(2).click();
    await page.getByText('Branding saved').waitFor();
    await page.screenshot({ path: join(SHOTS, 'console-settings.png'), fullPage: true });
    const portal = await stand.browser.newPage();
    await portal.goto(`${stand.server.url}/portal/acme/`);
    expect(await portal.evaluate(() => getComputedStyle(document.querySelector('main .board-name')!).color)).toBe(
      'rgb(15, 118, 110)',
    );
    expect(await portal.locator('header img.logo').getAttribute('src')).toBe(
      `${stand.server.url}/console/assets/none.png`,
    );
    await portal.close();
  });
});
