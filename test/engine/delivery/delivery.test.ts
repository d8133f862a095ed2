import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { disableAfterFailures } from '../../../src/engine/delivery/disable.js';
import { emit as emitEvent } from '../../../src/engine/store/tables/events.js';
import { EVENT_KINDS, RETRY_SCHEDULE_MS } from '../../../src/schemas/index.js';
import { describeMatrix, type Harness, type SeededWorkspace } from '../../helpers/harness.js';
import { type Receiver, startReceiver } from '../../helpers/receiver.js';
import { startSmtpSink } from '../../helpers/smtp.js';

const stripe = new Stripe('sk_test_unused');
/** What runDue reports of the mail lane when these webhook tests cause no mail. */
const NO_MAIL = { sent: 0, retried: 0, failed: 0, unconfirmed: 0, cancelled: 0 };
const NO_JOBS = { done: 0, retried: 0, failed: 0 };
/** A run that delivered `n` webhook attempts, all of them, and did nothing else. */
const allDelivered = (n: number) => ({ attempted: n, succeeded: n, failed: 0, mail: NO_MAIL, integrations: NO_JOBS });
const smtp = await startSmtpSink();
afterAll(() => smtp.close());
/** Everything the engines log; no webhook secret may ever appear in it. */
const logged: string[] = [];
const secrets: string[] = [];

async function register(h: Harness, ws: SeededWorkspace, url: string, events: string[]) {
  const res = await h.request('POST', '/v1/webhooks', { key: ws.key, body: { url, events } });
  expect(res.status).toBe(201);
  secrets.push(res.body.data.secret);
  return res.body.data as { id: string; secret: string };
}

