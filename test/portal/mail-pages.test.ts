import type { H3 } from 'h3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hashEmail } from '../../src/engine/index.js';
import { createApp, type NodeServer, serveNode } from '../../src/h3/index.js';
import { createPortal } from '../../src/portal/index.js';
import { describeEngine } from '../helpers/harness.js';
import { addresses, countsSince, portalWorkspace } from '../helpers/notifications.js';
import { startSmtpSink } from '../helpers/smtp.js';
import { Visitor } from './visitor.js';

const smtp = await startSmtpSink();
afterAll(() => smtp.close());
/** The listening server's address: the links in the mail point there. */
let base = '';

describeEngine(
  'the pages mail links lead to',
  (e) => {
    let app: H3;
    let server: NodeServer;
    beforeAll(async () => {
      app = createApp({ engine: e.engine, sites: [createPortal({ engine: e.engine })], logError: () => {} });
      server = await serveNode(app, { port: 0 });
      base = server.url;
    });
    afterAll(() => server?.close());

    /** A voter who ticked notify-me, a status change, and the message it brought them. */
    async function mailed() {
      const { ws, post, org } = await portalWorkspace(e.engine);
      const { voter } = addresses('voter');
      const vote = await ws.participation.vote({ postId: post.id, email: voter, notifyMe: true });
      const from = smtp.mails.length;
      await ws.posts.update(post.id, { status: 'planned' });
      await e.engine.scheduler.runDue();
      const message = (await smtp.parsed()).slice(from).find((m) => (m.to as { text: string }).text === voter)!;
      const header = message.headerLines.find((l) => l.key === 'list-unsubscribe')!.line.replace(/\r\n[ \t]+/g, ' ');
      const unsubscribe = /<([^>]+)>/.exec(header)![1]!;
      const preferences = /Choose what you get: (\S+)/.exec(message.text!)![1]!;
      const recipient = { organizationId: org.id, contactId: vote.contactId!, emailHash: hashEmail(voter)! };
      /** Whether the next status change mails the voter. */
      const stillMailed = async (status: 'in_progress' | 'shipped' | 'declined') => {
        const before = smtp.mails.length;
        await ws.posts.update(post.id, { status });
        await e.engine.scheduler.runDue();
        return countsSince(smtp, before).get(voter) === 1;
      };
      return { ws, voter, unsubscribe, preferences, recipient, stillMailed };
    }

    it('one-click unsubscribe works with a plain POST as mail clients send it (RFC 8058: multipart, no cookie, 200, no redirect)', async () => {
      const m = await mailed();
      expect(m.unsubscribe.startsWith(`${base}/portal/mail/unsubscribe?t=`)).toBe(true);
      const body = new FormData();
      body.set('List-Unsubscribe', 'One-Click');
      const res = await fetch(m.unsubscribe, { method: 'POST', body, redirect: 'manual' });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('You are unsubscribed.');
      expect(await m.ws.notifications.preferences(m.recipient)).toMatchObject({ all: true });
      const [record] = await e.engine.db.all<{ via: string; topic: string }>(
        'SELECT via, topic FROM mail_unsubscribe WHERE email_hash = ?',
        [hashEmail(m.voter)],
      );
      expect(record).toEqual({ via: 'one_click', topic: 'all' });
      expect(await m.stillMailed('in_progress')).toBe(false);
      // A second click (clients retry) changes nothing and still answers 200.
      expect(
        (
          await fetch(m.unsubscribe, {
            method: 'POST',
            body: 'List-Unsubscribe=One-Click',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
          })
        ).status,
      ).toBe(200);
      expect(
        await e.engine.db.all('SELECT id FROM mail_unsubscribe WHERE email_hash = ?', [hashEmail(m.voter)]),
      ).toHaveLength(1);
      // A mail provider posts for all its users from a few addresses: no per-address limit refuses them (the pages have one).
      const statuses = await Promise.all(
        Array.from({ length: 70 }, () =>
          fetch(m.unsubscribe, { method: 'POST', body: 'List-Unsubscribe=One-Click' }).then((r) => r.status),
        ),
      );
      expect(new Set(statuses)).toEqual(new Set([200]));
    });

    it('opening the link only shows a button (a link scanner unsubscribes nobody); the button does', async () => {
      const m = await mailed();
      const v = new Visitor(app);
      const page = await v.get(m.unsubscribe.slice(base.length));
      expect(page.status).toBe(200);
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      expect(page.text).toContain('<button type="submit">Unsubscribe</button>');
      expect(page.text).toMatch(/will send no more email to v\*\*\*@example\.com/);
      expect(await m.stillMailed('in_progress')).toBe(true);
      const pressed = await v.post(m.unsubscribe.slice(base.length), { 'List-Unsubscribe': 'One-Click', from: 'page' });
      expect(pressed.status).toBe(200);
      expect(pressed.text).toContain('You are unsubscribed');
      expect(await m.stillMailed('shipped')).toBe(false);
      expect(
        (await e.engine.db.one<{ via: string }>('SELECT via FROM mail_unsubscribe WHERE email_hash = ?', [
          hashEmail(m.voter),
        ]))!.via,
      ).toBe('preferences');
    });

    it('a link cut short or forged is refused with a sentence; an expired one says so', async () => {
      const m = await mailed();
      const v = new Visitor(app);
      // The token is before the language (`?t=…&lang=en`): cut it short.
      const cut = await v.get(m.unsubscribe.slice(base.length).replace(/(.{5})&lang=en$/, ''));
      expect(cut.status).toBe(400);
      expect(cut.text).toContain('This link is not valid');
      const forged = await fetch(m.unsubscribe.replace(/\.([\w-]+)&lang=en$/, '.AAAA$1'), {
        method: 'POST',
        body: 'List-Unsubscribe=One-Click',
      });
      expect(forged.status).toBe(400);
      expect(await m.ws.notifications.preferences(m.recipient)).toMatchObject({ all: false });
      e.advance(91 * 86_400_000);
      try {
        const expired = await v.get(m.preferences.slice(base.length));
        expect(expired.status).toBe(400);
        expect(expired.text).toContain('This link has expired');
      } finally {
        e.advance(-91 * 86_400_000);
      }
    });

    it('the preferences page changes what the person gets; a form from another site is refused', async () => {
      const m = await mailed();
      const v = new Visitor(app);
      const path = m.preferences.slice(base.length);
      const page = await v.get(path);
      expect(page.status).toBe(200);
      expect(page.text).toContain('Email from Acme');
      expect(page.text).toMatch(/name="posts" value="on" checked/);
      expect(page.text).toMatch(
        /<input type="checkbox" name="post" value="post_\w+" checked> <span dir="auto">Dark mode/,
      );
      const saved = await v.post(path, [
        ['changelog', 'on'],
        ['digest', 'hourly'],
        ['listed', (await m.ws.notifications.preferences(m.recipient)).subscriptions[0]!.postId],
      ]);
      expect(saved.status).toBe(303);
      const after = await v.get(saved.location!);
      expect(after.text).toContain('Your email settings are saved.');
      expect(await m.ws.notifications.preferences(m.recipient)).toMatchObject({
        all: false,
        posts: false,
        changelog: true,
        digest: 'hourly',
        subscriptions: [{ title: 'Dark mode', on: false }],
      });
      expect(await m.stillMailed('shipped')).toBe(false);
      const forged = await v.post(path, [['posts', 'on']], {
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
      });
      expect(forged.status).toBe(403);
      expect(await m.ws.notifications.preferences(m.recipient)).toMatchObject({ posts: false });
    });

    it('the preferences form takes only the posts that person follows: anything else is 422 and writes nothing, and one form is capped', async () => {
      const m = await mailed();
      const other = await m.ws.posts.create((await m.ws.boards.list()).data[0]!.id, { title: 'Not followed' });
      const v = new Visitor(app);
      const path = m.preferences.slice(base.length);
      await v.get(path);
      const rows = async () =>
        (await e.engine.db.all('SELECT id FROM mail_unsubscribe WHERE email_hash = ?', [hashEmail(m.voter)])).length;
      const before = await rows();
      for (const listed of [
        ['x'.repeat(60)],
        ['post_\u0000'],
        [other.id],
        Array.from({ length: 2_000 }, (_, i) => `post_${i}`),
      ]) {
        const res = await v.post(
          path,
          listed.map((id) => ['listed', id] as [string, string]),
        );
        expect(res.status, listed[0]!.slice(0, 20)).toBe(422);
        expect(res.text).toMatch(/not a post you follow|at most/);
      }
      expect(await rows()).toBe(before);
      expect(await m.ws.notifications.preferences(m.recipient)).toMatchObject({
        subscriptions: [{ title: 'Dark mode', on: true }],
      });
      // The engine says the same to any caller.
      await expect(
        m.ws.notifications.updatePreferences(m.recipient, { postUpdates: { [other.id]: false } }),
      ).rejects.toMatchObject({ code: 'ERR_VALIDATION' });
    });

    it('someone signed in on the portal finds their email settings from its header', async () => {
      const { ws, handle, post } = await portalWorkspace(e.engine);
      const { reader } = addresses('reader');
      await ws.participation.vote({ postId: post.id, email: reader, notifyMe: true });
      const v = new Visitor(app);
      expect((await v.get(`/portal/${handle}/notifications`)).status).toBe(401);
      // Signed in with an emailed code, as the portal does it.
      const seen = smtp.mails.length;
      await v.get(`/portal/${handle}/b/ideas/p/dark-mode`);
      const asked = await v.post(`/portal/${handle}/b/ideas/p/dark-mode/comment`, {
        body_text: 'Hello',
        name: 'R',
        email: reader,
      });
      await e.engine.scheduler.runDue();
      const code = await smtp.codeFor(reader, seen);
      await v.get(asked.location!);
      await v.post(asked.location!, { code });
      const home = await v.get(`/portal/${handle}/`);
      expect(home.text).toContain(`href="/portal/${handle}/notifications">Email settings</a>`);
      const settings = await v.get(`/portal/${handle}/notifications`);
      expect(settings.status).toBe(303);
      expect(settings.location).toMatch(/^\/portal\/mail\/preferences\?t=/);
      expect((await v.get(settings.location!)).text).toContain('For r***@example.com.');
    });
  },
  { engine: { mail: { smtpUrl: smtp.url, publicUrl: () => base } } },
);
