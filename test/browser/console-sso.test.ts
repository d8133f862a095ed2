import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
// @ts-expect-error: oidc-provider ships no types (its config is checked by the provider when it starts).
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsole } from '../../src/console/index.js';
import { CLI_ACTOR, SSO_CALLBACK_PATH } from '../../src/engine/index.js';
import { axeViolations, HAS_CHROMIUM, useBrowserStand } from '../helpers/browser.js';
import { refusal } from '../helpers/harness.js';

// Single sign-on to the console against a real OpenID Connect provider (oidc-provider, started here on 127.0.0.1),
// in chromium: the sign-in page, the provider's login and consent pages, the callback (state, nonce and PKCE checked by
// openid-client), and the session. Then what is refused: someone not on the team, a callback this browser did not start.

const CLIENT = { client_id: 'feedback-console', client_secret: 'a-secret-the-provider-issued' };
const SHOTS = process.env.CONSOLE_SCREENSHOTS ?? join(import.meta.dirname, '../../test-results/console');

describe.skipIf(!HAS_CHROMIUM)('single sign-on to the console (oidc-provider, chromium)', () => {
  const stand = useBrowserStand((engine) => ({ sites: [createConsole({ engine })] }), {
    mail: { publicUrl: () => stand.server?.url },
  });
  let idp: Server;
  let issuer: string;
  let orgId: string;
  /** What the provider saw in the authorization requests (PKCE must be there). */
  const seen: URLSearchParams[] = [];

  beforeAll(async () => {
    idp = createServer();
    await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
    const provider = new Provider(issuer, {
      clients: [
        {
          ...CLIENT,
          redirect_uris: [`${stand.server.url}${SSO_CALLBACK_PATH}`],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      findAccount: async (_ctx: unknown, id: string) => ({
        accountId: id,
        claims: async () => ({ sub: id, email: id, email_verified: true, name: id.split('@')[0] }),
      }),
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      features: { devInteractions: { enabled: true } },
      pkce: { required: () => true },
    });
    const callback = provider.callback();
    idp.on('request', (req, res) => {
      const params = new URL(req.url ?? '/', issuer).searchParams;
      if (params.has('client_id')) seen.push(params);
      callback(req, res);
    });
    const org = await stand.engine.organizations.create({ name: 'Acme', plan: 'paid' });
    orgId = org.id;
    const team = stand.engine.workspace(org.id).team;
    await team.add(CLI_ACTOR, { email: 'ana@acme.example', role: 'member' }, { invite: false, workspace: 'Acme' });
    await team.configureSso(CLI_ACTOR, {
      issuer,
      ...{ clientId: CLIENT.client_id, clientSecret: CLIENT.client_secret },
      allowedDomains: ['acme.example'],
    });
    // The operator vouches that acme.example is Acme's: the shared sign-in page then sends its people to Acme's provider.
    await team.attestDomains(CLI_ACTOR, ['acme.example']);
  });
  afterAll(() => new Promise<void>((resolve) => (idp ? idp.close(() => resolve()) : resolve())));

  /** Through the sign-in page, the provider's login and consent pages, and back (axe needs JavaScript; the flow does not). */
  async function signInWithSso(email: string, javaScriptEnabled = true) {
    const context = await stand.browser.newContext({ bypassCSP: javaScriptEnabled, javaScriptEnabled });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${stand.server.url}/console/sign-in`);
    if (javaScriptEnabled) expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel('Your work email').fill(email);
    await page.getByRole('button', { name: 'Sign in with single sign-on' }).click();
    await page.waitForURL(new RegExp(`^${issuer}/interaction/`));
    await page.locator('input[name=login]').fill(email);
    await page.locator('input[name=password]').fill('anything');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    return { context, page };
  }

  it('a team member signs in through the provider: PKCE, state and nonce sent; a session cookie; the posts page', async () => {
    const { context, page } = await signInWithSso('ana@acme.example');
    await page.getByRole('heading', { name: 'Posts' }).waitFor();
    expect(page.url()).toBe(`${stand.server.url}/console/${orgId}/posts`);
    const request = seen.at(-1)!;
    expect(request.get('code_challenge_method')).toBe('S256');
    expect(request.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(request.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(request.get('nonce')).toMatch(/^[\w-]{20,}$/);
    expect(request.get('redirect_uri')).toBe(`${stand.server.url}${SSO_CALLBACK_PATH}`);
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'fs_console')).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      path: '/console',
    });
    expect(cookies.find((c) => c.name === 'fs_sso')).toBeUndefined();
    const audit = (await stand.engine.workspace(orgId).team.auditLog(CLI_ACTOR)).data;
    expect(audit.map((e) => e.action)).toContain('team.sso_configured');
    await context.close();
  });

  it('refuses someone the provider vouches for who is not on the team (JavaScript off), and a callback this browser did not start', async () => {
    const { context, page } = await signInWithSso('eve@acme.example', false);
    await page.getByText('eve@acme.example is not on this workspace’s team: ask an owner to invite you.').waitFor();
    expect((await context.cookies()).find((c) => c.name === 'fs_console')).toBeUndefined();
    await context.close();

    const forged = await fetch(`${stand.server.url}${SSO_CALLBACK_PATH}?code=abc&state=def`);
    expect(forged.status).toBe(422);
    expect(await forged.text()).toContain('This single sign-on has no sign-in started in this browser; start again.');
    const other = await fetch(`${stand.server.url}/console/sign-in`);
    const csrf = /name="csrf" value="([^"]+)"/.exec(await other.text())![1]!;
    const cookie = other.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const noSso = await fetch(`${stand.server.url}/console/sso`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie,
        origin: stand.server.url,
        'sec-fetch-site': 'same-origin',
      },
      body: new URLSearchParams({ csrf, email: 'someone@elsewhere.example' }),
    });
    expect(noSso.status).toBe(422);
    expect(await noSso.text()).toContain(
      'No workspace signs in with single sign-on for elsewhere.example from this page: use the emailed code',
    );
  });

  it("a workspace's own sign-in page: single sign-on for a domain nobody has verified yet; the settings show each domain and its record (axe: 0)", async () => {
    const beta = await stand.engine.organizations.create({ name: 'Beta', plan: 'paid' });
    const team = stand.engine.workspace(beta.id).team;
    await team.add(CLI_ACTOR, { email: 'bob@beta.example', role: 'owner' }, { invite: false, workspace: 'Beta' });
    await team.configureSso(CLI_ACTOR, {
      issuer,
      clientId: CLIENT.client_id,
      clientSecret: CLIENT.client_secret,
      allowedDomains: ['beta.example', 'beta-labs.example'],
    });
    await team.attestDomains(CLI_ACTOR, ['beta-labs.example']);
    const context = await stand.browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`${stand.server.url}/console/${beta.id}/sign-in`);
      expect(await axeViolations(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    }
    await page.screenshot({ path: join(SHOTS, 'console-workspace-sign-in.png') });
    await page.getByLabel('Your work email').fill('bob@beta.example');
    await page.getByRole('button', { name: 'Sign in with single sign-on' }).click();
    await page.waitForURL(new RegExp(`^${issuer}/interaction/`));
    await page.locator('input[name=login]').fill('bob@beta.example');
    await page.locator('input[name=password]').fill('anything');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Posts' }).waitFor();
    expect(page.url()).toBe(`${stand.server.url}/console/${beta.id}/posts`);
    await page.goto(`${stand.server.url}/console/${beta.id}/settings`);
    await page.getByText('Verified (by whoever runs this server').waitFor();
    await page.getByText('_feedback-service.beta.example').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    // The section on a phone: the records and addresses wrap instead of widening the page.
    const section = page.locator('section[aria-labelledby=sso-h]');
    const wide = await section.evaluate((el) =>
      [...el.querySelectorAll('*')]
        .filter((c) => c.getBoundingClientRect().right > el.getBoundingClientRect().right + 1)
        .map((c) => `${c.tagName}.${c.className}:${Math.round(c.getBoundingClientRect().right)}`),
    );
    expect(wide).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
    await section.screenshot({ path: join(SHOTS, 'console-sso-settings.png') });
    await context.close();
  });

  it('the settings: the secret is sealed at rest and never shown; bad settings are refused; a member may not change them', async () => {
    const team = stand.engine.workspace(orgId).team;
    expect(await team.sso()).toMatchObject({
      issuer,
      clientId: CLIENT.client_id,
      domains: [{ domain: 'acme.example', verified: true, verifiedBy: 'operator' }],
      required: false,
    });
    const stored = await stand.engine.db.one<{ client_secret: string }>(
      'SELECT client_secret FROM workspace_sso WHERE organization_id = ?',
      [orgId],
    );
    expect(stored!.client_secret).toMatch(/^fs1:[0-9a-f]{8}:/);
    expect(stored!.client_secret).not.toContain(CLIENT.client_secret);
    expect(
      (
        await refusal(
          team.configureSso(CLI_ACTOR, {
            issuer: 'http://idp.example.com',
            clientId: 'x',
            clientSecret: 'y',
            allowedDomains: ['acme.example'],
          }),
        )
      ).message,
    ).toBe('The issuer must be an https URL.');
    expect(
      (await refusal(team.configureSso(CLI_ACTOR, { issuer, clientId: 'x', clientSecret: 'y', allowedDomains: [' '] })))
        .message,
    ).toBe('Name at least one email domain whose people sign in this way.');
    expect(
      (
        await refusal(
          team.configureSso(
            { email: 'ana@acme.example' },
            { issuer, clientId: 'x', clientSecret: 'y', allowedDomains: ['acme.example'] },
          ),
        )
      ).message,
    ).toBe('Only owners and admins may do this.');
    expect((await team.sso())!.clientId).toBe(CLIENT.client_id);
  });
});
