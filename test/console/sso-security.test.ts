import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createConsole } from '../../src/console/index.js';
import { CLI_ACTOR } from '../../src/engine/index.js';
import { createApp } from '../../src/h3/index.js';
import { describeEngine, refusal } from '../helpers/harness.js';
import { OIDC_CLIENT, type OidcProvider, startOidcProvider } from '../helpers/oidc.js';
import { startSmtpSink } from '../helpers/smtp.js';
import { Visitor } from '../portal/visitor.js';

// Single sign-on vouches for one workspace only (docs/security.md), tried as the attacker of the audit would: the
// admin of one workspace, with a provider they run that vouches for any address, aiming at another workspace's owner.
// A real OpenID Connect provider (oidc-provider), walked through over HTTP; the console over app.fetch; a DNS resolver
// whose TXT records the test decides.

const ORIGIN = 'http://console.test';
const smtp = await startSmtpSink();
const txt = new Map<string, string[][]>();
let idp: OidcProvider;
beforeAll(async () => {
  idp = await startOidcProvider(() => [`${ORIGIN}/console/sso/callback`]);
});
afterAll(async () => {
  await idp?.close();
  await smtp.close();
});

describeEngine(
  'single sign-on vouches for one workspace only',
  (h) => {
    let app: ReturnType<typeof createApp>;
    beforeAll(() => {
      app = createApp({
        engine: h.engine,
        sites: [createConsole({ engine: h.engine, limits: { signInsPerIp: 10_000, codesPerEmail: 100 } })],
        logError: () => {},
      });
    });
    let n = 0;
    /** A workspace with its owner, a second team member if asked, and its single sign-on if asked (by the command line). */
    async function workspace(
      owner: string,
      options: { sso?: string[]; also?: Array<[string, 'admin' | 'member' | 'viewer']> } = {},
    ) {
      const org = await h.engine.organizations.create({ name: `Workspace ${++n}`, plan: 'paid' });
      const team = h.engine.workspace(org.id).team;
      await team.add(CLI_ACTOR, { email: owner, role: 'owner' }, { invite: false, workspace: org.name });
      for (const [email, role] of options.also ?? [])
        await team.add(CLI_ACTOR, { email, role }, { invite: false, workspace: org.name });
      if (options.sso)
        await team.configureSso(CLI_ACTOR, {
          issuer: idp.issuer,
          clientId: OIDC_CLIENT.client_id,
          clientSecret: OIDC_CLIENT.client_secret,
          allowedDomains: options.sso,
        });
      return { org, team };
    }
    /** Sign a visitor in with a mailed code from the shared page. */
    async function signInByCode(v: Visitor, email: string) {
      await v.get('/console/sign-in');
      const seen = smtp.mails.length;
      const asked = await v.post('/console/sign-in', { email });
      const signInId = /name="signInId" value="([^"]+)"/.exec(asked.text)![1]!;
      return v.post('/console/sign-in/code', { signInId, code: await smtp.codeFor(email, seen) });
    }
    /** Single sign-on from a page (`/console/sign-in` or `/console/ORG/sign-in`), through the provider as `account`: the callback's answer. */
    async function signInWithSso(v: Visitor, page: string, email: string, account = email) {
      await v.get(page);
      const started = await v.post(page.replace(/sign-in$/, 'sso'), { email });
      if (started.status !== 200) return started;
      const to = /<a href="([^"]+)">Continue to sign in<\/a>/.exec(started.text)![1]!.replaceAll('&amp;', '&');
      const back = new URL(await idp.login(to, account));
      return v.get(back.pathname + back.search);
    }
    const actions = async (team: {
      auditLog: (
        actor: typeof CLI_ACTOR,
        o?: { limit?: number },
      ) => Promise<{ data: Array<{ action: string; actor: string; detail: Record<string, unknown> }> }>;
    }) => (await team.auditLog(CLI_ACTOR, { limit: 50 })).data.map((e) => `${e.action} ${e.actor}`);

    it("the audit's attack: A's admin names B's domain and invites B's owner; the shared page never sends b.test to A's provider, and A's own provider opens A alone", async () => {
      const b = await workspace('owner@b.test');
      const a = await workspace('admin@a.test');
      // A's admin, on the console: single sign-on with their provider for b.test, and B's owner invited as a viewer.
      const admin = new Visitor(app, ORIGIN);
      await signInByCode(admin, 'admin@a.test');
      await admin.get(`/console/${a.org.id}/settings`);
      const saved = await admin.post(`/console/${a.org.id}/settings/sso`, {
        issuer: idp.issuer,
        clientId: OIDC_CLIENT.client_id,
        clientSecret: OIDC_CLIENT.client_secret,
        domains: 'b.test',
      });
      expect(saved.location).toBe(`/console/${a.org.id}/settings?done=sso`);
      await a.team.add(
        { email: 'admin@a.test' },
        { email: 'owner@b.test', role: 'viewer' },
        { invite: false, workspace: a.org.name },
      );
      // A cannot verify b.test: no TXT record of b.test holds A's token.
      await admin.get(`/console/${a.org.id}/settings`);
      const check = await admin.post(`/console/${a.org.id}/settings/sso/verify`, { domain: 'b.test' });
      expect(check.status).toBe(422);
      expect(check.text).toContain('No TXT record at _feedback-service.b.test holds feedback-service-verification=');

      // The shared sign-in page: b.test is verified for nobody, so nobody's provider is asked (nor given the address).
      const victim = new Visitor(app, ORIGIN);
      const asked = idp.seen.length;
      const shared = await signInWithSso(victim, '/console/sign-in', 'owner@b.test');
      expect(shared.status).toBe(422);
      expect(shared.text).toContain('No workspace signs in with single sign-on for b.test from this page');
      expect(idp.seen.length).toBe(asked);

      // A's own sign-in page: A's provider vouches for owner@b.test, and the session opens A, nothing else.
      const intruder = new Visitor(app, ORIGIN);
      const done = await signInWithSso(intruder, `/console/${a.org.id}/sign-in`, 'owner@b.test');
      expect([done.status, done.location]).toEqual([303, `/console/${a.org.id}/posts`]);
      expect((await intruder.get('/console/')).location).toBe(`/console/${a.org.id}/posts`);
      for (const path of ['keys', 'team', 'settings', 'posts', 'audit']) {
        const page = await intruder.get(`/console/${b.org.id}/${path}`);
        expect(page.status, path).toBe(404);
        expect(page.text).not.toContain(b.org.name);
      }
      await intruder.get(`/console/${a.org.id}/posts`);
      expect((await intruder.post(`/console/${b.org.id}/keys/create`, { scope: 'read:write' })).status).toBe(404);
      expect(
        (await intruder.post(`/console/${b.org.id}/team/role`, { email: 'owner@b.test', role: 'viewer' })).status,
      ).toBe(404);
      // Its workspaces page says nothing of B either.
      expect((await intruder.get('/console/sign-in')).text).not.toContain(b.org.name);
      // B's log has no sign-in; A's has the single sign-on, with its provider.
      expect((await actions(b.team)).filter((e) => e.startsWith('team.signed_in'))).toEqual([]);
      expect(
        (await a.team.auditLog(CLI_ACTOR)).data.find((e) => e.action === 'team.signed_in' && e.actor === 'owner@b.test')
          ?.detail,
      ).toEqual({ method: 'sso', issuer: idp.issuer });
    });

    it('a domain verified by its DNS record: the shared page sends its people to that workspace; it belongs to one workspace at a time', async () => {
      const c = await workspace('lead@c.test', { sso: ['c.test'] });
      const squatter = await workspace('boss@squat.test', { sso: ['c.test'] });
      const [mine] = (await c.team.sso())!.domains;
      const [theirs] = (await squatter.team.sso())!.domains;
      expect(mine!.record.name).toBe('_feedback-service.c.test');
      // Both tokens are published (the squatter's too); the first to check gets the domain.
      txt.set('_feedback-service.c.test', [
        [mine!.record.value],
        [theirs!.record.value.slice(0, 20), theirs!.record.value.slice(20)],
      ]);
      expect(await c.team.verifyDomain({ email: 'lead@c.test' }, 'c.test')).toMatchObject({
        domain: 'c.test',
        verified: true,
        verifiedBy: 'dns',
      });
      expect(await refusal(squatter.team.verifyDomain({ email: 'boss@squat.test' }, 'c.test'))).toMatchObject({
        code: 'ERR_CONFLICT',
      });
      // A member may not verify; only owners and admins.
      await c.team.add(CLI_ACTOR, { email: 'dev@c.test', role: 'member' }, { invite: false, workspace: c.org.name });
      expect((await refusal(c.team.verifyDomain({ email: 'dev@c.test' }, 'c.test'))).code).toBe('ERR_FORBIDDEN');

      const v = new Visitor(app, ORIGIN);
      const done = await signInWithSso(v, '/console/sign-in', 'lead@c.test');
      expect(done.location).toBe(`/console/${c.org.id}/posts`);
      expect(idp.seen.at(-1)!.get('login_hint')).toBe('lead@c.test');
      expect((await actions(c.team))[0]).toBe('team.signed_in lead@c.test');

      // The operator's word moves a domain; an owner's does not count.
      expect((await refusal(squatter.team.attestDomains({ email: 'boss@squat.test' }, ['c.test']))).code).toBe(
        'ERR_FORBIDDEN',
      );
      await squatter.team.attestDomains(CLI_ACTOR, ['c.test']);
      expect((await c.team.sso())!.domains[0]!.verified).toBe(false);
      expect((await actions(c.team))[0]).toBe('team.sso_domain_released cli');
      await c.team.attestDomains(CLI_ACTOR, ['c.test']);
    });

    it("a workspace that requires single sign-on: a mailed code opens the address's other teams, not that one; its provider then opens it in the same session", async () => {
      const d = await workspace('cto@d.test', {
        sso: ['d.test'],
        also: [
          ['pm@d.test', 'member'],
          ['freelancer@else.test', 'member'],
        ],
      });
      const other = await workspace('founder@e.test', { also: [['pm@d.test', 'viewer']] });
      await d.team.attestDomains(CLI_ACTOR, ['d.test']);
      await d.team.requireSso(CLI_ACTOR, true);

      const v = new Visitor(app, ORIGIN);
      await signInByCode(v, 'pm@d.test');
      // The code opened the other workspace; D is listed as asking for its own sign-in, and its pages lead there.
      const home = await v.get('/console/');
      expect(home.text).toContain(`href="/console/${other.org.id}/posts"`);
      expect(home.text).toContain(`href="/console/${d.org.id}/sign-in"`);
      expect((await v.get(`/console/${d.org.id}/posts`)).location).toBe(`/console/${d.org.id}/sign-in`);
      // D's provider, from D's page: the session keeps the other workspace and adds D.
      const done = await signInWithSso(v, `/console/${d.org.id}/sign-in`, 'pm@d.test');
      expect(done.location).toBe(`/console/${d.org.id}/posts`);
      expect((await v.get(`/console/${d.org.id}/posts`)).status).toBe(200);
      expect((await v.get(`/console/${other.org.id}/posts`)).status).toBe(200);
      // Someone of D's team whose address is not in a verified domain still signs in with a code.
      const freelancer = new Visitor(app, ORIGIN);
      await signInByCode(freelancer, 'freelancer@else.test');
      expect((await freelancer.get(`/console/${d.org.id}/posts`)).status).toBe(200);

      // Single sign-on off: what it proved no longer opens D (and codes open it again).
      await d.team.removeSso(CLI_ACTOR);
      expect((await v.get(`/console/${d.org.id}/posts`)).status).toBe(200); // the code's proof opens it now that nothing is required
      await d.team.configureSso(CLI_ACTOR, {
        issuer: idp.issuer,
        clientId: OIDC_CLIENT.client_id,
        clientSecret: OIDC_CLIENT.client_secret,
        allowedDomains: ['d.test'],
      });
      await d.team.attestDomains(CLI_ACTOR, ['d.test']);
      await d.team.requireSso(CLI_ACTOR, true);
      expect((await v.get(`/console/${d.org.id}/posts`)).location).toBe(`/console/${d.org.id}/sign-in`);
    });

    it("a single sign-on that is refused is in the workspace's audit log, with why, the address and the client's address", async () => {
      const f = await workspace('root@f.test', { sso: ['f.test'] });
      const v = new Visitor(app, ORIGIN);
      const refused = await signInWithSso(v, `/console/${f.org.id}/sign-in`, 'eve@f.test');
      expect(refused.status).toBe(422);
      expect(refused.text).toContain('eve@f.test is not on this workspace’s team: ask an owner to invite you.');
      const entry = (await f.team.auditLog(CLI_ACTOR)).data[0]!;
      expect(entry).toMatchObject({
        action: 'team.sso_refused',
        actor: 'eve@f.test',
        detail: { method: 'sso', issuer: idp.issuer, reason: 'not on the team' },
      });
      expect(entry.ip).toEqual(expect.any(String));
      // Another domain's address that the provider vouches for is refused too.
      const outside = await signInWithSso(
        new Visitor(app, ORIGIN),
        `/console/${f.org.id}/sign-in`,
        'root@f.test',
        'root@elsewhere.test',
      );
      expect(outside.text).toContain('root@elsewhere.test is not in a domain this workspace signs in with.');
      // The provider's own refusal (the person cancelled) is in the log too.
      const cancelled = new Visitor(app, ORIGIN);
      await cancelled.get(`/console/${f.org.id}/sign-in`);
      const started = await cancelled.post(`/console/${f.org.id}/sso`, { email: 'root@f.test' });
      const state = new URL(
        /<a href="([^"]+)">Continue to sign in<\/a>/.exec(started.text)![1]!.replaceAll('&amp;', '&'),
      ).searchParams.get('state')!;
      const denied = await cancelled.get(`/console/sso/callback?error=access_denied&state=${state}`);
      expect(denied.status).toBe(422);
      expect(denied.text).toContain('The sign-in provider did not sign you in (access_denied).');
      expect((await f.team.auditLog(CLI_ACTOR)).data[0]).toMatchObject({
        action: 'team.sso_refused',
        actor: 'unknown',
        detail: { reason: 'the provider answered access_denied' },
      });
      // A workspace page for an id that does not exist looks like any other and says nothing of it.
      const page = await v.get('/console/org_00000000000000000000000000/sign-in');
      expect(page.status).toBe(200);
      expect((await v.post('/console/org_00000000000000000000000000/sso', { email: 'x@f.test' })).text).toContain(
        'This workspace does not sign in with single sign-on',
      );
    });

    it('the sign-in forms take any input without a 5xx: addresses, codes, workspace ids and domains, fuzzed', async () => {
      const f = await workspace('fuzz@f2.test', { sso: ['f2.test'] });
      const admin = new Visitor(app, ORIGIN);
      await signInByCode(admin, 'fuzz@f2.test');
      const text = fc.oneof(
        fc.string({ maxLength: 300 }),
        fc.string({ unit: 'binary', maxLength: 50 }),
        fc.constantFrom(
          '',
          'a@b',
          'x\u0000@f2.test',
          '\ud800@f2.test',
          `${'a'.repeat(400)}@f2.test`,
          'fuzz@F2.TEST',
          ' @f2.test',
        ),
      );
      const visitor = new Visitor(app, ORIGIN);
      await visitor.get('/console/sign-in');
      await fc.assert(
        fc.asyncProperty(
          text,
          text,
          fc.constantFrom(f.org.id, 'org_00000000000000000000000000', 'org_', '..%2F', 'sign-in'),
          async (a, b, org) => {
            const answers = [
              await visitor.post('/console/sign-in', { email: a }),
              await visitor.post('/console/sign-in/code', { signInId: a, code: b }),
              await visitor.post('/console/sso', { email: a }),
              await visitor.post(`/console/${encodeURIComponent(org)}/sso`, { email: a }),
              await visitor.get(`/console/${encodeURIComponent(org)}/sign-in`),
              await admin.post(`/console/${f.org.id}/settings/sso/verify`, { domain: a }),
              await admin.post(`/console/${f.org.id}/settings/sso/require`, { required: b }),
            ];
            for (const [i, res] of answers.entries())
              expect(res.status, `answer ${i}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
          },
        ),
        {
          numRuns: Number(process.env.FUZZ_SIGN_IN_RUNS ?? 40),
          seed: Number(process.env.FUZZ_SEED ?? 46),
          // The failing answer's status and page in the report itself (a JSON report keeps no error's cause).
          includeErrorInReport: true,
        },
      );
    });
  },
  {
    engine: {
      mail: { smtpUrl: smtp.url },
      dns: {
        resolveTxt: async (name) =>
          txt.get(name) ??
          Promise.reject(Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' })),
      },
    },
    scheduler: true,
  },
);
