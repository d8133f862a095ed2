import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  AbortError,
  AuthenticationError,
  ConflictError,
  ConnectionError,
  createClient,
  FeedbackApiError,
  type FeedbackClient,
  InternalServerError,
  NotFoundError,
  type Page,
  PermissionError,
  PlanLimitError,
  RateLimitError,
  TimeoutError,
  ValidationError,
} from '../../src/client/index.js';
import { describeMatrix, type Harness, intoFreshMinute } from '../helpers/harness.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';

async function caught(promise: Promise<unknown>): Promise<FeedbackApiError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof FeedbackApiError) return err;
    throw err;
  }
  throw new Error('expected the call to fail');
}

describeMatrix(
  'client against a listening server',
  (h: Harness) => {
    let receiver: Receiver;
    beforeAll(async () => {
      receiver = await startReceiver();
    });
    afterAll(() => receiver.close());
    const clientFor = (apiKey: string, extra: { maxRetries?: number } = {}): FeedbackClient =>
      createClient({ apiKey, baseUrl: h.baseUrl, ...extra });

    it('round-trips every operation, with the same shapes the REST routes return', async () => {
      const ws = await h.seed();
      const client = clientFor(ws.key);
      const created = await client.contacts.create({ externalUserId: 'cl-1', email: 'ann@example.com', name: 'Ann' });
      expect(created).toMatchObject({ externalUserId: 'cl-1', email: 'ann@example.com', name: 'Ann' });
      const identified = await client.contacts.identify({ externalUserId: 'cl-1', plan: 'pro' });
      expect(identified).toMatchObject({ id: created.id, plan: 'pro' });
      const retrieved = await client.contacts.retrieve(created.id);
      expect(retrieved).toEqual((await h.request('GET', `/v1/contacts/${created.id}`, { key: ws.key })).body.data);
      const updated = await client.contacts.update(created.id, { name: 'Ann B' });
      expect(updated.name).toBe('Ann B');
      const listed = await client.contacts.list({ limit: 10 });
      expect(listed.data.map((c) => c.id)).toEqual([created.id]);
      expect(listed).toMatchObject({ nextCursor: null, hasMore: false });

      const board = await h.engine.workspace(ws.org.id).boards.create({ name: 'Ideas' });
      expect((await client.boards.list()).data.map((b) => b.id)).toEqual([board.id]);
      const post = await client.posts.create(board.id, { title: 'Dark mode', contactId: created.id });
      expect((await client.posts.update(post.id, { status: 'planned' })).status).toBe('planned');
      expect((await client.contacts.listPosts(created.id)).data.map((p) => p.id)).toEqual([post.id]);

      const webhook = await client.webhooks.create({ url: `${receiver.origin}/cl`, events: ['contact.deleted'] });
      expect(webhook.secret).toMatch(/^whsec_/);
      expect((await client.webhooks.list()).data.map((w) => w.id)).toEqual([webhook.id]);
      expect(await client.webhooks.retrieve(webhook.id)).not.toHaveProperty('secret');
      expect((await client.webhooks.update(webhook.id, { description: 'x' })).description).toBe('x');
      expect(await client.contacts.delete(created.id)).toEqual({ id: created.id, deleted: true });
      await h.engine.scheduler.runDue();
      const [delivery] = (await client.webhooks.listDeliveries(webhook.id)).data;
      expect(delivery).toMatchObject({ event: 'contact.deleted', status: 'succeeded' });
      expect((await client.webhooks.replayDelivery(webhook.id, delivery!.id)).replayOf).toBe(delivery!.id);
      expect(await client.webhooks.delete(webhook.id)).toEqual({ id: webhook.id, deleted: true });
      expect(await client.whoami()).toMatchObject({ keyId: ws.keyId, organizationId: ws.org.id, scope: 'read:write' });
    });

    it('maps each real error to its class, with status, code, message, details and request id', async () => {
      const ws = await h.seed({ contactCap: 1, rateLimit: 1000 });
      const client = clientFor(ws.key, { maxRetries: 0 });
      const auth = await caught(clientFor('fsk_nope').whoami());
      expect(auth).toBeInstanceOf(AuthenticationError);
      expect(auth).toMatchObject({ status: 401, code: 'ERR_UNAUTHORIZED' });
      expect(auth.requestId).toMatch(/^req_/);
      const scope = await caught(clientFor(ws.readKey).contacts.create({ externalUserId: 'x' }));
      expect(scope).toBeInstanceOf(PermissionError);
      expect(scope).toMatchObject({
        status: 403,
        code: 'ERR_SCOPE_INSUFFICIENT',
        details: { required: 'read:write', granted: 'read' },
      });
      const missing = await caught(client.contacts.retrieve('ctc_missing'));
      expect(missing).toBeInstanceOf(NotFoundError);
      const invalid = await caught(client.contacts.create({ externalUserId: 'v', mrrCents: 5 }));
      expect(invalid).toBeInstanceOf(ValidationError);
      expect((invalid as ValidationError).issues.map((i) => i.path)).toContain('currency');
      await client.contacts.create({ externalUserId: 'first' });
      const cap = await caught(client.contacts.create({ externalUserId: 'second' }));
      expect(cap).toBeInstanceOf(PlanLimitError);
      expect(cap as PlanLimitError).toMatchObject({
        status: 402,
        code: 'ERR_PLAN_LIMIT',
        limit: 1,
        current: 1,
        remaining: 0,
        resource: 'contact',
      });
      const readOnly = await h.seed();
      await h.engine.organizations.update(readOnly.org.id, { billingState: 'read_only' });
      const billing = await caught(clientFor(readOnly.key).contacts.create({ externalUserId: 'y' }));
      expect(billing).toBeInstanceOf(PermissionError);
      expect(billing.code).toBe('ERR_FORBIDDEN');
      intoFreshMinute(h);
      const limited = await h.seed({ rateLimit: 1 });
      await clientFor(limited.key).whoami();
      const rate = await caught(clientFor(limited.key, { maxRetries: 0 }).whoami());
      expect(rate).toBeInstanceOf(RateLimitError);
      expect((rate as RateLimitError).retryAfter).toBeGreaterThan(0);
      const dup = await h.seed();
      await clientFor(dup.key).contacts.create({ externalUserId: 'dup' });
      const conflict = await caught(clientFor(dup.key).contacts.create({ externalUserId: 'dup' }));
      expect(conflict).toBeInstanceOf(ConflictError);
      expect(conflict.message).toBe('external_user_id already taken');
    });

    it('pages: await one, or iterate every item across pages (250 contacts)', async () => {
      const ws = await h.seed();
      const w = h.engine.workspace(ws.org.id);
      for (let i = 0; i < 250; i++) await w.contacts.create({ externalUserId: `page-${i}` });
      const client = clientFor(ws.key);
      const first = await client.contacts.list({ limit: 100 });
      expect(first.data).toHaveLength(100);
      expect(first.hasMore).toBe(true);
      expect(first.nextCursor).toEqual(expect.any(String));
      const ids: string[] = [];
      const requested: string[] = [];
      const counting = createClient({
        apiKey: ws.key,
        baseUrl: h.baseUrl,
        fetch: (input, init) => {
          requested.push(String(input instanceof Request ? input.url : input));
          return fetch(input, init);
        },
      });
      for await (const contact of counting.contacts.list({ limit: 100 })) ids.push(contact.id);
      expect(ids).toHaveLength(250);
      expect(new Set(ids).size).toBe(250);
      expect(requested).toHaveLength(3); // one request per page, the first one included
    });

    it('a list call is a real Promise: catch, finally, Promise.all and instanceof work', async () => {
      const ws = await h.seed();
      const client = clientFor(ws.key);
      const listed = client.contacts.list({ limit: 5 });
      expect(listed).toBeInstanceOf(Promise);
      const pages: Array<Promise<Page<unknown>>> = [listed, client.boards.list()];
      const [contacts, boards] = await Promise.all(pages);
      expect(contacts!.data).toEqual([]);
      expect(boards!.hasMore).toBe(false);
      const refused = await client.contacts.list({ limit: 1000 } as never).catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(ValidationError);
      let settled = false;
      await client.webhooks.list().finally(() => (settled = true));
      expect(settled).toBe(true);
    });

    it('aborts with the caller signal', async () => {
      const ws = await h.seed();
      const controller = new AbortController();
      controller.abort();
      expect(await caught(clientFor(ws.key).whoami({ signal: controller.signal }))).toBeInstanceOf(AbortError);
    });
  },
  { transports: ['socket'], engine: { webhooks: { allowPrivateNetworks: true } } },
);

