import { expect, it } from 'vitest';
import { describeMatrix, eventPayloads, intoFreshMinute } from '../helpers/harness.js';

describeMatrix('authentication, scopes, billing state, rate limits', (h) => {
  it('a missing key is 401 ERR_UNAUTHORIZED with WWW-Authenticate: Bearer', async () => {
    const res = await h.request('GET', '/v1/contacts', { key: null });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('ERR_UNAUTHORIZED');
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('malformed, unknown and revoked keys are 401', async () => {
    const ws = await h.seed();
    for (const headers of [
      { authorization: 'Basic abc' },
      { authorization: 'Bearer' },
      { authorization: `Token ${ws.key}` },
    ]) {
      const res = await h.request('GET', '/v1/contacts', { key: null, headers });
      expect(res.status).toBe(401);
    }
    expect((await h.request('GET', '/v1/contacts', { key: 'fsk_unknown' })).status).toBe(401);
    expect((await h.request('GET', '/v1/contacts', { key: ws.key })).status).toBe(200);
    await h.engine.keys.revoke(ws.keyId);
    const revoked = await h.request('GET', '/v1/contacts', { key: ws.key });
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.code).toBe('ERR_UNAUTHORIZED');
  });

  it('a read key may GET but every write is 403 ERR_SCOPE_INSUFFICIENT with required and granted', async () => {
    const ws = await h.seed();
    expect((await h.request('GET', '/v1/contacts', { key: ws.readKey })).status).toBe(200);
    const writes: [string, string, unknown][] = [
      ['POST', '/v1/contacts', {}],
      ['POST', '/v1/contacts/identify', { externalUserId: 'u' }],
      ['PATCH', '/v1/contacts/ctc_x', {}],
      ['DELETE', '/v1/contacts/ctc_x', undefined],
    ];
    for (const [method, path, body] of writes) {
      const res = await h.request(method, path, { key: ws.readKey, body });
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({
        code: 'ERR_SCOPE_INSUFFICIENT',
        details: { required: 'read:write', granted: 'read' },
      });
    }
  });

  it('a workspace in read-only billing state refuses writes with 403 ERR_FORBIDDEN and still serves reads', async () => {
    const ws = await h.seed();
    const created = await h.request('POST', '/v1/contacts/identify', { key: ws.key, body: { externalUserId: 'u1' } });
    await h.engine.organizations.update(ws.org.id, { billingState: 'read_only' });
    const write = await h.request('POST', '/v1/contacts/identify', { key: ws.key, body: { externalUserId: 'u2' } });
    expect(write.status).toBe(403);
    expect(write.body.error.code).toBe('ERR_FORBIDDEN');
    const del = await h.request('DELETE', `/v1/contacts/${created.body.data.id}`, { key: ws.key });
    expect(del.body.error.code).toBe('ERR_FORBIDDEN');
    expect((await h.request('GET', `/v1/contacts/${created.body.data.id}`, { key: ws.key })).status).toBe(200);
    expect((await h.request('GET', '/v1/whoami', { key: ws.key })).status).toBe(200);
  });

  it('checks run in order: key, rate limit, scope, billing, validation, operation', async () => {
    intoFreshMinute(h);
    const ws = await h.seed({ rateLimit: 2 });
    const bad = { externalUserId: '' };
    // invalid key beats invalid body
    expect((await h.request('POST', '/v1/contacts/identify', { key: 'fsk_nope', body: bad })).status).toBe(401);
    // scope beats validation
    expect((await h.request('POST', '/v1/contacts/identify', { key: ws.readKey, body: bad })).body.error.code).toBe(
      'ERR_SCOPE_INSUFFICIENT',
    );
    // validation beats the operation (unknown id + bad body is 422, not 404)
    expect((await h.request('PATCH', '/v1/contacts/ctc_unknown', { key: ws.key, body: { name: '' } })).status).toBe(
      422,
    );
    // billing beats validation
    await h.engine.organizations.update(ws.org.id, { billingState: 'read_only', rateLimit: 1000 });
    expect((await h.request('POST', '/v1/contacts/identify', { key: ws.key, body: bad })).body.error.code).toBe(
      'ERR_FORBIDDEN',
    );
    // rate limit beats scope
    await h.engine.organizations.update(ws.org.id, { rateLimit: 1 });
    const limited = await h.request('POST', '/v1/contacts/identify', { key: ws.readKey, body: bad });
    expect(limited.status).toBe(429);
  });

  it('the rate limit answers 429 ERR_RATE_LIMITED with Retry-After and details, and headers count down', async () => {
    intoFreshMinute(h);
    const ws = await h.seed({ rateLimit: 3 });
    const seen: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await h.request('GET', '/v1/contacts', { key: ws.key });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('3');
      seen.push(Number(res.headers.get('ratelimit-remaining')));
      const reset = Number(res.headers.get('ratelimit-reset'));
      expect(reset).toBeGreaterThanOrEqual(0);
      expect(reset).toBeLessThanOrEqual(60);
    }
    expect(seen).toEqual([2, 1, 0]);
    const limited = await h.request('GET', '/v1/contacts', { key: ws.key });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('ERR_RATE_LIMITED');
    expect(limited.body.error.details.limit).toBe(3);
    expect(Date.parse(limited.body.error.details.resetAt)).toBeGreaterThan(Date.now() - 1000);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // The budget refills in the next window.
    h.advance(61_000);
    expect((await h.request('GET', '/v1/contacts', { key: ws.key })).status).toBe(200);
    h.advance(-61_000);
  });

  // On PostgreSQL identify's read carries the request's count (one statement for both): the same rules must hold.
  it('identify over the budget is 429 whatever its body, and writes nothing', async () => {
    intoFreshMinute(h);
    const ws = await h.seed({ rateLimit: 3 });
    const identify = (body: unknown) => h.request('POST', '/v1/contacts/identify', { key: ws.key, body });
    const first = await identify({ externalUserId: 'u-1' });
    expect([first.status, first.headers.get('ratelimit-remaining')]).toEqual([201, '2']);
    // A refused body is counted like any request.
    const invalid = await identify({ externalUserId: '' });
    expect([invalid.status, invalid.headers.get('ratelimit-remaining')]).toEqual([422, '1']);
    const update = await identify({ externalUserId: 'u-1', name: 'Ada' });
    expect([update.status, update.headers.get('ratelimit-remaining')]).toEqual([200, '0']);
    const limited = await identify({ externalUserId: 'u-2', name: 'Not written' });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toEqual({
      code: 'ERR_RATE_LIMITED',
      message: 'Rate limit of 3 requests per minute exceeded.',
      details: { limit: 3, resetAt: expect.any(String) },
    });
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await identify({ externalUserId: 'u-1', name: 'Not written' })).status).toBe(429);
    expect((await identify({ externalUserId: '' })).status).toBe(429);
    expect((await h.request('POST', '/v1/contacts/identify', { key: ws.key, rawBody: '{' })).status).toBe(429);
    const w = h.engine.workspace(ws.org.id);
    expect((await w.contacts.list()).data.map((c) => [c.externalUserId, c.name])).toEqual([['u-1', 'Ada']]);
    expect((await eventPayloads(h, ws.org.id)).map((e) => e.event)).toEqual(['contact.created', 'contact.updated']);
    h.advance(61_000);
    expect((await identify({ externalUserId: 'u-2' })).status).toBe(201);
    h.advance(-61_000);
  });

  it('concurrent identifies past the budget: exactly the budget is answered and written, each with its own place', async () => {
    intoFreshMinute(h);
    const ws = await h.seed({ rateLimit: 10 });
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        h.request('POST', '/v1/contacts/identify', {
          key: ws.key,
          body: { externalUserId: `u-${i % 20}`, name: `N${i}` },
        }),
      ),
    );
    const admitted = answers.filter((a) => a.status === 200 || a.status === 201);
    expect(admitted).toHaveLength(10);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(15);
    expect(admitted.map((a) => Number(a.headers.get('ratelimit-remaining'))).sort((a, b) => a - b)).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    ]);
    // Only what was answered was written: a contact per admitted externalUserId, named by one of its admitted requests
    // (never by a refused one), and one event per admitted request.
    const stored = (await h.engine.workspace(ws.org.id).contacts.list({ limit: 100 })).data;
    const names = new Map<string, string[]>();
    for (const a of admitted)
      names.set(a.body.data.externalUserId, [...(names.get(a.body.data.externalUserId) ?? []), a.body.data.name]);
    expect(stored.map((c) => c.externalUserId).sort()).toEqual([...names.keys()].sort());
    for (const c of stored) expect(names.get(c.externalUserId!)).toContain(c.name);
    expect(await eventPayloads(h, ws.org.id)).toHaveLength(10);
  });

  it('the budget is per key', async () => {
    intoFreshMinute(h);
    const ws = await h.seed({ rateLimit: 1 });
    expect((await h.request('GET', '/v1/contacts', { key: ws.key })).status).toBe(200);
    expect((await h.request('GET', '/v1/contacts', { key: ws.key })).status).toBe(429);
    expect((await h.request('GET', '/v1/contacts', { key: ws.readKey })).status).toBe(200);
  });

  it('GET /v1/whoami reports the key, its workspace, scope and current budget', async () => {
    intoFreshMinute(h);
    const ws = await h.seed({ rateLimit: 50 });
    await h.request('GET', '/v1/contacts', { key: ws.key });
    const res = await h.request('GET', '/v1/whoami', { key: ws.key });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      keyId: ws.keyId,
      organizationId: ws.org.id,
      scope: 'read:write',
      rateLimit: { limit: 50, remaining: 48, resetAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00\.000Z$/) },
    });
    expect(Number(res.headers.get('ratelimit-remaining'))).toBe(48);
    const read = await h.request('GET', '/v1/whoami', { key: ws.readKey });
    expect(read.body.data.scope).toBe('read');
  });

  it('every response carries X-Request-Id, errors included', async () => {
    const ws = await h.seed();
    const responses = [
      await h.request('GET', '/v1/contacts', { key: ws.key }),
      await h.request('GET', '/v1/contacts', { key: null }),
      await h.request('GET', '/v1/nothing-here', { key: ws.key }),
      await h.request('POST', '/v1/contacts', { key: ws.key, rawBody: '{' }),
    ];
    const ids = responses.map((r) => r.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-z]{26}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('an unknown route is 404 ERR_NOT_FOUND and a known path with another method is 405 with Allow', async () => {
    const ws = await h.seed();
    const unknown = await h.request('GET', '/v1/nope', { key: ws.key });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('ERR_NOT_FOUND');
    expect((await h.request('GET', '/v2/contacts', { key: ws.key })).status).toBe(404);
    const wrong = await h.request('PUT', '/v1/contacts', { key: ws.key, body: {} });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, POST');
  });

  it('a key of another workspace sees 404 for every contact route of this one', async () => {
    const a = await h.seed();
    const b = await h.seed();
    const created = await h.request('POST', '/v1/contacts', {
      key: a.key,
      body: { externalUserId: 'shared-id', email: 'a@x.co' },
    });
    const id = created.body.data.id;
    expect((await h.request('GET', `/v1/contacts/${id}`, { key: b.key })).status).toBe(404);
    expect((await h.request('PATCH', `/v1/contacts/${id}`, { key: b.key, body: { name: 'X' } })).status).toBe(404);
    expect((await h.request('DELETE', `/v1/contacts/${id}`, { key: b.key })).status).toBe(404);
    expect((await h.request('GET', '/v1/contacts', { key: b.key })).body.data).toEqual([]);
    expect((await h.request('GET', '/v1/contacts?q=a%40x', { key: b.key })).body.data).toEqual([]);
    // The same externalUserId is free in another workspace, and identify there creates a new contact.
    const other = await h.request('POST', '/v1/contacts/identify', {
      key: b.key,
      body: { externalUserId: 'shared-id' },
    });
    expect(other.status).toBe(201);
    expect(other.body.data.id).not.toBe(id);
    expect((await h.request('GET', `/v1/contacts/${id}`, { key: a.key })).body.data.name).toBeNull();
  });
});
