import { expect, it } from 'vitest';
import { describeMatrix, type Harness, type SeededWorkspace } from '../helpers/harness.js';

const create = (h: Harness, ws: SeededWorkspace, body: Record<string, unknown>, idempotencyKey?: string) =>
  h.request('POST', '/v1/contacts', {
    key: ws.key,
    body,
    headers: idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey },
  });

async function createdEvents(h: Harness, ws: SeededWorkspace): Promise<number> {
  return (await h.engine.workspace(ws.org.id).events.list({ type: 'contact.created' })).length;
}

describeMatrix('Idempotency-Key on POST', (h) => {
  it('a repeat with the same body replays the first response and runs nothing', async () => {
    const ws = await h.seed();
    const first = await create(h, ws, { externalUserId: 'idem-1', name: 'Ann' }, 'key-1');
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await create(h, ws, { externalUserId: 'idem-1', name: 'Ann' }, 'key-1');
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await createdEvents(h, ws)).toBe(1);
    // Without the key the same body runs, and is refused as a duplicate.
    expect((await create(h, ws, { externalUserId: 'idem-1', name: 'Ann' })).status).toBe(409);
  });

  it('a refusal by the operation is kept: the repeat gets the same 4xx', async () => {
    const ws = await h.seed();
    expect((await create(h, ws, { externalUserId: 'taken' })).status).toBe(201);
    const first = await create(h, ws, { externalUserId: 'taken', name: 'B' }, 'key-2');
    expect(first.status).toBe(409);
    const again = await create(h, ws, { name: 'B', externalUserId: 'taken' }, 'key-2');
    expect(again.status).toBe(409);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('a body that fails validation is refused without using the key: the corrected body runs with it', async () => {
    const ws = await h.seed();
    const first = await create(h, ws, { externalUserId: 'idem-2', mrrCents: 100 }, 'key-2b');
    expect(first.status).toBe(422);
    const again = await create(h, ws, { externalUserId: 'idem-2', mrrCents: 100 }, 'key-2b');
    expect(again.status).toBe(422);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    const fixed = await create(h, ws, { externalUserId: 'idem-2', mrrCents: 100, currency: 'EUR' }, 'key-2b');
    expect(fixed.status).toBe(201);
    expect(
      (await create(h, ws, { currency: 'EUR', mrrCents: 100, externalUserId: 'idem-2' }, 'key-2b')).headers.get(
        'idempotent-replayed',
      ),
    ).toBe('true');
    expect(await createdEvents(h, ws)).toBe(1);
  });

  it('the same key with another body, or another route, is 409 and runs nothing', async () => {
    const ws = await h.seed();
    expect((await create(h, ws, { externalUserId: 'idem-3' }, 'key-3')).status).toBe(201);
    const other = await create(h, ws, { externalUserId: 'idem-3b' }, 'key-3');
    expect(other.status).toBe(409);
    expect(other.body.error).toMatchObject({ code: 'ERR_CONFLICT', details: { reason: 'idempotency_key_reused' } });
    expect(other.body.error.message).toMatch(/different request/);
    const identify = await h.request('POST', '/v1/contacts/identify', {
      key: ws.key,
      body: { externalUserId: 'idem-3' },
      headers: { 'Idempotency-Key': 'key-3' },
    });
    expect(identify.status).toBe(409);
    expect(await createdEvents(h, ws)).toBe(1);
  });

  it('concurrent requests with one key run once; every one gets the same response', async () => {
    const ws = await h.seed();
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => create(h, ws, { externalUserId: 'idem-4' }, 'key-4')),
    );
    expect(responses.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
    expect(new Set(responses.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(5);
    expect(await createdEvents(h, ws)).toBe(1);
  });

  it('keys belong to one workspace, and expire after 24 hours', async () => {
    const ws = await h.seed();
    const other = await h.seed();
    expect((await create(h, ws, { externalUserId: 'idem-5' }, 'key-5')).status).toBe(201);
    const elsewhere = await create(h, other, { externalUserId: 'idem-5' }, 'key-5');
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.headers.get('idempotent-replayed')).toBeNull();
    h.advance(24 * 60 * 60 * 1000 + 1000);
    // Forgotten: the same request runs again (and is refused, the contact exists).
    const later = await create(h, ws, { externalUserId: 'idem-5' }, 'key-5');
    expect(later.status).toBe(409);
    expect(later.body.error.message).toBe('external_user_id already taken');
  });

  it('refuses a malformed key with 400; GET ignores the header', async () => {
    const ws = await h.seed();
    const bad = await create(h, ws, { externalUserId: 'idem-6' }, 'x'.repeat(256));
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('ERR_BAD_REQUEST');
    const list = await h.request('GET', '/v1/contacts', { key: ws.key, headers: { 'Idempotency-Key': 'key-6' } });
    expect(list.status).toBe(200);
    expect(list.headers.get('idempotent-replayed')).toBeNull();
  });
});