async function deliveries(h: Harness, ws: SeededWorkspace, webhookId: string): Promise<any[]> {
  const all: any[] = [];
  let cursor: string | null = null as string | null;
  do {
    const page = await h.request(
      'GET',
      `/v1/webhooks/${webhookId}/deliveries?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
      { key: ws.key },
    );
    all.push(...page.body.data);
    cursor = page.body.nextCursor;
  } while (cursor);
  return all;
}

const newContact = (h: Harness, ws: SeededWorkspace, externalUserId: string) =>
  h.request('POST', '/v1/contacts', { key: ws.key, body: { externalUserId } });

describeMatrix(
  'webhook delivery',
  (h) => {
    let receiver: Receiver;
    beforeAll(async () => {
      receiver = await startReceiver((req, res) => {
        const [path, query] = req.path.split('?');
        const status = Number(new URLSearchParams(query).get('status') ?? 200);
        if (path === '/redirect') {
          res.writeHead(302, { location: `${receiver.origin}/target` });
          return void res.end();
        }
        if (path === '/slow') return; // never answers
        if (path === '/big') return void res.end('x'.repeat(5000));
        if (path === '/toggle') return void res.writeHead(toggleStatus).end(`status ${toggleStatus}`);
        res.writeHead(status).end(status === 204 ? undefined : `status ${status}`);
      });
    });
    afterAll(() => receiver.close());
    let toggleStatus = 500;
    const sentTo = (path: string) => receiver.requests.filter((r) => r.path.split('?')[0] === path);

    it('delivers every event kind once, with the exact headers, the event row bytes and a signature stripe accepts', async () => {
      const ws = await h.seed();
      const hook = await register(h, ws, `${receiver.origin}/all`, [...EVENT_KINDS]);
      const w = h.engine.workspace(ws.org.id);
      const contact = (await newContact(h, ws, 'kinds-1')).body.data;
      await h.request('PATCH', `/v1/contacts/${contact.id}`, { key: ws.key, body: { name: 'Renamed' } });
      const board = await w.boards.create({ name: 'Ideas' });
      const post = (
        await h.request('POST', `/v1/boards/${board.id}/posts`, {
          key: ws.key,
          body: { title: 'Dark mode', contactId: contact.id },
        })
      ).body.data;
      await h.request('PATCH', `/v1/posts/${post.id}`, { key: ws.key, body: { status: 'planned' } });
      // A duplicate merged into it, then deleted: post.merged and post.deleted.
      const twin = (await h.request('POST', `/v1/boards/${board.id}/posts`, { key: ws.key, body: { title: 'Dark' } }))
        .body.data;
      await h.request('POST', `/v1/posts/${twin.id}/merge`, { key: ws.key, body: { intoPostId: post.id } });
      await h.request('DELETE', `/v1/posts/${twin.id}`, { key: ws.key });
      await w.participation.vote({ postId: post.id, email: 'v@example.com', userId: 'usr_v', notifyMe: false });
      await h.request('POST', `/v1/posts/${post.id}/votes`, { key: ws.key, body: { contactId: contact.id } });
      await h.request('DELETE', `/v1/posts/${post.id}/votes/${contact.id}`, { key: ws.key });
      await w.participation.comment({
        postId: post.id,
        email: 'c@example.com',
        authorUserId: 'usr_c',
        bodyText: 'Yes please',
        notifyMe: false,
      });
      const said = (
        await h.request('POST', `/v1/posts/${post.id}/comments`, {
          key: ws.key,
          body: { bodyText: 'On it', official: true },
        })
      ).body.data;
      await h.request('PATCH', `/v1/comments/${said.id}`, { key: ws.key, body: { bodyText: 'On it now' } });
      await h.request('DELETE', `/v1/comments/${said.id}`, { key: ws.key });
      const entry = await w.changelog.create({ boardId: board.id, title: 'Shipped', body: 'Enjoy.' });
      await w.changelog.publish(entry.id);
      const company = (
        await h.request('POST', '/v1/companies', {
          key: ws.key,
          body: { externalCompanyId: 'kinds-co', name: 'Kinds' },
        })
      ).body.data;
      await h.request('PATCH', `/v1/companies/${company.id}`, { key: ws.key, body: { plan: 'enterprise' } });
      await h.request('DELETE', `/v1/companies/${company.id}`, { key: ws.key });
      await h.request('DELETE', `/v1/contacts/${contact.id}`, { key: ws.key });

      const summary = await h.engine.scheduler.runDue();
      const events = await w.events.list();
      // Every kind occurs (some twice: two posts are created, and a merge changes a status), each event delivered once.
      expect([...new Set(events.map((e) => e.type))].sort()).toEqual([...EVENT_KINDS].sort());
      expect(summary).toEqual({
        attempted: events.length,
        succeeded: events.length,
        failed: 0,
        mail: NO_MAIL,
        integrations: NO_JOBS,
      });
      const got = sentTo('/all');
      expect(got.map((r) => r.headers['x-service-delivery']).sort()).toEqual(
        (await deliveries(h, ws, hook.id)).map((d) => d.id).sort(),
      );
      expect(got.map((r) => r.headers['x-service-event']).sort()).toEqual(events.map((e) => e.type).sort());
      const deliveryLog = await deliveries(h, ws, hook.id);
      for (const event of events) {
        const delivery = deliveryLog.find((d) => d.eventId === event.id);
        const request = got.find((r) => r.headers['x-service-delivery'] === delivery.id)!;
        expect(request.method).toBe('POST');
        // Exactly the spec's headers, beside what HTTP itself needs.
        expect(
          request.headerNames.filter((n) => !['host', 'connection', 'content-length'].includes(n.toLowerCase())),
        ).toEqual(['Content-Type', 'User-Agent', 'X-Service-Event', 'X-Service-Delivery', 'X-Service-Signature']);
        expect(request.headers['content-type']).toBe('application/json');
        expect(request.headers['user-agent']).toBe('Service-Webhooks/1.0');
        expect(request.headers['x-service-delivery']).toBe(delivery.id);
        expect(request.headers['x-service-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
        expect(request.body).toBe(event.payloadText);
        expect(JSON.parse(request.body)).toEqual(delivery.payload);
        expect(
          stripe.webhooks.signature.verifyHeader(
            request.body,
            request.headers['x-service-signature'] as string,
            hook.secret,
            300,
          ),
        ).toBe(true);
        expect(() =>
          stripe.webhooks.signature.verifyHeader(
            request.body,
            request.headers['x-service-signature'] as string,
            `${hook.secret}x`,
            300,
          ),
        ).toThrow();
      }
    });

    it('retries a failing receiver on the 0 s / 30 s / 2 min / 10 min / 1 h schedule, then fails the delivery with failedAt', async () => {
      const ws = await h.seed();
      const hook = await register(h, ws, `${receiver.origin}/fail?status=500`, ['contact.created']);
      await newContact(h, ws, 'schedule-1');
      expect(await h.engine.scheduler.runDue()).toEqual({
        attempted: 1,
        succeeded: 0,
        failed: 1,
        mail: NO_MAIL,
        integrations: NO_JOBS,
      });
      for (const wait of RETRY_SCHEDULE_MS.slice(1)) {
        h.advance(wait - 1000);
        expect((await h.engine.scheduler.runDue()).attempted).toBe(0);
        h.advance(1000);
        expect((await h.engine.scheduler.runDue()).attempted).toBe(1);
      }
      h.advance(24 * 3_600_000);
      expect((await h.engine.scheduler.runDue()).attempted).toBe(0);

      const [delivery] = await deliveries(h, ws, hook.id);
      expect(delivery).toMatchObject({
        status: 'failed',
        failureReason: 'attempts_exhausted',
        nextAttemptAt: null,
        succeededAt: null,
      });
      expect(delivery.attempts.map((a: any) => [a.number, a.statusCode, a.error, a.responseBody])).toEqual(
        [1, 2, 3, 4, 5].map((n) => [n, 500, 'receiver answered 500', 'status 500']),
      );
      expect(delivery.failedAt).toBe(delivery.attempts[4].attemptedAt);
      const gaps = delivery.attempts
        .slice(1)
        .map((a: any, i: number) => Date.parse(a.attemptedAt) - Date.parse(delivery.attempts[i].attemptedAt));
      for (const [i, gap] of (gaps as number[]).entries())
        expect(gap).toBeGreaterThanOrEqual(RETRY_SCHEDULE_MS[i + 1]!);
      // Same bytes on every attempt; the signature's timestamp is taken at each attempt.
      const sent = receiver.requests.filter((r) => r.headers['x-service-delivery'] === delivery.id);
      expect(sent).toHaveLength(5);
      expect(new Set(sent.map((r) => r.body)).size).toBe(1);
      expect(new Set(sent.map((r) => r.headers['x-service-signature'])).size).toBe(5);
    });

    it('any 2xx succeeds; a 3xx is a failure and is not followed; a 4xx is retried', async () => {
      const ws = await h.seed();
      const ok204 = await register(h, ws, `${receiver.origin}/ok?status=204`, ['contact.created']);
      const ok299 = await register(h, ws, `${receiver.origin}/ok?status=299`, ['contact.created']);
      const redirect = await register(h, ws, `${receiver.origin}/redirect`, ['contact.created']);
      const notFound = await register(h, ws, `${receiver.origin}/gone?status=404`, ['contact.created']);
      await newContact(h, ws, 'codes-1');
      expect(await h.engine.scheduler.runDue()).toEqual({
        attempted: 4,
        succeeded: 2,
        failed: 2,
        mail: NO_MAIL,
        integrations: NO_JOBS,
      });
      for (const hook of [ok204, ok299])
        expect((await deliveries(h, ws, hook.id))[0]).toMatchObject({ status: 'succeeded', failedAt: null });
      const [redirected] = await deliveries(h, ws, redirect.id);
      expect(redirected.status).toBe('pending');
      expect(redirected.attempts[0]).toMatchObject({
        statusCode: 302,
        error: `redirect to ${receiver.origin}/target not followed`,
      });
      expect(sentTo('/target')).toEqual([]);
      const [missing] = await deliveries(h, ws, notFound.id);
      expect(missing.status).toBe('pending');
      expect(Date.parse(missing.nextAttemptAt) - Date.parse(missing.attempts[0].attemptedAt)).toBeGreaterThanOrEqual(
        30_000,
      );
    });

    it('times out a receiver that does not answer, reports refused connections, and keeps 1 KiB of the response', async () => {
      const ws = await h.seed();
      const closed = createServer();
      await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
      const deadPort = (closed.address() as AddressInfo).port;
      await new Promise((r) => closed.close(r));
      const slow = await register(h, ws, `${receiver.origin}/slow`, ['contact.created']);
      const dead = await register(h, ws, `http://127.0.0.1:${deadPort}/`, ['contact.created']);
      const big = await register(h, ws, `${receiver.origin}/big`, ['contact.created']);
      await newContact(h, ws, 'failures-1');
      expect(await h.engine.scheduler.runDue()).toEqual({
        attempted: 3,
        succeeded: 1,
        failed: 2,
        mail: NO_MAIL,
        integrations: NO_JOBS,
      });
      const [timedOut] = await deliveries(h, ws, slow.id);
      expect(timedOut.attempts[0]).toMatchObject({
        statusCode: null,
        error: 'timeout: no complete response within 300 ms',
        responseBody: null,
      });
      expect(timedOut.attempts[0].durationMs).toBeGreaterThanOrEqual(290);
      const [refused] = await deliveries(h, ws, dead.id);
      expect(refused.attempts[0].statusCode).toBeNull();
      expect(refused.attempts[0].error).toMatch(/ECONNREFUSED/);
      const [kept] = await deliveries(h, ws, big.id);
      expect(kept.attempts[0].responseBody).toBe('x'.repeat(1024));
    });

    it('50 consecutive failures disable the webhook once, fail its pending deliveries and email the admins once', async () => {
      const ws = await h.seed({ adminEmails: ['admin@example.com', 'ops@example.com'] });
      toggleStatus = 500;
      const failing = await register(h, ws, `${receiver.origin}/toggle`, ['contact.created']);
      const healthy = await register(h, ws, `${receiver.origin}/healthy`, ['contact.created']);
      const unsubscribed = await register(h, ws, `${receiver.origin}/unsubscribed`, ['vote.created']);
      const mailsBefore = smtp.mails.length;

      for (let i = 0; i < 49; i++) await newContact(h, ws, `disable-${i}`);
      await h.engine.scheduler.runDue();
      expect((await h.request('GET', `/v1/webhooks/${failing.id}`, { key: ws.key })).body.data.enabled).toBe(true);
      // A success resets the count: 49 more failures after it do not disable.
      toggleStatus = 200;
      await newContact(h, ws, 'disable-ok');
      await h.engine.scheduler.runDue();
      toggleStatus = 500;
      for (let i = 0; i < 49; i++) await newContact(h, ws, `disable-b${i}`);
      await h.engine.scheduler.runDue();
      expect((await h.request('GET', `/v1/webhooks/${failing.id}`, { key: ws.key })).body.data.enabled).toBe(true);
      expect(smtp.mails.length).toBe(mailsBefore);

      // The 50th consecutive failure disables it.
      await newContact(h, ws, 'disable-50th');
      expect(await h.engine.scheduler.runDue()).toMatchObject({ attempted: 2, failed: 1 });
      const webhook = (await h.request('GET', `/v1/webhooks/${failing.id}`, { key: ws.key })).body.data;
      expect(webhook).toMatchObject({ enabled: false, disabledAt: expect.any(String) });
      await smtp.waitFor(mailsBefore + 2);
      // One message to each admin, from the outbox (written with the disable).
      const notices = smtp.mails.slice(mailsBefore);
      expect(notices.flatMap((m) => m.to).sort()).toEqual(['admin@example.com', 'ops@example.com']);
      for (const mail of notices) {
        expect(mail.data).toContain(failing.id);
        expect(mail.data).toMatch(/Subject: Webhook disabled after 50 failed deliveries/);
      }

      const log = await deliveries(h, ws, failing.id);
      expect(log.filter((d) => d.status === 'pending')).toEqual([]);
      const ended = log.filter((d) => d.failureReason === 'webhook_disabled');
      expect(ended.length).toBeGreaterThan(0);
      for (const d of ended)
        expect(d).toMatchObject({ status: 'failed', failedAt: webhook.disabledAt, nextAttemptAt: null });

      // Disabled: no new deliveries, nothing sent, no second mail. The healthy webhook is unaffected.
      const sentBefore = sentTo('/toggle').length;
      await newContact(h, ws, 'after-disable');
      h.advance(3_600_000);
      await h.engine.scheduler.runDue();
      expect((await deliveries(h, ws, failing.id)).length).toBe(log.length);
      expect(sentTo('/toggle').length).toBe(sentBefore);
      expect((await deliveries(h, ws, healthy.id)).every((d) => d.status === 'succeeded')).toBe(true);
      expect((await deliveries(h, ws, healthy.id)).length).toBe(49 + 1 + 49 + 1 + 1);
      expect(await deliveries(h, ws, unsubscribed.id)).toEqual([]);
      expect(sentTo('/unsubscribed')).toEqual([]);
      await smtp.waitFor(mailsBefore + 2);
      expect(smtp.mails.length).toBe(mailsBefore + 2);

      // Re-enabling resets the counter: 49 failures later it is still enabled; a replay of a disabled-out delivery goes out.
      await h.request('PATCH', `/v1/webhooks/${failing.id}`, { key: ws.key, body: { enabled: true } });
      for (let i = 0; i < 49; i++) await newContact(h, ws, `disable-d${i}`);
      await h.engine.scheduler.runDue();
      expect((await h.request('GET', `/v1/webhooks/${failing.id}`, { key: ws.key })).body.data.enabled).toBe(true);
      toggleStatus = 200;
      const replay = await h.request('POST', `/v1/webhooks/${failing.id}/deliveries/${ended[0].id}/replay`, {
        key: ws.key,
      });
      expect(replay.status).toBe(201);
      await h.engine.scheduler.runDue();
      expect((await deliveries(h, ws, failing.id)).find((d) => d.id === replay.body.data.id).status).toBe('succeeded');
    });

    it("the admins' notice is written in the transaction that disables the webhook: a process that dies right after the disable commits sends it on restart", async () => {
      const ws = await h.seed({ adminEmails: ['owner@example.com'] });
      const hook = await register(h, ws, `${receiver.origin}/toggle`, ['contact.created']);
      await h.engine.db.run('UPDATE webhook SET consecutive_failures = 50 WHERE id = ?', [hook.id]);
      const mailsBefore = smtp.mails.length;
      // What the recorder does on the 50th failure; the process "dies" here: nothing else of it runs.
      expect(await disableAfterFailures(h.engine.db, hook.id, new Date())).toBe(true);
      const rows = await h.engine.db.all<{ kind: string; email: string; status: string }>(
        'SELECT kind, email, status FROM mail WHERE organization_id = ?',
        [ws.org.id],
      );
      expect(rows).toEqual([{ kind: 'webhook_disabled', email: 'owner@example.com', status: 'pending' }]);
      // Disabling again (another process saw the same 50th failure) writes nothing more.
      expect(await disableAfterFailures(h.engine.db, hook.id, new Date())).toBe(false);
      // The restarted process's scheduler finds it and sends it, once.
      await h.engine.scheduler.runDue();
      await smtp.waitFor(mailsBefore + 1);
      expect(smtp.mails[mailsBefore]!.to).toEqual(['owner@example.com']);
      expect(smtp.mails[mailsBefore]!.data).toContain(hook.id);
      await h.engine.scheduler.runDue();
      expect(smtp.mails.length).toBe(mailsBefore + 1);
    });

    it('a change that rolls back produces no delivery; a refused write neither', async () => {
      const ws = await h.seed({ contactCap: 1 });
      const hook = await register(h, ws, `${receiver.origin}/rollback`, ['contact.created', 'post.created']);
      const event = {
        event: 'contact.deleted' as const,
        organizationId: ws.org.id,
        contact: { id: 'ctc_x', externalUserId: null },
      };
      await expect(
        h.engine.db.transaction(async (tx) => {
          await emitEvent(tx, event, h.engine.clock());
          throw new Error('the change failed after its event was written');
        }),
      ).rejects.toThrow('the change failed');
      expect((await newContact(h, ws, 'cap-1')).status).toBe(201);
      expect((await newContact(h, ws, 'cap-2')).status).toBe(402);
      await h.engine.scheduler.runDue();
      const log = await deliveries(h, ws, hook.id);
      expect(log.map((d) => d.payload.contact.externalUserId)).toEqual(['cap-1']);
      expect(
        await h.engine.db.all("SELECT id FROM event WHERE type = 'contact.deleted' AND organization_id = ?", [
          ws.org.id,
        ]),
      ).toEqual([]);
    });

    it('runDue delivers a backlog many claim batches deep, each delivery once', async () => {
      const ws = await h.seed();
      const hook = await register(h, ws, `${receiver.origin}/backlog`, ['contact.created']);
      for (let i = 0; i < 150; i++) await newContact(h, ws, `backlog-${i}`);
      expect(await h.engine.scheduler.runDue()).toEqual(allDelivered(150));
      const ids = sentTo('/backlog').map((r) => r.headers['x-service-delivery']);
      expect(new Set(ids).size).toBe(150);
      expect((await deliveries(h, ws, hook.id)).every((d) => d.status === 'succeeded')).toBe(true);
    });

    it('runDue delivers a backlog of one instant (every delivery due at the same millisecond) across claim refills', async () => {
      const ws = await h.seed();
      const hook = await register(h, ws, `${receiver.origin}/instant`, ['contact.created']);
      // 150 events in one statement, as a bulk import writes them: one created_at, so claims order by id alone.
      const series =
        h.engine.dialect === 'postgresql'
          ? 'SELECT g FROM generate_series(1, 150) g'
          : 'WITH RECURSIVE s(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s WHERE g < 150) SELECT g FROM s';
      const now = h.engine.dialect === 'postgresql' ? new Date() : Date.now();
      await h.engine.db.all(
        `INSERT INTO event (id, organization_id, type, payload, created_at)
         SELECT 'evt_instant_' || g, ?, 'contact.created', '{"event":"contact.created"}', ? FROM (${series}) x`,
        [ws.org.id, now],
      );
      expect(await h.engine.scheduler.runDue()).toEqual(allDelivered(150));
      expect(new Set(sentTo('/instant').map((r) => r.headers['x-service-delivery'])).size).toBe(150);
      expect((await deliveries(h, ws, hook.id)).every((d) => d.status === 'succeeded')).toBe(true);
    });

    it('a started scheduler delivers a committed change at once, without waiting for its poll', async () => {
      const ws = await h.seed();
      await register(h, ws, `${receiver.origin}/started`, ['contact.created']);
      await h.engine.scheduler.start();
      try {
        const committed = Date.now();
        await newContact(h, ws, 'started-1');
        while (sentTo('/started').length === 0 && Date.now() - committed < 5000)
          await new Promise((r) => setTimeout(r, 2));
        expect(sentTo('/started')).toHaveLength(1);
        // The poll is ten minutes here: only a wake-up (the commit's own; on PostgreSQL also NOTIFY) explains this.
        expect(Date.now() - committed).toBeLessThan(2000);
      } finally {
        await h.engine.scheduler.stop();
      }
    });

    it('a delivery committed behind where the scheduler last claimed is still claimed, on its commit', async () => {
      const ws = await h.seed();
      const hook = await register(h, ws, `${receiver.origin}/behind`, ['contact.created']);
      await h.engine.scheduler.start();
      try {
        // A backlog makes the webhook fast: its refills seek from the newest delivery claimed.
        for (let i = 0; i < 40; i++) await newContact(h, ws, `ahead-${i}`);
        const deadline = Date.now() + 5000;
        while (sentTo('/behind').length < 40 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
        expect(sentTo('/behind')).toHaveLength(40);
        // A change whose event is older than all of those (a transaction that began earlier and commits later). The
        // clock goes back 30 s, less than a lease (60 s): a wake that claims while it is back takes a lease that is
        // still live when it comes forward again, as on a real clock. (An hour back made such a claim's lease lapse
        // at once, so the commit's own wake claimed the delivery a second time and the first outcome went unrecorded.)
        h.advance(-30_000);
        await newContact(h, ws, 'behind-1');
        h.advance(30_000);
        const committed = Date.now();
        while (sentTo('/behind').length < 41 && Date.now() - committed < 5000)
          await new Promise((r) => setTimeout(r, 5));
        expect(sentTo('/behind')).toHaveLength(41); // the poll is ten minutes here: the commit's wake-up claimed it
      } finally {
        await h.engine.scheduler.stop(); // resolves once every attempt is recorded
      }
      const log = await deliveries(h, ws, hook.id);
      expect(log.map((d) => d.status)).toEqual(Array(41).fill('succeeded'));
      expect(log.at(-1).payload.contact.externalUserId).toBe('behind-1'); // newest first: the oldest event is last
    });

    it('never logs a webhook secret', () => {
      expect(secrets.length).toBeGreaterThan(0);
      for (const secret of secrets) for (const line of logged) expect(line).not.toContain(secret);
    });
  },
  {
    transports: ['fetch'],
    engine: {
      // Two requests per webhook at once: claims of 16, at most 48 held, so the backlog test spans many claims.
      webhooks: {
        allowPrivateNetworks: true,
        timeoutMs: 300,
        smtpUrl: smtp.url,
        mailFrom: 'alerts@feedback.test',
        scheduler: { perWebhookConcurrency: 2, pollMs: 600_000 },
      },
      log: (message, error) => logged.push(`${message} ${String(error)} ${JSON.stringify(error)}`),
    },
  },
);

