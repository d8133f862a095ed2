import type { H3 } from 'h3';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/h3/index.js';
import { createPortal } from '../../src/portal/index.js';
import { describeEngine } from '../helpers/harness.js';
import { startSmtpSink, unfold } from '../helpers/smtp.js';
import { until } from '../helpers/wait.js';
import { Visitor } from './visitor.js';

const smtp = await startSmtpSink();
afterAll(() => smtp.close());

/** The page's language and direction, from its root element. */
const rootOf = (text: string) => /<html lang="([^"]+)" dir="([^"]+)">/.exec(text)?.slice(1);

// Which language the portal speaks (docs/portal.md, "Languages"): the address's `lang`, the person's own (their
// contact's), this browser's choice, the browser's Accept-Language, the workspace's default; and mail in the
// recipient's language, its links keeping it.
describeEngine(
  'the portal in the end-user’s language',
  (e) => {
    let app: H3;
    let n = 0;
    async function workspace(locale?: 'fr' | 'de') {
      const handle = `lang-${++n}`;
      const org = await e.engine.organizations.create({ name: 'Acme', plan: 'paid', ...(locale ? { locale } : {}) });
      await e.engine.organizations.update(org.id, { handle, portalEnabled: true });
      const w = e.engine.workspace(org.id);
      const board = await w.boards.create({ name: 'Ideas' });
      const post = await w.posts.create(board.id, { title: 'Dark mode' });
      const base = `/portal/${handle}`;
      return { org, w, board, post, base, postPath: `${base}/b/${board.slug}/p/${post.slug}` };
    }
    const mint = (secret: string, aud: string, claims: Record<string, unknown>) => {
      const iat = Math.floor(e.engine.clock().getTime() / 1000);
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .setAudience(aud)
        .setIssuedAt(iat)
        .setExpirationTime(iat + 600)
        .sign(new TextEncoder().encode(secret));
    };
    beforeAll(() => {
      app = createApp({ engine: e.engine, sites: [createPortal({ engine: e.engine })], logError: () => {} });
    });

    it("the browser's language, else the workspace's default; the address's `lang` wins and this browser keeps it", async () => {
      const { base } = await workspace('fr');
      const v = new Visitor(app);
      const german = await v.get(`${base}/`, { 'accept-language': 'de-CH, de;q=0.9, en;q=0.5' });
      expect(rootOf(german.text)).toEqual(['de', 'ltr']);
      expect(german.text).toContain('<h1>Boards</h1>');
      expect(german.text).toContain('Zum Inhalt springen');
      // A language we do not have: the workspace's default.
      expect(rootOf((await v.get(`${base}/`, { 'accept-language': 'sv-SE' })).text)).toEqual(['fr', 'ltr']);
      expect((await v.get(`${base}/roadmap`)).text).toContain('<h1>Feuille de route</h1>');
      // Asked in the address: that page, and this browser from then on.
      const arabic = await v.get(`${base}/?lang=ar`, { 'accept-language': 'de' });
      expect(rootOf(arabic.text)).toEqual(['ar', 'rtl']);
      expect(arabic.text).toContain('<h1>اللوحات</h1>');
      expect(v.cookies.get('fs_lang')?.value).toBe('ar');
      expect(rootOf((await v.get(`${base}/changelog`, { 'accept-language': 'de' })).text)).toEqual(['ar', 'rtl']);
      // Something that is no language of ours is ignored.
      expect(rootOf((await new Visitor(app).get(`${base}/?lang=xx-<b>`, { 'accept-language': 'ja' })).text)).toEqual([
        'ja',
        'ltr',
      ]);
    });

    it('every page carries the switcher; choosing a language posts it (anti-forgery), and the page comes back in it', async () => {
      const { base, board } = await workspace();
      const v = new Visitor(app);
      const page = await v.get(`${base}/b/${board.slug}?sort=new&q=dark`);
      const switcher = /<form class="languages" method="post" action="([^"]+)">([\s\S]*?)<\/form>/.exec(page.text);
      expect(switcher?.[1]).toBe(`${base}/language`);
      // The names in character references: a page in a Latin script stays one-byte text.
      expect(switcher?.[2]).toContain('<option value="ja" lang="ja">&#26085;&#26412;&#35486;</option>');
      expect(switcher?.[2]).toContain(`name="return" value="${base}/b/${board.slug}?sort=new&amp;q=dark"`);
      const chosen = await v.post(`${base}/language`, {
        lang: 'ja',
        return: `${base}/b/${board.slug}?sort=new&q=dark`,
      });
      expect(chosen.status).toBe(303);
      expect(chosen.location).toBe(`${base}/b/${board.slug}?sort=new&q=dark`);
      expect(v.cookies.get('fs_lang')?.value).toBe('ja');
      expect((await v.get(chosen.location!)).text).toContain('新規投稿');
      // Back to another site: the portal's home instead.
      expect((await v.post(`${base}/language`, { lang: 'de', return: 'https://evil.test/' })).location).toBe(
        `${base}/`,
      );
      // Without the page's anti-forgery token, nothing is kept.
      const forged = await new Visitor(app).post(`${base}/language`, { lang: 'de' }, { csrf: 'nope' });
      expect(forged.status).toBe(403);
    });

    it("a token's locale claim is the person's own: their pages and contact speak it; their choice on the portal changes the contact", async () => {
      const { org, w, base } = await workspace();
      const { secret } = await w.participation.secret.create();
      const v = new Visitor(app);
      const token = await mint(secret, org.id, { sub: 'u-1', email: 'hana@example.com', locale: 'ja-JP' });
      expect((await v.get(`${base}/sign-in?token=${token}`)).status).toBe(303);
      const [contact] = (await w.contacts.list()).data;
      expect(contact?.locale).toBe('ja-JP');
      // Their own language beats the browser's.
      expect(rootOf((await v.get(`${base}/`, { 'accept-language': 'en' })).text)).toEqual(['ja', 'ltr']);
      await v.post(`${base}/language`, { lang: 'pt-BR', return: `${base}/` });
      expect((await w.contacts.retrieve(contact!.id)).locale).toBe('pt-BR');
      const updated = (await w.events.list())
        .map((x) => x.payload as { event: string; changes?: Record<string, unknown> })
        .filter((p) => p.event === 'contact.updated');
      expect(updated.at(-1)?.changes).toEqual({ locale: { from: 'ja-JP', to: 'pt-BR' } });
      // A new browser of theirs (no cookie) speaks their language too.
      const again = new Visitor(app);
      await again.get(`${base}/sign-in?token=${await mint(secret, org.id, { sub: 'u-1', email: 'hana@example.com' })}`);
      expect(rootOf((await again.get(`${base}/`, { 'accept-language': 'de' })).text)).toEqual(['pt-BR', 'ltr']);
    });

    it('a refused sign-in token is said in the page’s language, its fault in English for the developers who minted it', async () => {
      const { org, w, base } = await workspace();
      await w.participation.secret.create();
      const token = await mint('not-the-secret-not-the-secret-xx', org.id, { sub: 'u-2', email: 'x@example.com' });
      const refused = await new Visitor(app).get(`${base}/sign-in?token=${token}`, { 'accept-language': 'de' });
      expect(refused.status).toBe(401);
      expect(rootOf(refused.text)).toEqual(['de', 'ltr']);
      expect(refused.text).toContain('<h1>Anmeldung nicht möglich</h1>');
      expect(refused.text).toContain('Der Anmeldelink hat nicht funktioniert.');
      expect(refused.text).toMatch(/<p class="muted" lang="en">Für die Entwickler von Acme: [A-Z][^<]+<\/p>/);
    });

    it('identify sets a person’s language; a tag that is not one is refused in the documented envelope', async () => {
      const { w } = await workspace();
      const contact = await w.contacts.identify({ externalUserId: 'u-9', email: 'x@example.com', locale: 'de-at' });
      expect(contact.contact.locale).toBe('de-AT');
      await expect(w.contacts.identify({ externalUserId: 'u-9', locale: 'not a tag' })).rejects.toMatchObject({
        code: 'ERR_VALIDATION',
        details: { issues: [{ path: 'locale', message: 'must be a BCP 47 language tag, e.g. de or pt-BR' }] },
      });
      expect((await w.contacts.update(contact.contact.id, { locale: null })).locale).toBeNull();
    });

    it('mail speaks the recipient’s language and its links keep it; a code speaks the language of the page that asked', async () => {
      const { w, post, postPath } = await workspace();
      const v = new Visitor(app);
      await v.get(`${postPath}?lang=de`);
      const seen = smtp.mails.length;
      const asked = await v.post(`${postPath}/comment`, {
        body_text: 'Bitte!',
        name: 'Jonas',
        email: 'jonas@example.com',
        notify_me: 'on',
      });
      const mailTo = (from: number) => smtp.mails.slice(from).find((m) => m.to.includes('jonas@example.com'));
      await until('the code mail', () => mailTo(seen) !== undefined);
      const codeMail = unfold(mailTo(seen)!.data);
      // (Quoted-printable: the test reads its ASCII words.)
      expect(codeMail).toContain('Dein Code lautet');
      expect(codeMail).toContain('Content-Language: de');
      const typed = /Dein Code lautet (\d{6})/.exec(codeMail)![1]!;
      expect((await v.post(asked.location!, { code: typed })).status).toBe(303);
      // The contact the code made keeps no language of its own (the page's was this browser's): the workspace's
      // default speaks to it, until it chooses one.
      const [contact] = (await w.contacts.list()).data;
      await w.contacts.update(contact!.id, { locale: 'fr' });
      const before = smtp.mails.length;
      await w.posts.update(post.id, { status: 'planned' });
      await until('the status mail', () => mailTo(before) !== undefined);
      const text = unfold(mailTo(before)!.data);
      expect(text).toContain('est maintenant Pr=C3=A9vu');
      expect(text).toContain('Content-Language: fr');
      expect(text).toMatch(/\?lang=fr/);
      expect(text).toMatch(/preferences\?t=[\w.-]+&lang=fr/);
    });

    it("a workspace's own wording replaces ours in that language only; wording that cannot fit is refused", async () => {
      const { org, base } = await workspace();
      await e.engine.organizations.update(org.id, { portalWording: { de: { 'board.newPost': 'Idee einreichen' } } });
      const v = new Visitor(app);
      const board = (await v.get(`${base}/`)).text.match(/href="([^"]+\/b\/[^"]+)"/)![1]!;
      expect((await v.get(board, { 'accept-language': 'de' })).text).toContain('Idee einreichen');
      expect((await v.get(board, { 'accept-language': 'en' })).text).toContain('>New post<');
      await expect(
        e.engine.organizations.update(org.id, { portalWording: { de: { 'board.newPost': 'Neu für {workspace}' } } }),
      ).rejects.toMatchObject({ code: 'ERR_VALIDATION' });
      await expect(e.engine.organizations.update(org.id, { locale: 'sv' as never })).rejects.toMatchObject({
        code: 'ERR_VALIDATION',
        message: 'locale must be one of en, de, fr, es, pt-BR, it, nl, ja, zh-CN, ar',
      });
    });
  },
  { engine: { mail: { smtpUrl: smtp.url, publicUrl: 'https://feedback.test' } }, scheduler: true },
);
