import { afterAll, expect, it } from 'vitest';
import { type Engine, hashEmail } from '../../../src/engine/index.js';
import { createApp } from '../../../src/h3/index.js';
import { contactExportSchema } from '../../../src/schemas/index.js';
import { describeEngine } from '../../helpers/harness.js';
import { addresses, countsSince, portalWorkspace } from '../../helpers/notifications.js';
import { startReceiver } from '../../helpers/receiver.js';
import { startSmtpSink } from '../../helpers/smtp.js';

const smtp = await startSmtpSink();
const receiver = await startReceiver((_req, res) => void res.writeHead(200).end());
afterAll(async () => {
  await smtp.close();
  await receiver.close();
});

/** Every row of every table of the database, as text: where anything left of a person would show. */
async function everything(engine: Engine): Promise<string> {
  const tables =
    engine.dialect === 'sqlite'
      ? await engine.db.all<{ name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
        )
      : await engine.db.all<{ name: string }>(
          "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'",
        );
  let text = '';
  for (const { name } of tables) text += `${name}: ${JSON.stringify(await engine.db.all(`SELECT * FROM "${name}"`))}\n`;
  return text;
}

describeEngine(
  'data-subject requests',
  (h) => {
    /** A person who did everything the service can hold: identified twice, voted, commented, posted, subscribed, got mail, signed in. */
    async function aPerson() {
      const { ws, org, board, post } = await portalWorkspace(h.engine);
      const { ada } = addresses('ada');
      const other = await ws.posts.create(board.id, { title: 'Keyboard shortcuts' });
      const { contact } = await ws.contacts.identify({
        externalUserId: 'u-ada',
        email: ada,
        name: 'Ada Lovelace',
        plan: 'pro',
        mrrCents: 4900,
        currency: 'USD',
        metadata: { company: 'Analytical Engines' },
        companies: [{ externalCompanyId: 'acct-engines', name: 'Engines Ltd', mrrCents: 90_000, currency: 'USD' }],
      });
      await ws.contacts.identify({ externalUserId: 'u-ada', name: 'Ada King' }); // a contact.updated with a name in it
      await ws.participation.vote({ postId: post.id, email: ada, userId: 'u-ada', vouched: true, notifyMe: false });
      await ws.participation.vote({ postId: other.id, email: ada.toUpperCase(), notifyMe: false }); // found by the address only
      const comment = await ws.participation.comment({
        postId: post.id,
        email: ada,
        name: 'Ada L.',
        bodyText: 'Please also for the editor',
        notifyMe: true,
      });
      const own = await ws.participation.post({
        boardId: board.id,
        email: ada,
        name: 'Ada L.',
        authorUserId: 'u-ada',
        title: 'Export to PDF',
        notifyMe: true,
      });
      // The same address identified under a second user id: the same person.
      const second = (await ws.contacts.identify({ externalUserId: 'u-ada-2', email: ada })).contact;
      const me = { organizationId: org.id, contactId: contact.id, emailHash: hashEmail(ada)! };
      await ws.notifications.subscribe(contact.id, 'changelog');
      await ws.notifications.updatePreferences(me, { digest: 'hourly', postUpdates: { [other.id]: false } });
      await ws.posts.update(post.id, { status: 'planned' });
      // An emailed code and the session it opens.
      const seen = smtp.mails.length;
      const { codeId } = await ws.participation.requestCode(
        { email: ada, name: 'Ada L.' },
        { kind: 'vote', postId: other.id, notifyMe: false },
        { workspace: 'Acme' },
      );
      await h.engine.scheduler.runDue();
      await ws.participation.confirmCode(codeId, await smtp.codeFor(ada, seen));
      // A kept answer of an idempotent identify holds the contact for 24 hours.
      const key = (await h.engine.keys.create(org.id, 'read:write')).key;
      const app = createApp({ engine: h.engine, logError: () => {} });
      const res = await app.fetch(
        new Request('http://x/v1/contacts/identify', {
          method: 'POST',
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': 'application/json',
            'idempotency-key': 'identify-ada',
          },
          body: JSON.stringify({ externalUserId: 'u-ada', email: ada }),
        }),
      );
      expect(res.status).toBe(200);
      return { ws, org, board, post, other, ada, contact, second, comment, own };
    }

    it('export, then erase, then export again: nothing is left but the suppression hash', async () => {
      const p = await aPerson();
      const before = await p.ws.privacy.export(p.contact.id);
      expect(contactExportSchema.safeParse(before).success).toBe(true);
      expect(before.contact).toMatchObject({
        id: p.contact.id,
        email: p.ada,
        name: 'Ada King',
        plan: 'pro',
        metadata: { company: 'Analytical Engines' },
      });
      expect(before.sameAddress.map((c) => c.id)).toEqual([p.second.id]);
      const [engines] = (await p.ws.companies.list()).data;
      expect(before.companies).toEqual([
        { contactId: p.contact.id, id: engines!.id, externalCompanyId: 'acct-engines', name: 'Engines Ltd' },
      ]);
      expect(before.consent).toMatchObject({ source: 'identify', consentBasis: 'sdk_identify' });
      expect(before.posts.map((x) => [x.title, x.authorName])).toEqual([['Export to PDF', 'Ada L.']]);
      expect(before.votes.map((v) => v.linkedBy)).toEqual([['contact_id', 'email_hash', 'user_id'], ['email_hash']]);
      expect(before.comments).toEqual([
        expect.objectContaining({
          bodyText: 'Please also for the editor',
          authorName: 'Ada L.',
          linkedBy: ['contact_id', 'email_hash'],
        }),
      ]);
      expect(before.notifications.digest).toBe('hourly');
      expect(before.notifications.subscriptions.map((s) => s.topic).sort()).toEqual(
        ['changelog', `post:${p.own.id}`, `post:${p.post.id}`].sort(),
      );
      expect(before.notifications.unsubscribes).toEqual([
        expect.objectContaining({ topic: `post:${p.other.id}`, via: 'preferences', undoneAt: null }),
      ]);
      // The status change's mail (in the hourly digest), and the code the person asked for (sent).
      expect(before.notifications.mail).toEqual([
        expect.objectContaining({ kind: 'post_status', email: p.ada, status: 'pending' }),
        expect.objectContaining({ kind: 'portal_code', email: p.ada, status: 'sent' }),
      ]);
      expect(before.portal.sessions).toEqual([
        expect.objectContaining({ email: p.ada, name: 'Ada L.', verified: false }),
      ]);
      expect(before.events.map((e) => e.type).sort()).toEqual([
        'comment.created',
        'contact.created',
        'contact.created',
        'contact.updated',
        'vote.created',
        'vote.created',
      ]);
      expect(before.erasure).toBeNull();

      // The scan below sees the person before the erasure: every trace it looks for is there now.
      const traces = [p.ada, hashEmail(p.ada)!, 'ada lovelace', 'ada king', 'ada l.', 'u-ada', 'analytical engines'];
      const held = (await everything(h.engine)).toLowerCase();
      for (const trace of traces) expect(held, trace).toContain(trace.toLowerCase());

      const report = await p.ws.privacy.erase(p.contact.id);
      expect(report).toMatchObject({
        contactIds: [p.contact.id, p.second.id],
        votes: 2,
        comments: 1,
        posts: 1,
        mail: 2,
        events: 6,
        sessions: 1,
        idempotentAnswers: 1,
        suppressed: true,
      });

      const after = await p.ws.privacy.export(p.contact.id);
      expect(contactExportSchema.safeParse(after).success).toBe(true);
      expect(after).toEqual({
        format: 'feedback-service.contact-export.v1',
        exportedAt: expect.any(String),
        organizationId: p.org.id,
        contactId: p.contact.id,
        contact: null,
        sameAddress: [],
        companies: [],
        consent: null,
        posts: [],
        votes: [],
        comments: [],
        notifications: { digest: 'instant', subscriptions: [], unsubscribes: [], mail: [] },
        portal: { sessions: [], pendingCodes: [] },
        events: [],
        erasure: {
          erasedAt: report.erasedAt,
          suppressionDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
          deletionEventPending: false,
        },
      });
      // Nowhere in the database: not the address, its hash, the names, the user ids, the metadata.
      const db = (await everything(h.engine)).toLowerCase();
      for (const trace of traces) expect(db, trace).not.toContain(trace.toLowerCase());
      // The kept answer of the idempotent identify is sealed (the scan above cannot read it): it is gone, not replayed.
      expect(await h.engine.db.all("SELECT key FROM idempotency_key WHERE key = 'identify-ada'")).toEqual([]);
      // The company stays (the customer's account, not the person), without them.
      expect(await p.ws.companies.retrieve(engines!.id)).toMatchObject({ name: 'Engines Ltd', memberCount: 0 });
      // What stays: the posts and the comment's words (the workspace's feedback), the votes' count, the deletion.
      expect((await p.ws.posts.retrieve(p.post.id)).voteCount).toBe(1);
      expect((await p.ws.posts.retrieve(p.own.id)).contactId).toBeNull();
      const deleted = (await p.ws.events.list({ type: 'contact.deleted' })).map((e) => e.payload);
      expect(deleted).toEqual([
        { event: 'contact.deleted', organizationId: p.org.id, contact: { id: p.contact.id, externalUserId: null } },
        { event: 'contact.deleted', organizationId: p.org.id, contact: { id: p.second.id, externalUserId: null } },
      ]);
      await expect(p.ws.privacy.erase(p.contact.id)).rejects.toMatchObject({
        code: 'ERR_NOT_FOUND',
        message: `Contact ${p.contact.id} was erased at ${report.erasedAt}.`,
      });
    });

    it('after an erasure the address does not come back without a fresh opt-in of its own', async () => {
      const { ws, board, post } = await portalWorkspace(h.engine);
      const { eve } = addresses('eve');
      const first = await ws.participation.vote({ postId: post.id, email: eve, notifyMe: true });
      await ws.privacy.erase(first.contactId!);
      // Taking part without the box: no contact, as for anyone; a backfill skips the address.
      const silent = await ws.participation.comment({
        postId: post.id,
        email: eve,
        bodyText: 'again',
        notifyMe: false,
      });
      expect(silent.contactId).toBeNull();
      expect(
        await ws.contacts.backfill([
          { email: eve, firstSeenAt: '2024-01-01T00:00:00.000Z', lastSeenAt: '2024-01-01T00:00:00.000Z' },
        ]),
      ).toEqual({ created: [], skipped: 0, suppressed: 1 });
      // The workspace's app identifies the address again: the contact exists, but nothing is mailed to it...
      const back = (await ws.contacts.identify({ externalUserId: 'eve-app', email: eve })).contact;
      await ws.participation.vote({
        postId: (await ws.posts.create(board.id, { title: 'Second' })).id,
        email: eve,
        userId: 'eve-app',
        vouched: true,
        notifyMe: false,
      });
      const from = smtp.mails.length;
      await ws.posts.update(post.id, { status: 'planned' });
      await ws.participation
        .vote({ postId: post.id, email: eve, userId: 'eve-app', vouched: true, notifyMe: false })
        .catch(() => {});
      await ws.posts.update(post.id, { status: 'in_progress' });
      await h.engine.scheduler.runDue();
      expect(countsSince(smtp, from).get(eve)).toBeUndefined();
      // ...until the person ticks notify-me again: a fresh opt-in lifts the suppression.
      const other = await ws.posts.create(board.id, { title: 'Third' });
      const fresh = await ws.participation.vote({ postId: other.id, email: eve, notifyMe: true });
      expect(fresh.contactId).toBe(back.id);
      await ws.posts.update(other.id, { status: 'shipped' });
      await h.engine.scheduler.runDue();
      expect(countsSince(smtp, from).get(eve)).toBe(1);
    });

    it("the erasure's contact.deleted reaches the webhooks with the externalUserId, and loses it once delivered", async () => {
      const { ws, org } = await portalWorkspace(h.engine);
      const { zed } = addresses('zed');
      await ws.webhooks.create({ url: `${receiver.origin}/erasures`, events: ['contact.deleted'] });
      const { contact } = await ws.contacts.identify({ externalUserId: 'u-zed', email: zed });
      await ws.privacy.erase(contact.id);
      const pending = await ws.privacy.export(contact.id);
      expect(pending.erasure).toMatchObject({ deletionEventPending: true });
      expect(pending.events).toEqual([
        expect.objectContaining({
          type: 'contact.deleted',
          payload: {
            event: 'contact.deleted',
            organizationId: org.id,
            contact: { id: contact.id, externalUserId: 'u-zed' },
          },
        }),
      ]);
      const seen = receiver.requests.length;
      await h.engine.scheduler.runDue();
      expect(JSON.parse(receiver.requests.slice(seen).find((r) => r.path === '/erasures')!.body).contact).toEqual({
        id: contact.id,
        externalUserId: 'u-zed',
      });
      await h.engine.scheduler.runChores();
      const done = await ws.privacy.export(contact.id);
      expect(done.erasure).toMatchObject({ deletionEventPending: false });
      expect(done.events).toEqual([]);
      expect((await everything(h.engine)).includes('u-zed')).toBe(false);
    });

    it('an unknown contact is not found; DELETE /v1/contacts keeps what an erasure removes', async () => {
      const { ws, post } = await portalWorkspace(h.engine);
      await expect(ws.privacy.export('ctc_nope')).rejects.toMatchObject({ code: 'ERR_NOT_FOUND' });
      await expect(ws.privacy.erase('ctc_nope')).rejects.toMatchObject({ code: 'ERR_NOT_FOUND' });
      const { kay } = addresses('kay');
      const vote = await ws.participation.vote({ postId: post.id, email: kay, notifyMe: true });
      await ws.contacts.delete(vote.contactId!);
      await expect(ws.privacy.export(vote.contactId!)).rejects.toMatchObject({ code: 'ERR_NOT_FOUND' });
      expect(await everything(h.engine)).toContain(hashEmail(kay)!);
    });
  },
  {
    engine: {
      mail: { smtpUrl: smtp.url, publicUrl: 'https://feedback.test' },
      webhooks: { allowPrivateNetworks: true },
    },
  },
);