describeMatrix(
  'webhook delivery SSRF guard at connect time',
  (h) => {
    let receiver: Receiver;
    beforeAll(async () => {
      receiver = await startReceiver();
    });
    afterAll(() => receiver.close());

    it('refuses to connect to a private address even when the stored url got past registration', async () => {
      const ws = await h.seed();
      const port = new URL(receiver.origin).port;
      const now = h.engine.clock();
      // As if registration had passed (a name that resolved to a public address then, DNS rebinding now).
      for (const [id, url] of [
        ['wh_literal', `http://127.0.0.1:${port}/hook`],
        ['wh_name', `http://localhost:${port}/hook`],
        ['wh_mapped', `http://[::ffff:7f00:1]:${port}/hook`],
      ]) {
        await h.engine.db.all(
          `INSERT INTO webhook (id, organization_id, url, events, description, secret, enabled, consecutive_failures, created_at, updated_at)
           VALUES (?, ?, ?, ',contact.created,', NULL, 'whsec_test', ?, 0, ?, ?)`,
          [
            id,
            ws.org.id,
            url,
            true,
            h.database === 'postgresql' ? now : now.getTime(),
            h.database === 'postgresql' ? now : now.getTime(),
          ],
        );
      }
      await newContact(h, ws, 'ssrf-1');
      expect(await h.engine.scheduler.runDue()).toEqual({
        attempted: 3,
        succeeded: 0,
        failed: 3,
        mail: NO_MAIL,
        integrations: NO_JOBS,
      });
      expect(receiver.requests).toEqual([]);
      const errors = await h.engine.db.all<{ error: string }>(
        'SELECT a.error FROM delivery_attempt a JOIN delivery d ON d.id = a.delivery_id WHERE d.organization_id = ? ORDER BY d.webhook_id',
        [ws.org.id],
      );
      expect(errors.map((e) => e.error)).toEqual([
        '127.0.0.1 is a loopback address',
        '::ffff:7f00:1 is a loopback address',
        'localhost resolves to 127.0.0.1, a loopback address',
      ]);
    });
  },
  { transports: ['fetch'] },
);
