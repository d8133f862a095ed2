import { afterAll, beforeAll, expect, it } from 'vitest';
import { createConsole, type HostMember } from '../../src/console/index.js';
import { CLI_ACTOR, contrastRatio, type TeamRole } from '../../src/engine/index.js';
import { createApp, DARK } from '../../src/h3/index.js';
import { createPortal } from '../../src/portal/index.js';
import { describeEngine } from '../helpers/harness.js';
import { startSmtpSink } from '../helpers/smtp.js';
import { consoleMember, Visitor } from '../portal/visitor.js';

// The console's part 2 over app.fetch (docs/console.md): the roadmap, changelog, contacts, webhooks, keys and settings
// pages; every form refused on the server to a role that may not use it (a viewer's forged POST changes nothing), no
// page or form of another workspace, and the console embedded in a host's admin with the host's own sign-in.

const smtp = await startSmtpSink();
afterAll(() => smtp.close());

describeEngine(
  'console part 2',
  (h) => {
    let app: ReturnType<typeof createApp>;
    beforeAll(() => {
      app = createApp({ engine: h.engine, sites: [createConsole({ engine: h.engine })], logError: () => {} });
    });
    let n = 0;
    /** A paid workspace with a board, two planned posts, a contact, a webhook and a key; and people of each role, signed in. */
    async function workspace() {
      const org = await h.engine.organizations.create({ name: `Acme ${++n}`, plan: 'paid' });
      const w = h.engine.workspace(org.id);
      const board = await w.boards.create({ name: 'Ideas' });
      const first = await w.posts.create(board.id, { title: 'Dark mode' });
      const second = await w.posts.create(board.id, { title: 'Export to CSV' });
      for (const p of [first, second]) await w.posts.update(p.id, { status: 'planned' });
      const { contact } = await w.contacts.identify({
        externalUserId: 'u1',
        email: 'dana@example.com',
        name: 'Dana',
        mrrCents: 9900,
        currency: 'USD',
      });
      const hook = await w.webhooks.create({ url: 'http://127.0.0.1:9/hook', events: ['post.created'] });
      const key = await h.engine.keys.create(org.id, 'read');
      const entry = await w.changelog.create({ boardId: board.id, title: 'Autumn' });
      return { org, w, board, first, second, contact, hook, key, entry };
    }
    const signedIn = (orgId: string, role: TeamRole) => consoleMember(app, h.engine, orgId, role);

    /** Every form of the new pages, as a viewer would forge it, with what must stay as it was. */
    function forms(s: Awaited<ReturnType<typeof workspace>>): Array<[path: string, fields: Array<[string, string]>]> {
      const base = `/console/${s.org.id}`;
      return [
        [
          `${base}/roadmap/move`,
          [
            ['status', 'planned'],
            ['post', s.second.id],
            ['to', '0'],
          ],
        ],
        [
          `${base}/roadmap/order`,
          [
            ['status', 'planned'],
            ['post', s.second.id],
            ['post', s.first.id],
          ],
        ],
        [
          `${base}/changelog`,
          [
            ['title', 'Forged'],
            ['board', s.board.id],
          ],
        ],
        [
          `${base}/changelog/${s.entry.id}`,
          [
            ['title', 'Forged'],
            ['body', 'x'],
          ],
        ],
        [`${base}/changelog/${s.entry.id}/publish`, [['ship', '1']]],
        [
          `${base}/contacts`,
          [
            ['email', 'x@example.com'],
            ['attestation', 'forged attestation'],
          ],
        ],
        [`${base}/contacts/${s.contact.id}/erase`, [['confirm', 'erase']]],
        [`${base}/contacts/${s.contact.id}/export`, []],
        [
          `${base}/webhooks`,
          [
            ['url', 'http://127.0.0.1:9/x'],
            ['events', 'post.created'],
          ],
        ],
        [`${base}/webhooks/${s.hook.id}/disable`, []],
        [`${base}/webhooks/${s.hook.id}/delete`, [['confirm', '1']]],
        [`${base}/keys`, [['scope', 'read:write']]],
        [`${base}/keys/${s.key.id}/revoke`, []],
        [`${base}/keys/${s.key.id}/rotate`, [['grace', '0']]],
        [`${base}/keys/portal`, []],
        [`${base}/settings/workspace`, [['name', 'Forged']]],
        [`${base}/settings/branding`, [['portalAccent', '#000000']]],
        [
          `${base}/settings/search`,
          [
            ['searchStems', 'none'],
            ['searchSynonyms', 'sso, saml'],
          ],
        ],
        [`${base}/settings/languages`, [['locale', 'ja']]],
        [
          `${base}/settings/sso`,
          [
            ['issuer', 'https://idp.example.com'],
            ['clientId', 'x'],
            ['clientSecret', 'y'],
            ['domains', 'example.com'],
          ],
        ],
      ];
    }

    /** What those forms would change, read back. */
    async function state(s: Awaited<ReturnType<typeof workspace>>) {
      return JSON.stringify({
        roadmap: (await s.w.triage.roadmap()).map((c) => c.posts.map((p) => [p.id, p.roadmapOrder])),
        changelog: await s.w.changelog.all(),
        contacts: (await s.w.contacts.list()).data.map((c) => c.id),
        hooks: (await s.w.webhooks.list()).data,
        keys: await h.engine.keys.list(s.org.id),
        org: await h.engine.organizations.get(s.org.id),
        sso: await s.w.team.sso(),
        audit: (await s.w.team.auditLog(CLI_ACTOR)).data.length,
      });
    }

    it('a viewer reads every page but the managers’, and every forged form of theirs is refused with 403, changing nothing', async () => {
      const s = await workspace();
      const v = await signedIn(s.org.id, 'viewer');
      const base = `/console/${s.org.id}`;
      for (const page of ['roadmap', 'changelog', `changelog/${s.entry.id}`, 'contacts', `contacts/${s.contact.id}`]) {
        const seen = await v.get(`${base}/${page}`);
        expect([page, seen.status]).toEqual([page, 200]);
        // No form that changes anything: only signing out posts.
        expect([page, [...seen.text.matchAll(/method="post" action="([^"]+)"/g)].map((m) => m[1])]).toEqual([
          page,
          ['/console/sign-out'],
        ]);
      }
      for (const page of ['webhooks', 'keys', 'settings', `contacts/${s.contact.id}/erase`])
        expect([page, (await v.get(`${base}/${page}`)).status]).toEqual([page, 403]);
      const before = await state(s);
      for (const [path, fields] of forms(s)) expect([path, (await v.post(path, fields)).status]).toEqual([path, 403]);
      expect(await state(s)).toBe(before);
    });

    it('a member orders the roadmap and writes the changelog, but the managers’ forms are refused', async () => {
      const s = await workspace();
      const v = await signedIn(s.org.id, 'member');
      const base = `/console/${s.org.id}`;
      const moved = await v.post(`${base}/roadmap/move`, [
        ['status', 'planned'],
        ['post', s.second.id],
        ['to', '0'],
      ]);
      expect([moved.status, moved.location]).toEqual([303, `${base}/roadmap?done=moved`]);
      expect((await s.w.portal.roadmap()).length).toBe(3);
      expect((await s.w.triage.roadmap())[0]!.posts.map((p) => p.title)).toEqual(['Export to CSV', 'Dark mode']);
      const saved = await v.post(`${base}/changelog/${s.entry.id}`, [
        ['title', 'Autumn release'],
        ['body', '**Dark mode** is here'],
        ['post', s.first.id],
      ]);
      expect(saved.location).toBe(`${base}/changelog/${s.entry.id}?done=saved`);
      const page = await v.get(saved.location!);
      expect(page.text).toContain('<strong>Dark mode</strong> is here');
      const preview = await v.post(`${base}/changelog/${s.entry.id}/preview`, [
        ['title', 'T'],
        ['body', '<script>alert(1)</script> [x](javascript:alert(1))'],
      ]);
      expect(preview.text).not.toContain('<script>alert(1)');
      expect(preview.text).not.toContain('href="javascript:');
      expect((await s.w.changelog.retrieve(s.entry.id)).body).toBe('**Dark mode** is here');
      for (const [path, fields] of forms(s).filter(([p]) => /webhooks|keys|settings|contacts/.test(p)))
        expect([path, (await v.post(path, fields)).status]).toEqual([path, 403]);
    });

    it('no page or form of a workspace the person is not on: 404, and nothing changes there', async () => {
      const s = await workspace();
      const mine = await workspace();
      const v = await signedIn(mine.org.id, 'owner');
      const before = await state(s);
      for (const page of [
        'roadmap',
        'changelog',
        'contacts',
        `contacts/${s.contact.id}`,
        'webhooks',
        `webhooks/${s.hook.id}`,
        'keys',
        'settings',
      ])
        expect([page, (await v.get(`/console/${s.org.id}/${page}`)).status]).toEqual([page, 404]);
      for (const [path, fields] of forms(s)) expect([path, (await v.post(path, fields)).status]).toEqual([path, 404]);
      // Their ids under my workspace's paths: not found either.
      const base = `/console/${mine.org.id}`;
      expect((await v.get(`${base}/contacts/${s.contact.id}`)).status).toBe(404);
      expect((await v.get(`${base}/webhooks/${s.hook.id}`)).status).toBe(404);
      expect((await v.get(`${base}/changelog/${s.entry.id}`)).status).toBe(404);
      expect((await v.post(`${base}/keys/${s.key.id}/revoke`, [])).status).toBe(404);
      expect((await v.post(`${base}/contacts/${s.contact.id}/erase`, [['confirm', 'erase']])).status).toBe(404);
      expect((await v.post(`${base}/webhooks/${s.hook.id}/delete`, [['confirm', '1']])).status).toBe(404);
      expect(await state(s)).toBe(before);
    });

    it('an owner’s secrets are shown once and never cached; a too-light accent is refused with why; erasure needs the typed word', async () => {
      const s = await workspace();
      const v = await signedIn(s.org.id, 'owner');
      const base = `/console/${s.org.id}`;
      const key = await v.post(`${base}/keys`, [['scope', 'read:write']]);
      expect(key.status).toBe(200);
      expect(key.headers.get('cache-control')).toBe('no-store');
      const secret = /value="(fsk_[\w-]+)"/.exec(key.text)![1]!;
      expect(await h.engine.keys.authenticate(secret)).toMatchObject({ organizationId: s.org.id, scope: 'read:write' });
      expect((await v.get(`${base}/keys`)).text).not.toContain(secret);
      const hook = await v.post(`${base}/webhooks`, [
        ['url', 'http://127.0.0.1:9/new'],
        ['events', 'post.created'],
        ['events', 'vote.created'],
      ]);
      expect(hook.text).toMatch(/value="whsec_[\w-]{43}"/);
      // The delivery log shows what each delivery sent, body and headers, and never the secret.
      const hookSecret = /value="(whsec_[\w-]{43})"/.exec(hook.text)![1]!;
      const created = (await s.w.webhooks.list()).data.find((x) => x.url === 'http://127.0.0.1:9/new')!;
      await s.w.posts.create(s.board.id, { title: 'Payload shown' });
      const log = (await v.get(`${base}/webhooks/${created.id}`)).text;
      const delivery = (await s.w.webhooks.listDeliveries(created.id)).data[0]!;
      expect(log).toContain('X-Service-Event: post.created');
      expect(log).toContain(`X-Service-Delivery: ${delivery.id}`);
      expect(log).toContain('&quot;title&quot;: &quot;Payload shown&quot;');
      expect(log).not.toContain(hookSecret);
      // Search: the stems' language and the team's synonyms, one group a line; a group of one is refused with why.
      const lone = await v.post(`${base}/settings/search`, [
        ['searchStems', 'english'],
        ['searchSynonyms', 'sso'],
      ]);
      expect(lone.status).toBe(422);
      expect(lone.text).toContain('synonyms: group 1 must name 2 to 10 words or phrases');
      const searchSaved = await v.post(`${base}/settings/search`, [
        ['searchStems', 'french'],
        ['searchSynonyms', 'SSO, single sign-on, saml\n\ncsv,  spreadsheet'],
      ]);
      expect(searchSaved.location).toBe(`${base}/settings?done=search`);
      expect(await h.engine.organizations.get(s.org.id)).toMatchObject({
        searchStems: 'french',
        searchSynonyms: [
          ['sso', 'single sign-on', 'saml'],
          ['csv', 'spreadsheet'],
        ],
      });
      const shown = (await v.get(`${base}/settings`)).text;
      expect(shown).toContain('<option value="french" selected>french</option>');
      expect(shown).toContain('sso, single sign-on, saml\ncsv, spreadsheet</textarea>');
      // Languages: the default, and the team's own words, a line each; a line that is not one is refused by number.
      const badLine = await v.post(`${base}/settings/languages`, [
        ['locale', 'de'],
        ['portalWording', 'de:board.newPost=Idee einreichen\nnot a line'],
      ]);
      expect(badLine.status).toBe(422);
      expect(badLine.text).toContain('Line 2 of your own words: write it as language:message=words.');
      const unfit = await v.post(`${base}/settings/languages`, [
        ['locale', 'de'],
        ['portalWording', 'de:board.newPost=Neu für {workspace}'],
      ]);
      expect(unfit.status).toBe(422);
      expect(unfit.text).toContain('which board.newPost does not have');
      const languages = await v.post(`${base}/settings/languages`, [
        ['locale', 'de'],
        ['portalWording', 'de:board.newPost = Idee einreichen\n\nfr:board.newPost=Proposer une idée'],
      ]);
      expect(languages.location).toBe(`${base}/settings?done=languages`);
      expect(await h.engine.organizations.get(s.org.id)).toMatchObject({
        locale: 'de',
        portalWording: { de: { 'board.newPost': 'Idee einreichen' }, fr: { 'board.newPost': 'Proposer une idée' } },
      });
      const languagesShown = (await v.get(`${base}/settings`)).text;
      expect(languagesShown).toContain('<option value="de" lang="de" selected>Deutsch</option>');
      expect(languagesShown).toContain(
        'de:board.newPost=Idee einreichen\nfr:board.newPost=Proposer une idée</textarea>',
      );
      const light = await v.post(`${base}/settings/branding`, [['portalAccent', '#ffff00']]);
      expect(light.status).toBe(422);
      expect(light.text).toContain('too light');
      expect((await h.engine.organizations.get(s.org.id))!.portalAccent).toBeNull();
      const saved = await v.post(`${base}/settings/branding`, [
        ['portalAccent', '#0f766e'],
        ['portalLogoUrl', 'https://cdn.example.com/acme.png'],
      ]);
      expect(saved.location).toBe(`${base}/settings?done=branding`);
      // The portal shows them: its policy allows images from the logo's origin (and no other), the colour is a stylesheet.
      await h.engine.organizations.update(s.org.id, { handle: `acme-${n}`, portalEnabled: true });
      const portal = createApp({ engine: h.engine, sites: [createPortal({ engine: h.engine })], logError: () => {} });
      const home = await portal.fetch(new Request(`http://portal.test/portal/acme-${n}/`));
      expect(home.headers.get('content-security-policy')).toContain("img-src 'self' data: https://cdn.example.com;");
      const html = await home.text();
      expect(html).toContain('<img class="logo" src="https://cdn.example.com/acme.png" alt="" height="28">');
      const themeHref = /href="(\/portal\/assets\/theme\/0f766e\.css\?v=[\w-]+)"/.exec(html)?.[1];
      expect(themeHref).toBeDefined();
      const theme = await portal.fetch(new Request(`http://portal.test${themeHref}`));
      expect(theme.status).toBe(200);
      // The colour itself in the light theme; in the dark, the same hue lightened until it reads on the dark page.
      const css = await theme.text();
      const [lightAccent, dark] = [...css.matchAll(/--accent: (#[0-9a-f]{6});/g)].map((m) => m[1]!);
      expect(lightAccent).toBe('#0f766e');
      expect(contrastRatio(dark!, DARK.bg)).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(dark!, DARK.surface)).toBeGreaterThanOrEqual(4.5);
      expect((await portal.fetch(new Request('http://portal.test/portal/assets/theme/red.css'))).status).toBe(404);
      const notTyped = await v.post(`${base}/contacts/${s.contact.id}/erase`, [['confirm', 'yes']]);
      expect(notTyped.status).toBe(422);
      expect((await s.w.contacts.retrieve(s.contact.id)).id).toBe(s.contact.id);
      expect((await v.post(`${base}/contacts/${s.contact.id}/erase`, [['confirm', 'erase']])).location).toBe(
        `${base}/contacts?done=erased`,
      );
      // After the erasure, the export shows what it left: no contact.
      const exported = await v.post(`${base}/contacts/${s.contact.id}/export`, []);
      expect([
        exported.status,
        exported.headers.get('content-disposition'),
        exported.headers.get('cache-control'),
      ]).toEqual([200, `attachment; filename="export-${s.contact.id}.json"`, 'no-store']);
      expect(JSON.parse(exported.text)).toMatchObject({ contactId: s.contact.id, contact: null });
    });

    it('contacts by revenue rank within one currency: the most common first, never $297 above €267 by raw cents', async () => {
      const s = await workspace();
      const v = await signedIn(s.org.id, 'viewer');
      const people = [
        ['usd-big', 'USD', 29_700],
        ['eur-mid', 'EUR', 26_700],
        ['usd-small', 'USD', 1_000],
        ['eur-big', 'EUR', 90_000],
        ['eur-low', 'EUR', 500],
      ] as const;
      for (const [id, currency, mrrCents] of people) {
        await s.w.contacts.identify({ externalUserId: id, email: `${id}@example.com`, name: id, mrrCents, currency });
        // Their votes make EUR the workspace's most common impact currency (three posts against two).
        await s.w.participation.vote({
          postId: (await s.w.posts.create(s.board.id, { title: `By ${id}` })).id,
          email: `${id}@example.com`,
          userId: id,
          vouched: true,
          notifyMe: false,
        });
      }
      const names = (text: string) =>
        [...text.matchAll(/<td><a href="\/console\/[^"]+\/contacts\/ctc_[^"]+">([^<]+)<\/a>/g)].map((m) => m[1]);
      const base = `/console/${s.org.id}/contacts`;
      const first = await v.get(`${base}?sort=mrr`);
      expect(names(first.text)).toEqual(['eur-big', 'eur-mid', 'eur-low']);
      expect(first.text).toMatch(/<option value="EUR" selected>EUR<\/option>/);
      expect(names((await v.get(`${base}?sort=mrr&currency=USD`)).text)).toEqual(['usd-big', 'Dana', 'usd-small']);
      // The other orders list everyone, paying or not.
      expect(names((await v.get(`${base}?sort=created`)).text)).toHaveLength(6);
    });

    it('embedded with the host’s sign-in: the host’s member acts with the role it gives; no sign-in or team page; nobody is 401', async () => {
      const s = await workspace();
      let who: HostMember | null = { organizationId: s.org.id, email: 'Pat@Host.example', role: 'admin', name: 'Pat' };
      const hosted = createApp({
        engine: h.engine,
        sites: [createConsole({ engine: h.engine, member: () => who })],
        logError: () => {},
      });
      const v = new Visitor(hosted, 'http://admin.host.test');
      expect((await v.get('/console/')).location).toBe(`/console/${s.org.id}/posts`);
      const settings = await v.get(`/console/${s.org.id}/settings`);
      expect(settings.status).toBe(200);
      expect(settings.text).not.toContain('Sign out');
      expect(settings.text).not.toContain(`/console/${s.org.id}/team"`);
      expect((await v.get('/console/sign-in')).status).toBe(404);
      expect((await v.get(`/console/${s.org.id}/team`)).status).toBe(404);
      expect((await v.post(`/console/${s.org.id}/settings/workspace`, [['name', 'Hosted']])).status).toBe(303);
      expect((await h.engine.organizations.get(s.org.id))!.name).toBe('Hosted');
      expect((await s.w.team.auditLog(CLI_ACTOR, { limit: 1 })).data[0]).toMatchObject({
        actor: 'pat@host.example',
        action: 'workspace.settings_changed',
      });
      who = { ...who, role: 'viewer' };
      expect((await v.post(`/console/${s.org.id}/settings/workspace`, [['name', 'Viewer']])).status).toBe(403);
      const other = await workspace();
      expect((await v.get(`/console/${other.org.id}/posts`)).status).toBe(404);
      who = null;
      expect((await v.get(`/console/${s.org.id}/posts`)).status).toBe(401);
    });
  },
  {
    engine: { webhooks: { allowPrivateNetworks: true }, mail: { smtpUrl: smtp.url, publicUrl: 'http://console.test' } },
  },
);