/** A real server that answers each request with the next scripted behaviour, recording what it received. */
async function scripted(steps: Array<(req: IncomingMessage, res: ServerResponse) => void>) {
  const seen: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    seen.push(req);
    req.resume();
    req.on('end', () => (steps[Math.min(seen.length - 1, steps.length - 1)] ?? (() => res.end()))(req, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const envelope = (res: ServerResponse, status: number, code: string, headers: Record<string, string> = {}) =>
  res
    .writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req_test', ...headers })
    .end(JSON.stringify({ error: { code, message: code } }));
const created = (res: ServerResponse) =>
  res
    .writeHead(201, { 'content-type': 'application/json' })
    .end(JSON.stringify({ data: { id: 'ctc_1', externalUserId: 'r' } }));

describe('client retries', () => {
  it('retries 429 (honouring Retry-After) and 503, with one idempotency key for every attempt of a POST', async () => {
    const server = await scripted([
      (_q, r) => envelope(r, 429, 'ERR_RATE_LIMITED', { 'retry-after': '0' }),
      (_q, r) => envelope(r, 503, 'ERR_INTERNAL'),
      (_q, r) => created(r),
    ]);
    try {
      const client = createClient({ apiKey: 'fsk_x', baseUrl: server.url, maxRetries: 2 });
      expect(await client.contacts.create({ externalUserId: 'r' })).toMatchObject({ id: 'ctc_1' });
      expect(server.seen).toHaveLength(3);
      const keys = server.seen.map((q) => q.headers['idempotency-key']);
      expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(new Set(keys).size).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('retries a dropped connection; gives up after maxRetries with the last error', async () => {
    const drop = (q: IncomingMessage) => q.socket.destroy();
    const server = await scripted([drop, (_q, r) => created(r)]);
    const failing = await scripted([(_q, r) => envelope(r, 500, 'ERR_INTERNAL')]);
    try {
      expect(
        await createClient({ apiKey: 'fsk_x', baseUrl: server.url }).contacts.create({ externalUserId: 'r' }),
      ).toMatchObject({ id: 'ctc_1' });
      expect(server.seen).toHaveLength(2);
      const error = await caught(createClient({ apiKey: 'fsk_x', baseUrl: failing.url, maxRetries: 1 }).whoami());
      expect(error).toBeInstanceOf(InternalServerError);
      expect(error).toMatchObject({ status: 500, code: 'ERR_INTERNAL', requestId: 'req_test' });
      expect(failing.seen).toHaveLength(2);
    } finally {
      await server.close();
      await failing.close();
    }
  });

  it("each error class narrows code to its statuses' codes, also for an answer that is not ours (a proxy's page)", async () => {
    const page = (status: number) => (_q: IncomingMessage, r: ServerResponse) =>
      r.writeHead(status, { 'content-type': 'text/html' }).end('<h1>proxy</h1>');
    const notFound = await scripted([page(404)]);
    const badGateway = await scripted([page(502)]);
    try {
      const missing = await caught(createClient({ apiKey: 'fsk_x', baseUrl: notFound.url }).whoami());
      expect(missing).toBeInstanceOf(NotFoundError);
      expect(missing).toMatchObject({ status: 404, code: 'ERR_NOT_FOUND' });
      const gateway = await caught(createClient({ apiKey: 'fsk_x', baseUrl: badGateway.url, maxRetries: 0 }).whoami());
      expect(gateway).toBeInstanceOf(InternalServerError);
      expect(gateway).toMatchObject({ status: 502, code: null });
    } finally {
      await notFound.close();
      await badGateway.close();
    }
    expectTypeOf<NotFoundError['code']>().toEqualTypeOf<'ERR_NOT_FOUND'>();
    expectTypeOf<PermissionError['code']>().toEqualTypeOf<'ERR_SCOPE_INSUFFICIENT' | 'ERR_FORBIDDEN'>();
    expectTypeOf<ValidationError['code']>().toEqualTypeOf<'ERR_VALIDATION'>();
    expectTypeOf<InternalServerError['code']>().toEqualTypeOf<'ERR_INTERNAL' | 'ERR_UNAVAILABLE' | null>();
    expectTypeOf<ConnectionError['code']>().toEqualTypeOf<null>();
  });

  it('never retries other 4xx; a caller key is sent as given', async () => {
    const server = await scripted([(_q, r) => envelope(r, 422, 'ERR_VALIDATION')]);
    try {
      const error = await caught(
        createClient({ apiKey: 'fsk_x', baseUrl: server.url }).contacts.create(
          { externalUserId: 'r' },
          { idempotencyKey: 'mine-1' },
        ),
      );
      expect(error).toBeInstanceOf(ValidationError);
      expect(server.seen).toHaveLength(1);
      expect(server.seen[0]!.headers['idempotency-key']).toBe('mine-1');
    } finally {
      await server.close();
    }
  });

  it('times out a silent server (and retries the time-out); reports an unreachable one as a connection error', async () => {
    const silent = await scripted([() => {}]);
    // The attempts are counted where the client makes them: on a loaded machine a 150 ms attempt can time out before
    // the server has read its request, so what the server saw is at most what was sent.
    const sent: string[] = [];
    const counting: typeof fetch = (input, init) => {
      sent.push(String(input instanceof Request ? input.url : input));
      return fetch(input, init);
    };
    try {
      const error = await caught(
        createClient({ apiKey: 'fsk_x', baseUrl: silent.url, timeout: 150, maxRetries: 1, fetch: counting }).whoami(),
      );
      expect(error).toBeInstanceOf(TimeoutError);
      expect(sent).toEqual([`${silent.url}/v1/whoami`, `${silent.url}/v1/whoami`]);
      expect(silent.seen.length).toBeLessThanOrEqual(2);
    } finally {
      await silent.close();
    }
    const unreachable = await caught(createClient({ apiKey: 'fsk_x', baseUrl: silent.url, maxRetries: 0 }).whoami());
    expect(unreachable).toBeInstanceOf(ConnectionError);
  });
});

it('takes and returns the schemas types', () => {
  type Client = FeedbackClient;
  expectTypeOf<Parameters<Client['contacts']['create']>[0]>().toMatchTypeOf<{
    externalUserId?: string | null;
    mrrCents?: number | null;
  }>();
  expectTypeOf<Awaited<ReturnType<Client['contacts']['identify']>>>().toEqualTypeOf<
    import('../../src/schemas/index.js').Contact
  >();
  expectTypeOf<Awaited<ReturnType<Client['webhooks']['create']>>>().toHaveProperty('secret');
  expectTypeOf<Awaited<ReturnType<Client['webhooks']['retrieve']>>>().not.toHaveProperty('secret');
  expectTypeOf<Parameters<Client['contacts']['create']>[0]>().not.toHaveProperty('mrr');
  expectTypeOf(typeChecks).toBeFunction();
});

// Inputs are the schemas' types: a wrong field does not compile (checked by `npm run typecheck`). Never called: the
// type checker reads it, and the test names it so it is not unused.
function typeChecks(client: FeedbackClient) {
  // @ts-expect-error: mrr is not a contact field (mrrCents is)
  void client.contacts.create({ externalUserId: 'x', mrr: 5 });
  // @ts-expect-error: events must be known event kinds
  void client.webhooks.create({ url: 'https://example.com', events: ['post.removed'] });
  // @ts-expect-error: sort is one of the documented sorts
  void client.contacts.list({ sort: 'price' });
  // @ts-expect-error: updatePost takes the post id first
  void client.posts.update({ title: 'x' });
}
