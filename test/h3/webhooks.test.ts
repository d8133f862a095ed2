import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeMatrix, type Harness, type SeededWorkspace } from '../helpers/harness.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';

const WEBHOOK_FIELDS = ['createdAt', 'description', 'disabledAt', 'enabled', 'events', 'id', 'updatedAt', 'url'];
const DELIVERY_FIELDS = [
  'attempts',
  'createdAt',
  'event',
  'eventId',
  'failedAt',
  'failureReason',
  'id',
  'nextAttemptAt',
  'payload',
  'replayOf',
  'status',
  'succeededAt',
  'webhookId',
];

const register = (h: Harness, ws: SeededWorkspace, body: Record<string, unknown>) =>
  h.request('POST', '/v1/webhooks', { key: ws.key, body });

describeMatrix(
  'webhooks REST',
  (h) => {
    let receiver: Receiver;
    beforeAll(async () => {
      receiver = await startReceiver();
    });
    afterAll(() => receiver.close());

    it('POST /v1/webhooks answers 201 with the webhook and a one-time secret that no later read returns', async () => {
      const ws = await h.seed();
      const res = await register(h, ws, {
        url: `${receiver.origin}/a`,
        events: ['contact.created', 'post.created'],
        description: 'CRM sync',
      });
      expect(res.status).toBe(201);
      const created = res.body.data;
      expect(Object.keys(created).sort()).toEqual([...WEBHOOK_FIELDS, 'secret'].sort());
      expect(created).toMatchObject({
        url: `${receiver.origin}/a`,
        events: ['contact.created', 'post.created'],
        description: 'CRM sync',
        enabled: true,
        disabledAt: null,
      });
      expect(created.id).toMatch(/^wh_[0-9a-z]{26}$/);
      expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);

      const one = await h.request('GET', `/v1/webhooks/${created.id}`, { key: ws.readKey });
      expect(one.status).toBe(200);
      expect(Object.keys(one.body.data).sort()).toEqual(WEBHOOK_FIELDS);
      const list = await h.request('GET', '/v1/webhooks', { key: ws.readKey });
      expect(list.body.data.map((w: { id: string }) => w.id)).toEqual([created.id]);
      for (const text of [JSON.stringify(one.body), JSON.stringify(list.body)])
        expect(text).not.toContain(created.secret);
    });

    it('folds repeated event kinds and keeps the order given', async () => {
      const ws = await h.seed();
      const res = await register(h, ws, {
        url: receiver.origin,
        events: ['vote.created', 'post.created', 'vote.created'],
      });
      expect(res.body.data.events).toEqual(['vote.created', 'post.created']);
    });

    it('refuses bad bodies with 422 and the field path', async () => {
      const ws = await h.seed();
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ events: ['post.created'] }, 'url'],
        [{ url: 'ftp://example.com/x', events: ['post.created'] }, 'url'],
        [{ url: 'not a url', events: ['post.created'] }, 'url'],
        [{ url: 'https://user:pw@example.com/x', events: ['post.created'] }, 'url'],
        [{ url: `https://example.com/${'a'.repeat(2048)}`, events: ['post.created'] }, 'url'],
        [{ url: receiver.origin }, 'events'],
        [{ url: receiver.origin, events: [] }, 'events'],
        [{ url: receiver.origin, events: ['post.removed'] }, 'events.0'],
        [{ url: receiver.origin, events: 'post.created' }, 'events'],
        [{ url: receiver.origin, events: ['post.created'], description: 'x'.repeat(501) }, 'description'],
        [{ url: receiver.origin, events: ['post.created'], secret: 'mine' }, 'secret'],
      ];
      for (const [body, path] of cases) {
        const res = await register(h, ws, body);
        expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
        expect(res.body.error.code).toBe('ERR_VALIDATION');
        expect(res.body.error.details.issues.map((i: { path: string }) => i.path)).toContain(path);
      }
    });

    it('needs read:write (403), a paid plan (402 with limit 0) and allows 25 webhooks (402 with limit and current)', async () => {
      const ws = await h.seed();
      const read = await h.request('POST', '/v1/webhooks', {
        key: ws.readKey,
        body: { url: receiver.origin, events: ['post.created'] },
      });
      expect(read.status).toBe(403);
      expect(read.body.error.code).toBe('ERR_SCOPE_INSUFFICIENT');

      const free = await h.seed({ plan: 'free' });
      const refused = await register(h, free, { url: receiver.origin, events: ['post.created'] });
      expect(refused.status).toBe(402);
      expect(refused.body.error).toMatchObject({
        code: 'ERR_PLAN_LIMIT',
        details: { resource: 'webhook', limit: 0, current: 0 },
      });

      for (let i = 0; i < 25; i++)
        expect((await register(h, ws, { url: `${receiver.origin}/${i}`, events: ['post.created'] })).status).toBe(201);
      const over = await register(h, ws, { url: receiver.origin, events: ['post.created'] });
      expect(over.status).toBe(402);
      expect(over.body.error).toMatchObject({
        code: 'ERR_PLAN_LIMIT',
        details: { resource: 'webhook', limit: 25, current: 25 },
      });
      const pages: string[] = [];
      let cursor: string | null = null as string | null;
      do {
        const page = await h.request('GET', `/v1/webhooks?limit=10${cursor ? `&cursor=${cursor}` : ''}`, {
          key: ws.key,
        });
        pages.push(...page.body.data.map((w: { url: string }) => w.url));
        cursor = page.body.nextCursor;
      } while (cursor);
      expect(pages).toEqual(Array.from({ length: 25 }, (_, i) => `${receiver.origin}/${i}`));
    });

    it('PATCH changes url, events and description; another workspace gets 404 everywhere', async () => {
      const ws = await h.seed();
      const other = await h.seed();
      const { id } = (await register(h, ws, { url: receiver.origin, events: ['post.created'] })).body.data;
      const patched = await h.request('PATCH', `/v1/webhooks/${id}`, {
        key: ws.key,
        body: { url: `${receiver.origin}/v2`, events: ['vote.created'], description: 'moved' },
      });
      expect(patched.status).toBe(200);
      expect(patched.body.data).toMatchObject({
        url: `${receiver.origin}/v2`,
        events: ['vote.created'],
        description: 'moved',
        enabled: true,
      });
      expect((await h.request('PATCH', `/v1/webhooks/${id}`, { key: ws.key, body: { events: [] } })).status).toBe(422);
      expect((await h.request('PATCH', `/v1/webhooks/${id}`, { key: ws.key, body: { enabled: 'yes' } })).status).toBe(
        422,
      );
      for (const [method, path] of [
        ['GET', `/v1/webhooks/${id}`],
        ['PATCH', `/v1/webhooks/${id}`],
        ['DELETE', `/v1/webhooks/${id}`],
        ['GET', `/v1/webhooks/${id}/deliveries`],
      ] as const) {
        const res = await h.request(method, path, {
          key: other.key,
          body: method === 'PATCH' ? { description: 'x' } : undefined,
        });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body.error.code).toBe('ERR_NOT_FOUND');
      }
      expect((await h.request('GET', '/v1/webhooks', { key: other.key })).body.data).toEqual([]);
    });

    it('DELETE removes the webhook and its deliveries', async () => {
      const ws = await h.seed();
      const { id } = (await register(h, ws, { url: receiver.origin, events: ['contact.created'] })).body.data;
      await h.request('POST', '/v1/contacts', { key: ws.key, body: { externalUserId: 'del-1' } });
      expect((await h.request('GET', `/v1/webhooks/${id}/deliveries`, { key: ws.key })).body.data).toHaveLength(1);
      const res = await h.request('DELETE', `/v1/webhooks/${id}`, { key: ws.key });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: { id, deleted: true } });
      expect((await h.request('GET', `/v1/webhooks/${id}`, { key: ws.key })).status).toBe(404);
      expect((await h.request('DELETE', `/v1/webhooks/${id}`, { key: ws.key })).status).toBe(404);
      expect(await h.engine.db.all('SELECT id FROM delivery WHERE webhook_id = ?', [id])).toEqual([]);
    });

    it('GET deliveries lists newest first in cursor pages, each with its status, payload and attempts', async () => {
      const ws = await h.seed();
      const { id } = (await register(h, ws, { url: receiver.origin, events: ['contact.created'] })).body.data;
      for (let i = 0; i < 5; i++)
        await h.request('POST', '/v1/contacts', { key: ws.key, body: { externalUserId: `list-${i}` } });
      await h.engine.scheduler.runDue();
      const seen: any[] = [];
      let cursor: string | null = null as string | null;
      do {
        const page = await h.request(
          'GET',
          `/v1/webhooks/${id}/deliveries?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
          { key: ws.readKey },
        );
        expect(page.status).toBe(200);
        seen.push(...page.body.data);
        cursor = page.body.nextCursor;
      } while (cursor);
      expect(seen.map((d) => d.payload.contact.externalUserId)).toEqual([
        'list-4',
        'list-3',
        'list-2',
        'list-1',
        'list-0',
      ]);
      for (const d of seen) {
        expect(Object.keys(d).sort()).toEqual(DELIVERY_FIELDS);
        expect(d).toMatchObject({
          webhookId: id,
          event: 'contact.created',
          status: 'succeeded',
          failedAt: null,
          nextAttemptAt: null,
          replayOf: null,
        });
        expect(d.id).toMatch(/^dlv_[0-9a-z]{26}$/);
        expect(d.attempts).toEqual([
          {
            number: 1,
            attemptedAt: expect.any(String),
            statusCode: 200,
            error: null,
            durationMs: expect.any(Number),
            responseBody: 'ok',
          },
        ]);
      }
      const bad = await h.request('GET', `/v1/webhooks/${id}/deliveries?cursor=nope`, { key: ws.key });
      expect(bad.status).toBe(422);
    });

    it('replay makes a new delivery of the same payload; refused with 409 while disabled or unsubscribed', async () => {
      const ws = await h.seed();
      const { id } = (await register(h, ws, { url: receiver.origin, events: ['contact.created', 'contact.deleted'] }))
        .body.data;
      await h.request('POST', '/v1/contacts', { key: ws.key, body: { externalUserId: 'replay-1' } });
      await h.engine.scheduler.runDue();
      const [original] = (await h.request('GET', `/v1/webhooks/${id}/deliveries`, { key: ws.key })).body.data;

      const replay = await h.request('POST', `/v1/webhooks/${id}/deliveries/${original.id}/replay`, { key: ws.key });
      expect(replay.status).toBe(201);
      expect(replay.body.data).toMatchObject({
        webhookId: id,
        eventId: original.eventId,
        status: 'pending',
        replayOf: original.id,
        attempts: [],
      });
      expect(replay.body.data.id).not.toBe(original.id);
      expect(replay.body.data.payload).toEqual(original.payload);
      const before = receiver.requests.length;
      await h.engine.scheduler.runDue();
      const sent = receiver.requests.slice(before);
      expect(sent.map((r) => r.headers['x-service-delivery'])).toEqual([replay.body.data.id]);
      const originalBody = receiver.requests.find((r) => r.headers['x-service-delivery'] === original.id)!.body;
      expect(sent[0]!.body).toBe(originalBody);

      expect((await h.request('POST', `/v1/webhooks/${id}/deliveries/dlv_nope/replay`, { key: ws.key })).status).toBe(
        404,
      );
      expect(
        (await h.request('POST', `/v1/webhooks/${id}/deliveries/${original.id}/replay`, { key: ws.readKey })).status,
      ).toBe(403);

      await h.request('PATCH', `/v1/webhooks/${id}`, { key: ws.key, body: { events: ['contact.deleted'] } });
      const unsubscribed = await h.request('POST', `/v1/webhooks/${id}/deliveries/${original.id}/replay`, {
        key: ws.key,
      });
      expect(unsubscribed.status).toBe(409);
      expect(unsubscribed.body.error).toMatchObject({
        code: 'ERR_CONFLICT',
        message: 'The webhook no longer subscribes to contact.created.',
        details: { reason: 'event_not_subscribed', event: 'contact.created' },
      });

      await h.request('PATCH', `/v1/webhooks/${id}`, {
        key: ws.key,
        body: { events: ['contact.created'], enabled: false },
      });
      const disabled = await h.request('POST', `/v1/webhooks/${id}/deliveries/${original.id}/replay`, { key: ws.key });
      expect(disabled.status).toBe(409);
      expect(disabled.body.error).toMatchObject({ code: 'ERR_CONFLICT', details: { reason: 'webhook_disabled' } });
      expect(disabled.body.error.message).toMatch(/disabled/);

      const enabled = await h.request('PATCH', `/v1/webhooks/${id}`, { key: ws.key, body: { enabled: true } });
      expect(enabled.body.data).toMatchObject({ enabled: true, disabledAt: null });
      expect(
        (await h.request('POST', `/v1/webhooks/${id}/deliveries/${original.id}/replay`, { key: ws.key })).status,
      ).toBe(201);
    });
  },
  { engine: { webhooks: { allowPrivateNetworks: true } } },
);

describeMatrix(
  'webhooks SSRF guard at registration',
  (h) => {
    const REFUSED = [
      'http://127.0.0.1/hook',
      'http://localhost/hook',
      'http://[::1]/hook',
      'http://10.0.0.1/hook',
      'http://172.16.0.1/hook',
      'http://192.168.1.1/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://100.64.0.1/hook',
      'http://0.0.0.0/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://[fd00::1]/hook',
      'http://2130706433/hook',
      'http://0x7f.1/hook',
      'https://[fe80::1]/hook',
      'http://224.0.0.1/hook',
      'http://[64:ff9b::a00:1]/hook',
      'http://vm/hook', // a name that resolves to loopback (/etc/hosts)
      'http://name.invalid/hook', // does not resolve
    ];
    it.each(REFUSED)('refuses %s with 422 on url', async (url) => {
      const ws = await h.seed();
      const res = await register(h, ws, { url, events: ['post.created'] });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('ERR_VALIDATION');
      expect(res.body.error.details.issues[0]).toMatchObject({ path: 'url', code: 'url_not_public' });
    });

    it('refuses a PATCH to a private url and accepts a public address', async () => {
      const ws = await h.seed();
      const created = await register(h, ws, { url: 'https://93.184.215.14/hook', events: ['post.created'] });
      expect(created.status).toBe(201);
      const res = await h.request('PATCH', `/v1/webhooks/${created.body.data.id}`, {
        key: ws.key,
        body: { url: 'http://10.1.2.3/x' },
      });
      expect(res.status).toBe(422);
      expect(res.body.error.details.issues[0]).toMatchObject({ path: 'url', code: 'url_not_public' });
    });
  },
  { transports: ['fetch'] },
);
