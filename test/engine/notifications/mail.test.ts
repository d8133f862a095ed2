import { afterAll, expect, it } from 'vitest';
import { describeEngine } from '../../helpers/harness.js';
import { addresses, countsSince, portalWorkspace } from '../../helpers/notifications.js';
import { startSmtpSink } from '../../helpers/smtp.js';

const smtp = await startSmtpSink();
afterAll(() => smtp.close());
const PUBLIC_URL = 'https://feedback.test';

describeEngine(
  'notification mail',
  (h) => {
    it('a status change mails each participant who may be emailed exactly once, through a real SMTP server, and nobody else', async () => {
      const { ws, org, board, post, handle } = await portalWorkspace(h.engine);
      const a = addresses('sdk', 'optin', 'quiet', 'legacy', 'admin', 'shared');
      // identify (sdk_identify): votes and comments as a signed-in user; one person, one mail.
      await ws.contacts.identify({ externalUserId: 'u1', email: a.sdk });
      await ws.participation.vote({ postId: post.id, email: a.sdk, userId: 'u1', vouched: true, notifyMe: false });
      await ws.participation.comment({
        postId: post.id,
        email: a.sdk,
        authorUserId: 'u1',
        bodyText: 'Yes please',
        vouched: true,
        notifyMe: false,
      });
      // An anonymous voter who ticked notify-me, and one who did not.
      await ws.participation.vote({ postId: post.id, email: a.optin, notifyMe: true });
      await ws.participation.vote({ postId: post.id, email: a.quiet, notifyMe: false });
      // Backfilled (legacy_inferred) and admin-created contacts who take part with the box ticked.
      await ws.contacts.backfill([
        { email: a.legacy, firstSeenAt: '2025-01-01T00:00:00.000Z', lastSeenAt: '2025-02-01T00:00:00.000Z' },
      ]);
      await ws.participation.vote({ postId: post.id, email: a.legacy, notifyMe: true });
      await ws.contacts.create({ email: a.admin });
      await ws.participation.vote({ postId: post.id, email: a.admin, notifyMe: true });
      // Two contacts with one address: one mail.
      await ws.contacts.identify({ externalUserId: 'u2', email: a.shared });
      await ws.contacts.identify({ externalUserId: 'u3', email: a.shared.toUpperCase() });
      await ws.participation.vote({ postId: post.id, email: a.shared, userId: 'u2', vouched: true, notifyMe: false });
      await ws.participation.vote({ postId: post.id, email: a.shared, userId: 'u3', vouched: true, notifyMe: false });

      const from = smtp.mails.length;
      await ws.posts.update(post.id, { status: 'planned' });
      const run = await h.engine.scheduler.runDue();
      expect(run.mail).toEqual({ sent: 3, retried: 0, failed: 0, unconfirmed: 0, cancelled: 0 });
      expect(Object.fromEntries(countsSince(smtp, from))).toEqual({ [a.sdk]: 1, [a.optin]: 1, [a.shared]: 1 });

      const [message] = (await smtp.parsed())
        .slice(from)
        .filter((m) => m.to && 'text' in m.to && m.to.text === a.optin);
      expect(message!.subject).toBe('“Dark mode” is now Planned');
      expect(message!.from!.value[0]).toMatchObject({ name: 'Acme', address: 'feedback-service@localhost' });
      expect(message!.text).toContain('“Dark mode” moved from Open to Planned.');
      expect(message!.text).toContain(`${PUBLIC_URL}/portal/${handle}/b/${board.slug}/p/${post.slug}`);
      // RFC 8058: an https unsubscribe address, and the one-click POST marker.
      const unfolded = (key: string) =>
        message!.headerLines.find((l) => l.key === key)?.line.replace(/\r\n[ \t]+/g, ' ');
      expect(unfolded('list-unsubscribe')).toMatch(
        new RegExp(`^List-Unsubscribe:\\s+<${PUBLIC_URL}/portal/mail/unsubscribe\\?t=[\\w.-]+&lang=en>$`),
      );
      expect(unfolded('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
      expect(message!.text).toMatch(new RegExp(`Choose what you get: ${PUBLIC_URL}/portal/mail/preferences\\?t=`));

      // The workspace turns on mail to admin-created contacts: the next change reaches them too.
      await h.engine.organizations.update(org.id, { notifyAdminCreated: true });
      const next = smtp.mails.length;
      await ws.posts.update(post.id, { status: 'in_progress' });
      await h.engine.scheduler.runDue();
      expect(Object.fromEntries(countsSince(smtp, next))).toEqual({
        [a.sdk]: 1,
        [a.optin]: 1,
        [a.shared]: 1,
        [a.admin]: 1,
      });
    });

    it("an update that does not change the status mails nobody; a merge mails the duplicate's participants where it went", async () => {
      const { ws, board, post } = await portalWorkspace(h.engine);
      const a = addresses('voter');
      await ws.participation.vote({ postId: post.id, email: a.voter, notifyMe: true });
      const from = smtp.mails.length;
      await ws.posts.update(post.id, { title: 'Dark mode, please', status: 'open' });
      expect((await h.engine.scheduler.runDue()).mail.sent).toBe(0);
      const target = await ws.posts.create(board.id, { title: 'Night theme' });
      await ws.posts.merge(post.id, target.id);
      await h.engine.scheduler.runDue();
      const [merged] = (await smtp.parsed()).slice(from);
      expect(countsSince(smtp, from).get(a.voter)).toBe(1);
      expect(merged!.subject).toBe('“Dark mode, please” was merged into “Night theme”');
    });

    it('a reply mails the author of the post and of the comment it answers (a legacy author too: their own request), never the commenter', async () => {
      const { ws, board } = await portalWorkspace(h.engine);
      const a = addresses('author', 'commenter', 'replier', 'bystander');
      await ws.contacts.backfill([
        { email: a.author, firstSeenAt: '2025-01-01T00:00:00.000Z', lastSeenAt: '2025-01-01T00:00:00.000Z' },
      ]);
      const post = await ws.participation.post({
        boardId: board.id,
        email: a.author,
        name: 'Ada',
        title: 'Export to CSV',
        notifyMe: true,
      });
      await ws.participation.vote({ postId: post.id, email: a.bystander, notifyMe: true });
      const from = smtp.mails.length;
      const comment = await ws.participation.comment({
        postId: post.id,
        email: a.commenter,
        name: 'Cy',
        bodyText: 'Also Excel?',
        notifyMe: true,
      });
      await h.engine.scheduler.runDue();
      expect(Object.fromEntries(countsSince(smtp, from))).toEqual({ [a.author]: 1 });
      const second = smtp.mails.length;
      await ws.participation.comment({
        postId: post.id,
        email: a.replier,
        name: 'Ray',
        parentId: comment.id,
        bodyText: 'CSV opens in Excel',
        notifyMe: false,
      });
      await h.engine.scheduler.runDue();
      expect(Object.fromEntries(countsSince(smtp, second))).toEqual({ [a.author]: 1, [a.commenter]: 1 });
      const replies = (await smtp.parsed()).slice(second);
      expect(replies.map((m) => m.subject).sort()).toEqual([
        'New comment on “Export to CSV”',
        'Ray replied to your comment on “Export to CSV”',
      ]);
      // The author answering on their own post mails the commenter it answers, not the author.
      const third = smtp.mails.length;
      await ws.participation.comment({
        postId: post.id,
        email: a.author,
        parentId: comment.id,
        bodyText: 'Good point',
        notifyMe: false,
      });
      await h.engine.scheduler.runDue();
      expect(Object.fromEntries(countsSince(smtp, third))).toEqual({ [a.commenter]: 1 });
      expect((await smtp.parsed()).slice(third)[0]!.text).toContain('Someone wrote:\nGood point');
    });

    it('a published changelog entry mails the subscribed contacts who may be emailed', async () => {
      const { ws, board } = await portalWorkspace(h.engine);
      const a = addresses('sub', 'optin', 'legacy', 'unsubscribed');
      const sub = (await ws.contacts.identify({ externalUserId: 'c1', email: a.sub })).contact;
      const optin = (
        await ws.participation.vote({
          postId: (await ws.posts.create(board.id, { title: 'x' })).id,
          email: a.optin,
          notifyMe: true,
        })
      ).contactId!;
      const [legacy] = (
        await ws.contacts.backfill([
          { email: a.legacy, firstSeenAt: '2025-01-01T00:00:00.000Z', lastSeenAt: '2025-01-01T00:00:00.000Z' },
        ])
      ).created;
      await ws.contacts.identify({ externalUserId: 'c2', email: a.unsubscribed });
      for (const id of [sub.id, optin, legacy!]) await ws.notifications.subscribe(id, 'changelog');
      const shipped = await ws.posts.create(board.id, { title: 'Night theme' });
      const entry = await ws.changelog.create({
        boardId: board.id,
        title: 'Dark mode is here',
        body: '## Easier on the eyes\n\nTurn it on in **settings**, or read [the guide](https://acme.example/dark).\n\n<script>alert(1)</script>',
      });
      await ws.changelog.linkPosts(entry.id, [shipped.id]);
      await h.engine.organizations.update(ws.organizationId, {
        portalLogoUrl: 'https://cdn.acme.example/logo.png',
        portalAccent: '#0f766e',
      });
      const from = smtp.mails.length;
      await ws.changelog.publish(entry.id);
      await h.engine.scheduler.runDue();
      // The workspace subscribed the opted-in contact too: that is not their own opt-in, so not them; legacy never.
      expect(Object.fromEntries(countsSince(smtp, from))).toEqual({ [a.sub]: 1 });
      const [mail] = (await smtp.parsed()).slice(from);
      expect(mail!.subject).toBe('New in Acme: Dark mode is here');
      // The text part: the title, the Markdown as written (plain text reads it well), the posts it ships.
      expect(mail!.text).toContain('Dark mode is here');
      expect(mail!.text).toContain('Turn it on in **settings**, or read [the guide](https://acme.example/dark).');
      expect(mail!.text).toMatch(
        /It ships:\n- “Night theme”: https:\/\/feedback\.test\/portal\/[\w-]+\/b\/[\w-]+\/p\/night-theme/,
      );
      // The HTML part: rendered by the portal's sanitized renderer, in the workspace's branded layout.
      const htmlPart = String(mail!.html);
      expect(htmlPart).toContain('>Dark mode is here</h1>');
      expect(htmlPart).toMatch(/<h3 style="[^"]*">Easier on the eyes<\/h3>/);
      expect(htmlPart).toContain('<strong>settings</strong>');
      expect(htmlPart).toMatch(
        /<a style="[^"]*" href="https:\/\/acme\.example\/dark" rel="nofollow noopener">the guide<\/a>/,
      );
      expect(htmlPart).not.toContain('<script>');
      expect(htmlPart).not.toContain('**settings**');
      expect(htmlPart).toContain('<img src="https://cdn.acme.example/logo.png"');
      expect(htmlPart).toContain('background:#0f766e');
      expect(htmlPart).toMatch(
        /<a href="https:\/\/feedback\.test\/portal\/[\w-]+\/b\/[\w-]+\/p\/night-theme\?lang=en">Night theme<\/a>/,
      );
    });

    it('the change and its mail commit together: a status change whose mail cannot be written changes nothing', async () => {
      const { ws, post } = await portalWorkspace(h.engine);
      await ws.participation.vote({ postId: post.id, email: addresses('v').v, notifyMe: true });
      const events = (await ws.events.list()).length;
      await h.engine.db.run('ALTER TABLE mail RENAME TO mail_moved');
      try {
        await expect(ws.posts.update(post.id, { status: 'shipped' })).rejects.toThrow();
      } finally {
        await h.engine.db.run('ALTER TABLE mail_moved RENAME TO mail');
      }
      expect((await ws.posts.retrieve(post.id)).status).toBe('open');
      expect((await ws.events.list()).length).toBe(events);
      await ws.posts.update(post.id, { status: 'shipped' });
      expect((await h.engine.scheduler.runDue()).mail.sent).toBe(1);
    });
  },
  { engine: { mail: { smtpUrl: smtp.url, publicUrl: PUBLIC_URL } } },
);
