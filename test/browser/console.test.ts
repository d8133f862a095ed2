import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsole } from '../../src/console/index.js';
import { CLI_ACTOR } from '../../src/engine/index.js';
import { createPortal } from '../../src/portal/index.js';
import { axeViolations, HAS_CHROMIUM, useBrowserStand } from '../helpers/browser.js';
import { startSmtpSink } from '../helpers/smtp.js';
import { seedConsole as seed } from './console-seed.js';

// The team console in a real browser (docs/console.md): signing in with the command line's link, the posts page used
// with the keyboard alone, the post page's forms with JavaScript off, axe-core on every page, and the screenshots of
// docs/images (CONSOLE_SCREENSHOTS=docs/images to write them there).
const SHOTS = process.env.CONSOLE_SCREENSHOTS ?? join(import.meta.dirname, '../../test-results/console');

const smtp = await startSmtpSink();
afterAll(() => smtp.close());

describe.skipIf(!HAS_CHROMIUM)('the team console in chromium', () => {
  const stand = useBrowserStand((engine) => ({ sites: [createPortal({ engine }), createConsole({ engine })] }), {
    mail: { smtpUrl: smtp.url, publicUrl: () => stand.server?.url },
  });
  let s: Awaited<ReturnType<typeof seed>>;
  beforeAll(async () => {
    s = await seed(stand.engine);
    mkdirSync(SHOTS, { recursive: true });
  });

  /** A browser context (`javaScriptEnabled` as asked; axe needs it), signed in with a one-time link from the command line. */
  async function signedIn(
    browser: Browser,
    javaScriptEnabled: boolean,
    url: string,
  ): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({
      bypassCSP: javaScriptEnabled,
      javaScriptEnabled,
      viewport: { width: 1200, height: 900 },
    });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(url);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Posts' }).waitFor();
    return { context, page };
  }

  /** A team member added by the command line, and the link it printed. */
  async function member(
    email: string,
    role: 'owner' | 'member' | 'viewer',
    name: string | null = null,
  ): Promise<string> {
    return (await s.w.team.add(CLI_ACTOR, { email, role, name }, { invite: false, workspace: 'Acme' })).signIn.link!;
  }

  it('signs in with the link, and the posts page is used with the keyboard alone: filters, search, then a post', async () => {
    const signInPage = await stand.browser.newContext({ bypassCSP: true, viewport: { width: 1200, height: 700 } });
    const first = await signInPage.newPage();
    await first.goto(`${stand.server.url}/console/sign-in`);
    expect(await axeViolations(first)).toEqual([]);
    await first.screenshot({ path: join(SHOTS, 'console-sign-in.png') });
    // The code page (the same answer whether or not the address is on a team) and a link's page: accessible too.
    await first.getByLabel('Your work email').fill('someone@acme.example');
    await first.getByRole('button', { name: 'Email me a sign-in code' }).click();
    await first.getByRole('heading', { name: 'Check your email' }).waitFor();
    expect(await axeViolations(first)).toEqual([]);
    await first.screenshot({ path: join(SHOTS, 'console-code.png') });
    await first.goto(`${stand.server.url}/console/sign-in/link?token=not-a-real-one`);
    expect(await axeViolations(first)).toEqual([]);
    await first.screenshot({ path: join(SHOTS, 'console-link.png') });
    await signInPage.close();

    const { context, page } = await signedIn(
      stand.browser,
      true,
      await member('pm@acme.example', 'member', 'Pat Morgan'),
    );
    expect(await axeViolations(page)).toEqual([]);
    const titles = () => page.locator('tbody tr td a').allTextContents();
    expect((await titles())[0]).toBe('Dark mode');

    // Keyboard only: the skip link first, then into the search box, type, Enter.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    let guard = 0;
    while (
      !(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name === 'q')) &&
      guard++ < 20
    )
      await page.keyboard.press('Tab');
    await page.keyboard.type('sign');
    await Promise.all([page.waitForURL(/q=sign/), page.keyboard.press('Enter')]);
    expect(await titles()).toEqual(['Single sign-on with Okta']);
    // On to the result's link and into the post.
    guard = 0;
    while (
      !(await page.evaluate(() => document.activeElement?.textContent === 'Single sign-on with Okta')) &&
      guard++ < 30
    )
      await page.keyboard.press('Tab');
    await Promise.all([page.waitForURL(/\/posts\/post_/), page.keyboard.press('Enter')]);
    await page.getByRole('heading', { name: 'Single sign-on with Okta' }).waitFor();

    // The script's keys: j moves to the next post, x ticks it for a bulk action, Enter opens it.
    await page.goto(`${stand.server.url}/console/${s.org.id}/posts`);
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Single sign-on with Okta');
    await page.keyboard.press('x');
    expect(await page.getByLabel('Choose Single sign-on with Okta').isChecked()).toBe(true);
    await page.keyboard.press('k');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Dark mode');

    // Ranked by revenue: the posts with paying voters, the most monthly revenue first.
    await page.goto(`${stand.server.url}/console/${s.org.id}/posts`);
    await page.getByLabel('Sort').selectOption('impact');
    await Promise.all([page.waitForURL(/sort=impact/), page.getByRole('button', { name: 'Show' }).click()]);
    expect(await titles()).toEqual(['Dark mode', 'Single sign-on with Okta']);
    expect(await page.locator('tbody tr td:nth-child(6)').allTextContents()).toEqual([
      '$1,398.00 from 3 people',
      '$1,299.00 from 2 people',
    ]);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'console-posts.png'), fullPage: true });
    await context.close();
  });

  it('the post page shows voters with their revenue and the impact; its forms work with JavaScript off', async () => {
    const js = await signedIn(stand.browser, true, await member('pm2@acme.example', 'member', 'Pat Morgan'));
    await js.page.goto(`${stand.server.url}/console/${s.org.id}/posts/${s.dark.id}`);
    await js.page.getByText('Impact:').waitFor();
    expect(await js.page.locator('.impact').textContent()).toBe('Impact: $1,398.00 a month from 3 people');
    expect(await js.page.locator('#voters-h ~ table tbody tr').first().textContent()).toContain('Dana Whit');
    expect(await axeViolations(js.page)).toEqual([]);
    await js.page.screenshot({ path: join(SHOTS, 'console-post.png'), fullPage: true });
    // With the script, a status change happens without a reload: the page's own state survives it.
    await js.page.evaluate(() => ((globalThis as any).stillHere = true));
    await js.page.getByLabel('Set the status to').selectOption('under_review');
    await js.page.getByRole('button', { name: 'Change status' }).click();
    await js.page.getByText('Status changed.').waitFor();
    expect(await js.page.evaluate(() => (globalThis as any).stillHere)).toBe(true);
    expect(await js.page.locator('main > p.meta').first().textContent()).toMatch(/^Under review 4 votes/);
    await js.context.close();

    const { context, page } = await signedIn(
      stand.browser,
      false,
      await member('pm3@acme.example', 'member', 'Pat Morgan'),
    );
    const postUrl = `${stand.server.url}/console/${s.org.id}/posts/${s.dark.id}`;
    await page.goto(postUrl);
    // Status with a public note.
    await page.getByLabel('Set the status to').selectOption('planned');
    await page.getByLabel(/^Public note/).fill('Planned for the spring release.');
    await page.getByRole('button', { name: 'Change status' }).click();
    await page.getByText('Status changed.').waitFor();
    expect(await page.locator('main > p.meta').first().textContent()).toMatch(/^Planned 4 votes/);
    expect(page.url()).toContain('done=status');
    // An official reply and an internal note.
    await page.getByLabel(/^Reply as the team/).fill('Thanks all, we read every vote.');
    await page.getByRole('button', { name: 'Post reply' }).click();
    await page.getByText('Reply posted').waitFor();
    await page.getByLabel('Add a note').fill('BigCo renewal depends on this.');
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.getByText('Internal note added.').waitFor();
    // An empty reply is refused beside its form, with the reason.
    await page.getByLabel(/^Reply as the team/).fill('   ');
    await page.getByRole('button', { name: 'Post reply' }).click();
    await page.getByText('Write the reply first.').waitFor();

    // The portal shows both replies as the team's, and never the internal note.
    const portal = await (await fetch(`${stand.server.url}/portal/acme/b/feature-requests/p/dark-mode`)).text();
    expect(portal).toContain('Planned for the spring release.');
    expect(portal).toContain('Thanks all, we read every vote.');
    expect(portal).toContain('<strong dir="auto">Pat Morgan</strong><span class="team-badge">Acme team</span>');
    expect(portal).not.toContain('BigCo renewal');

    // Approve the held post from the list's held filter.
    await page.goto(`${stand.server.url}/console/${s.org.id}/posts?held=1`);
    await page.getByRole('link', { name: 'Calendar sync' }).click();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Approved: the post is on the portal.').waitFor();

    // Merge Night theme into Dark mode: find it, merge, and the portal's old address sends to Dark mode.
    await page.goto(`${stand.server.url}/console/${s.org.id}/posts/${s.night.id}`);
    await page.getByText('Merge into another post').click();
    await page.getByLabel('Find the post to keep').fill('dark');
    await page.getByRole('button', { name: 'Find' }).click();
    await page.waitForURL(/merge_q=dark/);
    await page.getByRole('button', { name: /^Merge into this\s*: Dark mode$/ }).click();
    await page.getByText('Merged.').waitFor();
    expect(await page.getByRole('link', { name: 'Dark mode' }).count()).toBeGreaterThan(0);
    const old = await fetch(`${stand.server.url}/portal/acme/b/feature-requests/p/night-theme`, { redirect: 'manual' });
    expect([old.status, old.headers.get('location')]).toEqual([301, '/portal/acme/b/feature-requests/p/dark-mode']);
    await context.close();
  });

  it('a viewer reads the post page without a form on it', async () => {
    const { context, page } = await signedIn(stand.browser, true, await member('cfo@acme.example', 'viewer'));
    await page.goto(`${stand.server.url}/console/${s.org.id}/posts/${s.dark.id}`);
    await page.getByText('Your role (viewer) may read this post but not change it.').waitFor();
    expect(await page.locator('main form').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });

  it('an owner invites from the team page and reads the audit log; both pages are accessible', async () => {
    const { context, page } = await signedIn(
      stand.browser,
      true,
      await member('founder@acme.example', 'owner', 'Fran Okoye'),
    );
    await page.getByRole('link', { name: 'Team' }).click();
    await page.getByRole('heading', { name: 'Team' }).waitFor();
    await page.getByLabel('Their work email').fill('support@acme.example');
    await page.getByLabel(/^Name/).fill('Sol Ruiz');
    await page.getByLabel('Role', { exact: true }).selectOption('member');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText('Invitation sent').waitFor();
    expect(await page.getByRole('row', { name: /support@acme\.example/ }).textContent()).toContain('invited');
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'console-team.png'), fullPage: true });
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    // In words: who did what to whom.
    expect(await page.locator('ol.audit li').first().textContent()).toContain(
      'Fran Okoye added Sol Ruiz to the team as member.',
    );
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'console-audit.png'), fullPage: true });
    await context.close();
  });

  it('every other form works with JavaScript off: code sign-in, edit, tags, move, bulk, invite, role, removal, sign-out; the workspace choice is accessible', async () => {
    // A second workspace for the same person: the console's home lets them choose.
    const second = await stand.engine.organizations.create({ name: 'Beta Corp', plan: 'paid' });
    await s.w.team.add(CLI_ACTOR, { email: 'lead@acme.example', role: 'owner' }, { invite: false, workspace: 'Acme' });
    await stand.engine
      .workspace(second.id)
      .team.add(CLI_ACTOR, { email: 'lead@acme.example', role: 'viewer' }, { invite: false, workspace: 'Beta Corp' });
    const mine = await s.w.tags.create({ name: 'Enterprise' });
    const context = await stand.browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 1200, height: 900 },
    });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    // Sign in with the mailed code (the mail is logged; the engine's last sign-in is read back through a second request).
    await page.goto(`${stand.server.url}/console/sign-in`);
    await page.getByLabel('Your work email').fill('lead@acme.example');
    const code = await codeFor(page, 'lead@acme.example');
    await page.getByLabel('Code').fill(code);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Your workspaces' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'console-workspaces.png') });
    await page.getByRole('link', { name: 'Acme' }).click();
    await page.getByRole('heading', { name: 'Posts' }).waitFor();

    // Bulk: tick two posts and move them to Bugs.
    await page.getByLabel('Choose Export to CSV').check();
    await page.getByLabel('Choose Single sign-on with Okta').check();
    await page.getByLabel('With the chosen posts').selectOption({ label: 'Bugs' });
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('Done: 2 posts changed.').waitFor();

    // The post page's edit, tags and move forms.
    await page.getByRole('link', { name: 'Export to CSV' }).click();
    await page.getByText('Edit the title and text').click();
    await page.getByLabel('Title').fill('Export to CSV and Excel');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Post saved.').waitFor();
    await page.getByLabel('Enterprise').check();
    await page.getByRole('button', { name: 'Save tags' }).click();
    await page.getByText('Tags saved.').waitFor();
    await page.getByLabel('Board', { exact: true }).selectOption({ label: 'Feature requests' });
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    await page.getByText('Moved: its old portal address sends to the new one.').waitFor();
    const post = await s.w.triage.post((await s.w.triage.posts({ q: 'excel' })).data[0]!.id);
    expect([post!.post.title, post!.boardName, post!.tagIds]).toEqual([
      'Export to CSV and Excel',
      'Feature requests',
      [mine.id],
    ]);

    // The team page's forms.
    await page.getByRole('link', { name: 'Team' }).click();
    await page.getByLabel('Their work email').fill('intern@acme.example');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText('Invitation sent').waitFor();
    await page.getByLabel('Role of intern@acme.example').selectOption('viewer');
    await page.getByRole('button', { name: 'Change the role of intern@acme.example' }).click();
    await page.getByText('Role changed.').waitFor();
    await page.getByRole('button', { name: 'Remove intern@acme.example' }).click();
    await page.getByText('Removed from the team').waitFor();
    expect((await s.w.team.list()).map((m) => m.email)).not.toContain('intern@acme.example');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the feedback console' }).waitFor();
    await context.close();

    // The workspace choice, with JavaScript for axe.
    const js = await signedIn(stand.browser, true, await member('chooser@acme.example', 'member'));
    await stand.engine
      .workspace(second.id)
      .team.add(
        CLI_ACTOR,
        { email: 'chooser@acme.example', role: 'viewer' },
        { invite: false, workspace: 'Beta Corp' },
      );
    await js.page.goto(`${stand.server.url}/console/`);
    await js.page.getByRole('heading', { name: 'Your workspaces' }).waitFor();
    expect(await axeViolations(js.page)).toEqual([]);
    await js.context.close();
  });

  /** Ask for a sign-in code on the page and read it from the mail the SMTP server got. */
  async function codeFor(page: Page, email: string): Promise<string> {
    const seen = smtp.mails.length;
    await page.getByRole('button', { name: 'Email me a sign-in code' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    return smtp.codeFor(email, seen);
  }
});
