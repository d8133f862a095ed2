import type { Browser, BrowserContext, Page } from 'playwright-core';
import { CLI_ACTOR, type Engine, hashEmail, type Translator, translator } from '../../src/engine/index.js';
import { seedConsole } from '../browser/console-seed.js';
import { GITHUB_TOKEN } from './fakes/github.js';
import { LINEAR_API_KEY, LINEAR_TEAM } from './fakes/linear.js';

// A tour of every page of the portal and the console, on one seeded workspace: what the look test checks at two
// widths in both themes, and what `npm run screenshots` photographs for docs/images.

/** One page of the tour: its face, a name (the screenshot's), its path on the server. */
export interface TourStop {
  face: 'portal' | 'console' | 'mail';
  name: string;
  path: string;
  /**
   * For a page a form leads to (the email step of a vote, a code page): what a person does on `path` to get there.
   * It ends once the page is shown.
   */
  steps?: (page: Page, tr: Translator) => Promise<void>;
  /** Seen by someone not signed into the console (its sign-in pages send a signed-in person on to their workspace). */
  signedOut?: boolean;
}

/** An address nobody used before in this tour (the code pages are limited per address). */
let addresses = 0;
const freshAddress = () => `visitor-${++addresses}-${Date.now()}@example.com`;

/** An anonymous person presses a board row's Vote: the portal asks who they are first (in the page's language). */
async function voteAnonymously(page: Page, tr: Translator = translator()): Promise<void> {
  await page.locator('ul.posts .vote-button[aria-pressed="false"]').first().click();
  await page.getByRole('heading', { name: tr.t('identify.vote') }).waitFor();
}

/** The two screens every page is looked at on: a laptop and a phone. */
export const SCREENS = [
  { name: '1280', width: 1280, height: 800 },
  { name: '390', width: 390, height: 844 },
] as const;
export const THEMES = ['light', 'dark'] as const;

/**
 * The engine options of a tour whose pages are only looked at: webhooks to the tour's receiver, and Linear, GitHub and
 * Slack at an address where nothing listens (port 9), so their calls fail at once, on this machine.
 */
export const TOUR_ENGINE_OPTIONS = {
  webhooks: { allowPrivateNetworks: true },
  integrations: {
    linear: { apiUrl: 'http://127.0.0.1:9/graphql' },
    github: { apiUrl: 'http://127.0.0.1:9' },
    slack: { apiUrl: 'http://127.0.0.1:9/api', hooksUrl: 'http://127.0.0.1:9/services/' },
  },
};

/**
 * Seed a workspace as a team would have it a few weeks in (posts in every status, votes of paying contacts in two
 * currencies, comments and a reply, a published changelog entry, a webhook with a delivery, a key), and list its pages.
 * `signInLink` (a path) signs an owner into the console (once per browser context). The engine must allow private networks
 * for webhooks (`receiverUrl` is a server on 127.0.0.1).
 */
