import { afterAll, beforeAll, expect, it } from 'vitest';
import { createConsole } from '../../src/console/index.js';
import { CLI_ACTOR } from '../../src/engine/index.js';
import { createApp } from '../../src/h3/index.js';
import { describeEngine, intoFreshMinute } from '../helpers/harness.js';
import { startSmtpSink } from '../helpers/smtp.js';
import { Visitor } from '../portal/visitor.js';

// The team console over app.fetch (docs/console.md): signing in with a mailed code or a one-time link, sessions and
// their cookie, anti-forgery checks, rate limits, workspaces the person is not on, and the posts page.

const smtp = await startSmtpSink();
afterAll(() => smtp.close());

describeEngine(
  'console',
  (h) => {
    let app: ReturnType<typeof createApp>;
    beforeAll(() => {
      app = createApp({
        engine: h.engine,
        sites: [createConsole({ engine: h.engine, limits: { codesPerEmail: 3, signInsPerIp: 1000 } })],
        logError: () => {},
      });
    });
    let n = 0;
    async function workspace() {
      const org = await h.engine.organizations.create({ name: `Acme ${++n}`, plan: 'paid' });
      const w = h.engine.workspace(org.id);
      return { org, w };
    }
    async function signInByCode(v: Visitor, email: string) {
      await v.get('/console/sign-in');
      const seen = smtp.mails.length;
      const asked = await v.post('/console/sign-in', { email });
      expect(asked.status).toBe(200);
      const signInId = /name="signInId" value="([^"]+)"/.exec(asked.text)![1]!;
      return v.post('/console/sign-in/code', { signInId, code: await smtp.codeFor(email, seen) });
    }

    it("signs in with a mailed code: a fresh HttpOnly, SameSite=Lax session cookie, then the workspace's posts", async () => {
      const { org } = await workspace();
      await h.engine
        .workspace(org.id)
        .team.add(CLI_ACTOR, { email: 'pm@example.com', role: 'member' }, { invite: false, workspace: org.name });
      const v = new Visitor(app, 'http://console.test');
      const first = await v.get('/console/');
      expect([first.status, first.location]).toEqual([303, '/console/sign-in']);
      const form = await v.get('/console/sign-in');
      expect(form.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      const done = await signInByCode(v, 'pm@example.com');
      expect([done.status, done.location]).toEqual([303, '/console/']);
      const set = done.headers.getSetCookie().find((c) => c.startsWith('fs_console='))!;
      expect(set).toMatch(/^fs_console=[\w-]{43}; Path=\/console; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
      const home = await v.get('/console/');
      expect(home.location).toBe(`/console/${org.id}/posts`);
      const posts = await v.get(home.location!);
      expect(posts.status).toBe(200);
      expect(posts.text).toContain('pm@example.com · member');
    });

    it('a one-time link asks for a click (mail scanners do not use it up) and works once', async () => {
      const { org } = await workspace();
      const { signIn } = await h.engine
        .workspace(org.id)
        .team.add(CLI_ACTOR, { email: 'own@example.com', role: 'owner' }, { invite: false, workspace: org.name });
      const token = new URL(signIn.link!).searchParams.get('token')!;
      const v = new Visitor(app, 'http://console.test');
      const opened = await v.get(`/console/sign-in/link?token=${token}`);
      expect(opened.text).toContain('<button type="submit">Sign in</button>');
      expect((await v.post('/console/sign-in/link', { token })).location).toBe('/console/');
      expect((await v.get('/console/')).location).toBe(`/console/${org.id}/posts`);
      const again = await new Visitor(app, 'http://console.test')
        .get(`/console/sign-in/link?token=${token}`)
        .then(async () => v.post('/console/sign-in/link', { token }));
      expect(again.status).toBe(422);
      expect(again.text).toContain('This sign-in is no longer valid');
    });

    it('refuses forged forms, limits codes per address, and signs out for good', async () => {
      intoFreshMinute(h);
      const { org } = await workspace();
      await h.engine
        .workspace(org.id)
        .team.add(CLI_ACTOR, { email: 'ops@example.com', role: 'admin' }, { invite: false, workspace: org.name });
      const v = new Visitor(app, 'http://console.test');
      await v.get('/console/sign-in');
      expect((await v.post('/console/sign-in', { email: 'ops@example.com', csrf: 'x'.repeat(43) })).status).toBe(403);
      expect(
        (await v.post('/console/sign-in', { email: 'ops@example.com' }, { 'sec-fetch-site': 'cross-site' })).status,
      ).toBe(403);
      await signInByCode(v, 'ops@example.com');
      expect((await v.post('/console/sign-in', { email: 'ops@example.com' })).status).toBe(200);
      expect((await v.post('/console/sign-in', { email: 'ops@example.com' })).status).toBe(200);
      const limited = await v.post('/console/sign-in', { email: 'ops@example.com' });
      expect(limited.status).toBe(429);
      // The seconds left in the engine's clock minute, however far that clock is from the machine's.
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      const cookie = v.cookies.get('fs_console')!.value;
      const out = await v.post('/console/sign-out', {});
      expect(out.location).toBe('/console/sign-in');
      expect(await h.engine.team.session(cookie)).toBeNull();
      expect((await v.get('/console/')).location).toBe('/console/sign-in');
    });

    it('limits sign-in requests per client address (behind a trusted proxy, its X-Forwarded-For)', async () => {
      intoFreshMinute(h);
      const proxied = createApp({
        engine: h.engine,
        sites: [createConsole({ engine: h.engine, trustProxy: true, limits: { signInsPerIp: 2 } })],
        logError: () => {},
      });
      const ip = { 'x-forwarded-for': `198.51.100.${Math.floor(Math.random() * 250) + 1}` };
      const v = new Visitor(proxied, 'http://console.test');
      await v.get('/console/sign-in', ip);
      for (const expected of [200, 200, 429])
        expect((await v.post('/console/sign-in', { email: `nobody${expected}@example.com` }, ip)).status).toBe(
          expected,
        );
      // Another address is not held back by that one.
      expect(
        (await v.post('/console/sign-in', { email: 'nobody@example.com' }, { 'x-forwarded-for': '203.0.113.250' }))
          .status,
      ).toBe(200);
    });

    it("the posts page lists every board's posts by votes or newest, searches, shows held posts; other workspaces are 404", async () => {
      const { org, w } = await workspace();
      const other = await workspace();
      await w.team.add(CLI_ACTOR, { email: 'tri@example.com', role: 'viewer' }, { invite: false, workspace: org.name });
      const ideas = await w.boards.create({ name: 'Ideas' });
      const bugs = await w.boards.create({ name: 'Bugs' });
      const dark = await w.posts.create(ideas.id, { title: 'Dark mode', body: { json: {}, text: 'Please' } });
      await w.posts.create(bugs.id, { title: 'Crash on export', body: { json: {}, text: 'Stack trace attached' } });
      for (let i = 0; i < 3; i++)
        await w.participation.vote({ postId: dark.id, email: `v${i}@example.com`, notifyMe: false });
      await w.participation.post(
        {
          boardId: ideas.id,
          title: 'Held idea',
          body: { json: {}, text: 'Waiting' },
          email: 'anon@example.com',
          notifyMe: false,
        },
        { held: true },
      );
      const secret = await other.w.boards.create({ name: 'Secret' });
      await other.w.posts.create(secret.id, { title: 'Other workspace post', body: { json: {}, text: '' } });

      const v = new Visitor(app, 'http://console.test');
      await signInByCode(v, 'tri@example.com');
      const titles = (text: string) =>
        [...text.matchAll(/<td class="title[^"]*"><a href="[^"]+"[^>]*>([^<]+)/g)].map((m) => m[1]!.trim());
      const base = `/console/${org.id}/posts`;
      expect(titles((await v.get(base)).text)).toEqual(['Dark mode', 'Held idea', 'Crash on export']);
      expect(titles((await v.get(`${base}?sort=newest`)).text)).toEqual(['Held idea', 'Crash on export', 'Dark mode']);
      expect(titles((await v.get(`${base}?q=export+cra`)).text)).toEqual(['Crash on export']);
      expect(titles((await v.get(`${base}?held=1`)).text)).toEqual(['Held idea']);
      expect(titles((await v.get(`${base}?board=${bugs.id}`)).text)).toEqual(['Crash on export']);
      expect((await v.get(`${base}?held=1`)).text).toContain('<span class="held">held</span>');
      for (const path of [`/console/${other.org.id}/posts`, `/console/${other.org.id}/posts?board=${secret.id}`]) {
        const page = await v.get(path);
        expect(page.status).toBe(404);
        expect(page.text).not.toContain('Other workspace post');
      }
      // The first look offers no "new since" filter (there was no look before); `new=1` then filters nothing out.
      expect((await v.get(base)).text).not.toContain('New since my last look');
      expect(titles((await v.get(`${base}?new=1`)).text)).toEqual(['Dark mode', 'Held idea', 'Crash on export']);
      // Another workspace's board id on one's own page filters to nothing.
      expect(titles((await v.get(`${base}?board=${secret.id}`)).text)).toEqual([]);
    });

    it('pages through the posts with a next link and survives a bad cursor', async () => {
      const { org, w } = await workspace();
      await w.team.add(
        CLI_ACTOR,
        { email: 'pager@example.com', role: 'owner' },
        { invite: false, workspace: org.name },
      );
      const board = await w.boards.create({ name: 'Ideas' });
      for (let i = 0; i < 55; i++)
        await w.posts.create(board.id, { title: `Idea ${String(i).padStart(2, '0')}`, body: { json: {}, text: '' } });
      const v = new Visitor(app, 'http://console.test');
      await signInByCode(v, 'pager@example.com');
      const first = await v.get(`/console/${org.id}/posts?sort=newest`);
      const next = /href="([^"]+)" rel="next"/.exec(first.text)![1]!.replaceAll('&amp;', '&');
      const second = await v.get(next);
      const count = (text: string) => (text.match(/<td class="title/g) ?? []).length;
      expect([count(first.text), count(second.text)]).toEqual([50, 5]);
      expect(second.text).toContain('Idea 00');
      expect((await v.get(`/console/${org.id}/posts?cursor=nonsense`)).status).toBe(200);
    });

    it("every post route answers 404 for another workspace's ids; a viewer's forged form is refused (403) and changes nothing; a form without the token is 403", async () => {
      const { org, w } = await workspace();
      const other = await workspace();
      await w.team.add(
        CLI_ACTOR,
        { email: 'tri2@example.com', role: 'member' },
        { invite: false, workspace: org.name },
      );
      await w.team.add(
        CLI_ACTOR,
        { email: 'look@example.com', role: 'viewer' },
        { invite: false, workspace: org.name },
      );
      await other.w.team.add(
        CLI_ACTOR,
        { email: 'boss@example.com', role: 'owner' },
        { invite: false, workspace: other.org.name },
      );
      const mine = await w.posts.create((await w.boards.create({ name: 'Ideas' })).id, {
        title: 'Mine',
        body: { json: {}, text: '' },
      });
      const theirs = await other.w.posts.create((await other.w.boards.create({ name: 'Secret' })).id, {
        title: 'Other workspace post',
        body: { json: {}, text: 'secret text' },
      });

      const v = new Visitor(app, 'http://console.test');
      await signInByCode(v, 'tri2@example.com');
      expect((await v.get(`/console/${org.id}/posts/${mine.id}`)).status).toBe(200);
      const forms: Array<[string, Record<string, string>]> = [
        ['status', { status: 'planned', note: 'x' }],
        ['moderate', { decision: 'approved' }],
        ['reply', { text: 'x' }],
        ['notes', { text: 'x' }],
        ['edit', { title: 'Taken', body: '' }],
        ['merge', { into: mine.id }],
      ];
      // Their post under my workspace, and my post under theirs: 404 everywhere, and nothing of theirs shown.
      for (const base of [
        `/console/${org.id}/posts/${theirs.id}`,
        `/console/${other.org.id}/posts/${mine.id}`,
        `/console/${other.org.id}/posts/${theirs.id}`,
      ]) {
        const page = await v.get(base);
        expect(page.status, base).toBe(404);
        expect(page.text).not.toContain('Other workspace post');
        for (const [action, fields] of forms)
          expect((await v.post(`${base}/${action}`, fields)).status, `${base}/${action}`).toBe(404);
      }
      // Merging into another workspace's post from my own: 404 (no such post here).
      expect((await v.post(`/console/${org.id}/posts/${mine.id}/merge`, { into: theirs.id })).status).toBe(404);
      expect(await other.w.posts.retrieve(theirs.id)).toMatchObject({
        title: 'Other workspace post',
        status: 'open',
        commentCount: 0,
        mergedIntoId: null,
      });

      // Without the anti-forgery field: 403.
      expect(
        (await v.post(`/console/${org.id}/posts/${mine.id}/status`, { csrf: 'forged', status: 'planned' })).status,
      ).toBe(403);

      // A viewer sees no forms but forges one: the engine refuses it.
      const viewer = new Visitor(app, 'http://console.test');
      await signInByCode(viewer, 'look@example.com');
      const page = await viewer.get(`/console/${org.id}/posts/${mine.id}`);
      expect(page.text).not.toContain('/status"');
      for (const [action, fields] of forms) {
        const res = await viewer.post(`/console/${org.id}/posts/${mine.id}/${action}`, fields);
        expect(res.status, action).toBe(403);
        expect(res.text).toContain('Your role (viewer) may read but not change anything.');
      }
      expect(await w.posts.retrieve(mine.id)).toMatchObject({ title: 'Mine', status: 'open', commentCount: 0 });
      // Nothing the viewer tried is in the audit log: only their sign-in.
      expect(
        (await w.team.auditLog(CLI_ACTOR, { limit: 20 })).data
          .filter((e) => e.actor === 'look@example.com')
          .map((e) => e.action),
      ).toEqual(['team.signed_in']);
    });

    it('an owner invites, changes a role and removes on the team page; the invitee signs in with the mailed link; the audit log shows it all to owners only', async () => {
      const { org, w } = await workspace();
      const other = await workspace();
      await w.team.add(CLI_ACTOR, { email: 'own2@example.com', role: 'owner' }, { invite: false, workspace: org.name });
      const owner = new Visitor(app, 'http://console.test');
      await signInByCode(owner, 'own2@example.com');
      const teamPath = `/console/${org.id}/team`;
      expect((await owner.get(teamPath)).text).toContain('Send invitation');

      const seen = smtp.mails.length;
      const invited = await owner.post(`${teamPath}/invite`, {
        email: 'New.Person@Example.com',
        name: 'Nia',
        role: 'member',
      });
      expect([invited.status, invited.location]).toEqual([303, `${teamPath}?done=invited`]);
      await smtp.waitFor(seen + 1);
      const mail = smtp.mails.at(-1)!;
      expect(mail.to).toEqual(['new.person@example.com']);
      const link = /(https:\/\/feedback\.example\/console\/sign-in\/link\?token=[\w-]+)/.exec(
        mail.data.replace(/=\r\n/g, '').replace(/=3D/g, '='),
      )![1]!;
      expect((await owner.get(teamPath)).text).toMatch(/new\.person@example\.com.*invited/s);
      // A second invitation of the same address is refused beside the form.
      const again = await owner.post(`${teamPath}/invite`, { email: 'new.person@example.com', role: 'member' });
      expect(again.status).toBe(409);
      expect(again.text).toContain('new.person@example.com is on the team already.');

      // The invitee signs in with the link, sees the team but no forms, and cannot invite (403) or read the audit log.
      const invitee = new Visitor(app, 'http://console.test');
      await invitee.get(new URL(link).pathname + new URL(link).search);
      expect(
        (await invitee.post('/console/sign-in/link', { token: new URL(link).searchParams.get('token')! })).location,
      ).toBe('/console/');
      const seenByMember = await invitee.get(teamPath);
      expect(seenByMember.text).not.toContain('Send invitation');
      expect(seenByMember.text).not.toContain('Audit log');
      expect((await invitee.post(`${teamPath}/invite`, { email: 'x@example.com', role: 'owner' })).status).toBe(403);
      expect((await invitee.get(`/console/${org.id}/audit`)).status).toBe(403);

      expect((await owner.post(`${teamPath}/role`, { email: 'new.person@example.com', role: 'viewer' })).location).toBe(
        `${teamPath}?done=role`,
      );
      expect((await owner.post(`${teamPath}/remove`, { email: 'new.person@example.com' })).location).toBe(
        `${teamPath}?done=removed`,
      );
      expect((await invitee.get(teamPath)).status).toBe(303);

      const audit = await owner.get(`/console/${org.id}/audit`);
      expect(audit.status).toBe(200);
      const actions = [...audit.text.matchAll(/<li data-action="([\w.]+)">/g)].map((m) => m[1]);
      // Each sign-in too (the owner's by code, the invitee's by the link), newest first.
      expect(actions).toEqual([
        'team.member_removed',
        'team.role_changed',
        'team.signed_in',
        'team.member_added',
        'team.signed_in',
        'team.member_added',
      ]);
      expect(audit.text).toContain('own2@example.com');
      // In words: who did what to whom, never an action code.
      // (The sentence is a message of the catalogs: its text escaped as any value is.)
      expect(audit.text).toContain('changed new.person@example.com&#39;s role from member to viewer.');
      expect(audit.text).toContain('removed new.person@example.com from the team.');
      expect(audit.text).not.toContain('<code>team.');

      // Another workspace's team and audit pages, and forms: 404.
      for (const path of [`/console/${other.org.id}/team`, `/console/${other.org.id}/audit`])
        expect((await owner.get(path)).status).toBe(404);
      expect(
        (await owner.post(`/console/${other.org.id}/team/invite`, { email: 'y@example.com', role: 'owner' })).status,
      ).toBe(404);
      for (const action of ['role', 'remove'])
        expect(
          (await owner.post(`/console/${other.org.id}/team/${action}`, { email: 'x@example.com', role: 'owner' }))
            .status,
        ).toBe(404);
      expect(
        (
          await owner.post(`/console/${other.org.id}/posts/bulk`, [
            ['action', 'status:shipped'],
            ['post', 'post_x'],
          ])
        ).status,
      ).toBe(404);
      // My workspace's bulk form naming another workspace's post: nothing changes (404 page).
      const theirs = await other.w.posts.create((await other.w.boards.create({ name: 'Theirs' })).id, {
        title: 'Theirs',
      });
      expect(
        (
          await owner.post(`/console/${org.id}/posts/bulk`, [
            ['action', 'status:shipped'],
            ['post', theirs.id],
          ])
        ).status,
      ).toBe(404);
      expect((await other.w.posts.retrieve(theirs.id)).status).toBe('open');
      expect(await other.w.team.list()).toEqual([]);
    });

    it("the posts page's bulk form changes the chosen posts; the tag filter and the post page's tags form work; a viewer's bulk form is 403", async () => {
      const { org, w } = await workspace();
      await w.team.add(
        CLI_ACTOR,
        { email: 'bulk@example.com', role: 'member' },
        { invite: false, workspace: org.name },
      );
      await w.team.add(
        CLI_ACTOR,
        { email: 'peek@example.com', role: 'viewer' },
        { invite: false, workspace: org.name },
      );
      const board = await w.boards.create({ name: 'Ideas' });
      const [a, b, c] = [
        await w.posts.create(board.id, { title: 'Alpha' }),
        await w.posts.create(board.id, { title: 'Beta' }),
        await w.posts.create(board.id, { title: 'Gamma' }),
      ];
      const mobile = await w.tags.create({ name: 'Mobile' });
      const v = new Visitor(app, 'http://console.test');
      await signInByCode(v, 'bulk@example.com');
      const base = `/console/${org.id}/posts`;
      const listed = await v.get(base);
      expect(listed.text).toContain('With the chosen posts');
      const done = await v.post(`${base}/bulk`, [
        ['action', 'status:planned'],
        ['post', a.id],
        ['post', b.id],
      ]);
      expect([done.status, done.location]).toEqual([303, `${base}?done=2`]);
      expect((await v.get(done.location!)).text).toContain('Done: 2 posts changed.');
      expect([
        (await w.posts.retrieve(a.id)).status,
        (await w.posts.retrieve(b.id)).status,
        (await w.posts.retrieve(c.id)).status,
      ]).toEqual(['planned', 'planned', 'open']);
      expect(
        (
          await v.post(`${base}/bulk`, [
            ['action', 'nonsense'],
            ['post', a.id],
          ])
        ).status,
      ).toBe(422);

      // The post page's tags form, then the tag filter.
      expect((await v.post(`${base}/${c.id}/tags`, [['tag', mobile.id]])).location).toBe(`${base}/${c.id}?done=tags`);
      const titles = (text: string) =>
        [...text.matchAll(/<a href="\/console\/[^"]+\/posts\/post_[^"]+"[^>]*>([^<]+)/g)].map((m) => m[1]);
      expect(titles((await v.get(`${base}?tag=${mobile.id}`)).text)).toEqual(['Gamma']);
      expect((await v.get(`${base}?tag=${mobile.id}`)).text).toContain('<span class="tag">Mobile</span>');

      const viewer = new Visitor(app, 'http://console.test');
      await signInByCode(viewer, 'peek@example.com');
      expect((await viewer.get(base)).text).not.toContain('With the chosen posts');
      expect(
        (
          await viewer.post(`${base}/bulk`, [
            ['action', 'status:shipped'],
            ['post', c.id],
          ])
        ).status,
      ).toBe(403);
      expect((await w.posts.retrieve(c.id)).status).toBe('open');

      // The audit log says it in words: the posts' titles and the tag's name, never their ids.
      await w.team.add(
        CLI_ACTOR,
        { email: 'boss@example.com', role: 'owner', name: 'Bo Boss' },
        { invite: false, workspace: org.name },
      );
      const owner = new Visitor(app, 'http://console.test');
      await signInByCode(owner, 'boss@example.com');
      const audit = (await owner.get(`/console/${org.id}/audit`)).text;
      const said = (text: string) => text.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');
      expect(said(audit)).toContain('set the tags of “Gamma” to “Mobile”.');
      expect(said(audit)).toContain('moved “Alpha” from Open to Planned.');
      expect(said(audit)).toContain('moved “Beta” from Open to Planned.');
      expect(audit).not.toContain(mobile.id);
    });

    it('impact reads per paying account: five people of one company count it once, beside the people in none', async () => {
      const { org, w } = await workspace();
      const { signIn } = await w.team.add(
        CLI_ACTOR,
        { email: 'impact@example.com', role: 'owner' },
        { invite: false, workspace: org.name },
      );
      const session = await h.engine.team.redeem({ token: signIn!.token });
      const board = await w.boards.create({ name: 'Ideas' });
      const post = await w.posts.create(board.id, { title: 'Single sign-on' });
      const acme = { externalCompanyId: 'acme', name: 'Acme', mrrCents: 200_000, currency: 'USD' };
      for (let i = 1; i <= 6; i++) {
        await w.contacts.identify({
          externalUserId: `u${i}`,
          email: `u${i}@example.com`,
          ...(i <= 5 ? { mrrCents: 10_000, currency: 'USD', companies: [acme] } : { mrrCents: 4_900, currency: 'USD' }),
        });
        await w.participation.vote({
          postId: post.id,
          email: `u${i}@example.com`,
          userId: `u${i}`,
          vouched: true,
          notifyMe: false,
        });
      }
      const get = async (path: string) =>
        (
          await app.fetch(
            new Request(`http://console.test${path}`, { headers: { cookie: `fs_console=${session.token}` } }),
          )
        ).text();
      const list = await get(`/console/${org.id}/posts?sort=impact`);
      expect(list).toContain('<strong>$2,049.00</strong> <span class="payers">from 1 company and 1 person</span>');
      const page = await get(`/console/${org.id}/posts/${post.id}`);
      expect(page).toMatch(/<strong>Impact:<\/strong> \$2,049\.00 a month from 1 company and 1 person/);
      // Each voter of Acme shows it beside their name, linked to its page.
      const company = (await w.companies.list()).data[0]!;
      const link = `<a class="company" href="/console/${org.id}/companies/${company.id}" dir="auto">Acme</a>`;
      expect(page.split(link).length - 1).toBe(5);

      // The filter by company plan: Acme has none yet, then "enterprise".
      expect(await get(`/console/${org.id}/posts?company_plan=enterprise`)).not.toContain('Single sign-on');
      await w.companies.update(company.id, { plan: 'enterprise' });
      expect(await get(`/console/${org.id}/posts?company_plan=enterprise`)).toContain('Single sign-on');

      // The companies list (by revenue, searched) and Acme's page: revenue, its five people, the post they voted on.
      const companies = await get(`/console/${org.id}/companies?q=acm`);
      expect(companies).toContain(`href="/console/${org.id}/companies/${company.id}"`);
      expect(companies).toContain('$2,000.00 / month');
      expect(await get(`/console/${org.id}/companies?q=zzz`)).toContain('No companies match.');
      const acmePage = await get(`/console/${org.id}/companies/${company.id}`);
      expect(acmePage).toContain('<h1 dir="auto">Acme</h1>');
      expect(acmePage).toContain('People <span class="muted">(5)</span>');
      expect(acmePage).toMatch(
        /Single sign-on<\/a> <span class="pill[^"]*">[^<]+<\/span> <span class="muted">5 people of 6 votes<\/span>/,
      );
      // Another workspace's company is not found here, and this one is not found there.
      const other = await workspace();
      await other.w.contacts.identify({
        externalUserId: 'x',
        companies: [{ externalCompanyId: 'acme', name: 'Other Acme' }],
      });
      const foreign = (await other.w.companies.list()).data[0]!;
      const refused = await app.fetch(
        new Request(`http://console.test/console/${org.id}/companies/${foreign.id}`, {
          headers: { cookie: `fs_console=${session.token}` },
        }),
      );
      expect(refused.status).toBe(404);
      const elsewhere = await app.fetch(
        new Request(`http://console.test/console/${other.org.id}/companies/${foreign.id}`, {
          headers: { cookie: `fs_console=${session.token}` },
        }),
      );
      expect(elsewhere.status).toBe(404);
      expect(await elsewhere.text()).not.toContain('Other Acme');
    });
  },
  { engine: { mail: { smtpUrl: smtp.url, publicUrl: 'https://feedback.example' } }, scheduler: true },
);