export async function seedTour(
  engine: Engine,
  receiverUrl: string,
): Promise<{ stops: TourStop[]; signInLink: string; organizationId: string }> {
  const s = await seedConsole(engine);
  const { w, ideas, dark } = s;
  const owner = w.as(CLI_ACTOR);
  // The webhook's receiver is a real server; the posts below are its first deliveries.
  const hook = await owner.webhooks.create({ url: receiverUrl, events: ['post.created', 'post.status_changed'] });
  const portal = '/portal/acme';
  const consoleAt = `/console/${s.org.id}`;
  await w.contacts.identify({
    externalUserId: 'u5',
    email: 'eva@grossfirma.example',
    name: 'Eva Klein',
    plan: 'enterprise',
    mrrCents: 26_700,
    currency: 'EUR',
    companies: [
      {
        externalCompanyId: 'acct-grossfirma',
        name: 'Großfirma GmbH',
        domain: 'grossfirma.example',
        plan: 'enterprise',
        mrrCents: 240_000,
        currency: 'EUR',
      },
    ],
  });
  await w.participation.vote({
    postId: dark.id,
    email: 'eva@grossfirma.example',
    userId: 'u5',
    vouched: true,
    notifyMe: false,
  });
  const statuses = ['planned', 'in_progress', 'shipped', 'under_review', 'declined'] as const;
  const titles = [
    'Slack notifications for new posts',
    'Two-factor authentication',
    'Bulk edit of tags',
    'Public API rate limits in headers',
    'Fax export',
  ];
  for (const [i, status] of statuses.entries()) {
    const p = await w.posts.create(ideas.id, { title: titles[i]!, body: { json: {}, text: `Why: ${titles[i]}.` } });
    await w.posts.update(p.id, { status });
  }
  // A board a few weeks in: enough posts that the console's posts page is full on a laptop's screen.
  const more = [
    'Zapier integration',
    'Custom domains',
    'Mobile app',
    'CSV import',
    'Keyboard shortcuts',
    'Audit log export',
    'Granular roles',
    'Email digests',
    'Markdown in comments',
    'Emoji reactions',
    'Public roadmap embed',
    'SAML',
    'Webhook retries UI',
    'Dark mode for email',
    'Per-board permissions',
  ];
  for (const [i, title] of more.entries()) {
    const p = await w.posts.create(ideas.id, {
      title,
      body: { json: {}, text: `Customers asked for ${title.toLowerCase()}.` },
    });
    for (let n = 0; n < (i * 7) % 5; n++)
      await w.participation.vote({ postId: p.id, email: `fan${n}@example.com`, notifyMe: false });
  }
  await w.participation.comment({
    postId: dark.id,
    email: 'dana@bigco.example',
    authorUserId: 'u1',
    vouched: true,
    bodyText: 'Our whole support team works nights: this would help a lot.',
    notifyMe: false,
  });
  const entry = await w.changelog.create({
    boardId: ideas.id,
    title: 'Export to CSV',
    body: '## Every board, as a spreadsheet\n\nOpen a board and choose **Export**. [Read more](https://example.com/csv).',
  });
  await w.changelog.publish(entry.id);
  const draft = await w.changelog.create({ boardId: ideas.id, title: 'Dark mode', body: 'Coming soon.' });
  await owner.keys.create('read:write');
  // Linear, GitHub and Slack connected, at the engine's addresses for them (local stand-ins for the screenshots, an
  // address where nothing listens for the look's tests: TOUR_ENGINE_OPTIONS), and an issue asked of Linear for a post.
  await owner.integrations.connect({ service: 'linear', apiKey: LINEAR_API_KEY, webhookSecret: 'tour-secret' });
  await owner.integrations.connect({ service: 'github', token: GITHUB_TOKEN, webhookSecret: 'tour-secret' });
  const hooks = engine.integrations.config.slack.hooksUrl;
  const slack = await owner.integrations.connect({ service: 'slack', webhookUrl: `${hooks}T0001/B0001/tour` });
  await owner.integrations.updateSettings(slack.id, { notices: ['post.created', 'post.status_changed'] });
  await engine.scheduler.runDue();
  await owner.integrations.createIssue(dark.id, 'linear', LINEAR_TEAM.id);
  await engine.scheduler.runDue();
  const contact = (await w.contacts.list({ limit: 1 })).data[0]!;
  const company = (await w.companies.list()).data[0]!;
  // Single sign-on set up, one domain verified and one not: the settings page shows both, and the workspace's own
  // sign-in page offers it. Nothing is asked of the provider until someone signs in with it.
  await w.team.configureSso(CLI_ACTOR, {
    issuer: 'https://login.acme.example',
    clientId: 'feedback-console',
    clientSecret: 'not-a-real-secret',
    allowedDomains: ['acmecorp.example', 'acme-labs.example'],
  });
  await w.team.attestDomains(CLI_ACTOR, ['acmecorp.example']);
  // The link a notification mail carries to its recipient's preferences.
  const eva = (await w.contacts.list({ limit: 10 })).data.find((c) => c.email === 'eva@grossfirma.example')!;
  const mailToken = await engine.mailLinks.sign({
    organizationId: s.org.id,
    contactId: eva.id,
    emailHash: hashEmail(eva.email)!,
  });
  const { signIn } = await w.team.add(
    CLI_ACTOR,
    { email: 'owner@acme.example', role: 'owner', name: 'Olivia Owner' },
    { invite: false, workspace: 'Acme' },
  );
  const signInLink = `/console/sign-in/link?token=${signIn.token}`;
  // A second workspace of the same owner: the console's home lets them choose.
  const beta = await engine.organizations.create({ name: 'Beta Labs', plan: 'paid' });
  await engine
    .workspace(beta.id)
    .team.add(CLI_ACTOR, { email: 'owner@acme.example', role: 'owner' }, { invite: false, workspace: 'Beta Labs' });
  const stops: TourStop[] = [
    { face: 'portal', name: 'boards', path: `${portal}/` },
    { face: 'portal', name: 'board', path: `${portal}/b/${ideas.slug}` },
    { face: 'portal', name: 'post', path: `${portal}/b/${ideas.slug}/p/${dark.slug}` },
    { face: 'portal', name: 'new-post', path: `${portal}/b/${ideas.slug}/new` },
    { face: 'portal', name: 'roadmap', path: `${portal}/roadmap` },
    { face: 'portal', name: 'changelog', path: `${portal}/changelog` },
    { face: 'portal', name: 'not-found', path: `${portal}/b/no-such-board` },
    { face: 'portal', name: 'identify', path: `${portal}/b/${ideas.slug}`, steps: voteAnonymously },
    {
      face: 'portal',
      name: 'code',
      path: `${portal}/b/${ideas.slug}`,
      async steps(page, tr = translator()) {
        await voteAnonymously(page, tr);
        await page.getByLabel(tr.t('identify.name')).fill('Robin');
        await page.getByLabel(tr.t('identify.email')).fill(freshAddress());
        await page.getByRole('button', { name: tr.t('identify.send') }).click();
        await page.getByRole('heading', { name: tr.t('code.heading') }).waitFor();
      },
    },
    { face: 'mail', name: 'preferences', path: `/portal/mail/preferences?t=${mailToken}` },
    { face: 'console', name: 'sign-in', path: '/console/sign-in', signedOut: true },
    { face: 'console', name: 'link', path: '/console/sign-in/link?token=not-a-real-one', signedOut: true },
    {
      face: 'console',
      name: 'code',
      path: '/console/sign-in',
      signedOut: true,
      async steps(page) {
        await page.getByLabel('Your work email').fill(freshAddress());
        await page.getByRole('button', { name: 'Email me a sign-in code' }).click();
        await page.getByRole('heading', { name: 'Check your email' }).waitFor();
      },
    },
    { face: 'console', name: 'workspace-sign-in', path: `${consoleAt}/sign-in`, signedOut: true },
    { face: 'console', name: 'workspaces', path: '/console/' },
    { face: 'console', name: 'posts', path: `${consoleAt}/posts` },
    { face: 'console', name: 'post', path: `${consoleAt}/posts/${dark.id}` },
    { face: 'console', name: 'duplicates', path: `${consoleAt}/duplicates` },
    { face: 'console', name: 'roadmap', path: `${consoleAt}/roadmap` },
    { face: 'console', name: 'changelog', path: `${consoleAt}/changelog` },
    { face: 'console', name: 'changelog-entry', path: `${consoleAt}/changelog/${draft.id}` },
    { face: 'console', name: 'contacts', path: `${consoleAt}/contacts` },
    { face: 'console', name: 'contact', path: `${consoleAt}/contacts/${contact.id}` },
    { face: 'console', name: 'contact-new', path: `${consoleAt}/contacts/new` },
    { face: 'console', name: 'contact-export', path: `${consoleAt}/contacts/${contact.id}/export` },
    { face: 'console', name: 'contact-erase', path: `${consoleAt}/contacts/${contact.id}/erase` },
    { face: 'console', name: 'companies', path: `${consoleAt}/companies` },
    { face: 'console', name: 'company', path: `${consoleAt}/companies/${company.id}` },
    { face: 'console', name: 'webhooks', path: `${consoleAt}/webhooks` },
    { face: 'console', name: 'webhook', path: `${consoleAt}/webhooks/${hook.id}` },
    { face: 'console', name: 'integrations', path: `${consoleAt}/integrations` },
    { face: 'console', name: 'keys', path: `${consoleAt}/keys` },
    { face: 'console', name: 'settings', path: `${consoleAt}/settings` },
    { face: 'console', name: 'team', path: `${consoleAt}/team` },
    { face: 'console', name: 'audit', path: `${consoleAt}/audit` },
  ];
  return { stops, signInLink, organizationId: s.org.id };
}

/** What a browser keeps once an owner signed into the console with the tour's one-time link (its cookies). */
export type TourSession = Awaited<ReturnType<BrowserContext['storageState']>>;

/** Sign into the console with the tour's link (once: the link works once), and keep the session for every context. */
export async function tourSession(browser: Browser, base: string, signInLink: string): Promise<TourSession> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${base}${signInLink}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // The owner is on two teams: the console asks which workspace first.
    await page.getByRole('heading', { name: 'Your workspaces' }).waitFor();
    return await context.storageState();
  } finally {
    await context.close();
  }
}

/** A browser context at a screen and theme, signed into the console (unless `session` is null). */
export function tourContext(
  browser: Browser,
  session: TourSession | null,
  screen: (typeof SCREENS)[number],
  theme: (typeof THEMES)[number],
): Promise<BrowserContext> {
  return browser.newContext({
    ...(session ? { storageState: session } : {}),
    bypassCSP: true, // axe runs in the page
    viewport: { width: screen.width, height: screen.height },
    colorScheme: theme,
    isMobile: screen.width < 500,
    hasTouch: screen.width < 500,
  });
}
