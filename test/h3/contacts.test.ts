import { expect, it } from 'vitest';
import { describeMatrix, eventPayloads as events } from '../helpers/harness.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describeMatrix('contacts', (h) => {
  it('POST /v1/contacts answers 201 with every field, source admin and consentBasis admin_created', async () => {
    const ws = await h.seed();
    const body = {
      externalUserId: 'u-1',
      email: 'Ann@Example.com',
      name: 'Ann',
      plan: 'pro',
      mrrCents: 4900,
      currency: 'EUR',
      metadata: { seats: 3, a: null },
    };
    const res = await h.request('POST', '/v1/contacts', { key: ws.key, body });
    expect(res.status).toBe(201);
    const c = res.body.data;
    expect(Object.keys(c).sort()).toEqual(
      [
        'id',
        'organizationId',
        'externalUserId',
        'email',
        'name',
        'plan',
        'mrrCents',
        'currency',
        'metadata',
        'locale',
        'source',
        'consentBasis',
        'firstSeenAt',
        'lastSeenAt',
        'createdAt',
        'updatedAt',
      ].sort(),
    );
    expect(c).toMatchObject({ ...body, organizationId: ws.org.id, source: 'admin', consentBasis: 'admin_created' });
    expect(c.id).toMatch(/^ctc_[0-9a-z]{26}$/);
    for (const f of ['firstSeenAt', 'lastSeenAt', 'createdAt', 'updatedAt']) expect(c[f]).toMatch(ISO);
  });

  it('POST /v1/contacts with a taken externalUserId is 409 ERR_CONFLICT "external_user_id already taken" and writes nothing', async () => {
    const ws = await h.seed();
    await h.request('POST', '/v1/contacts', { key: ws.key, body: { externalUserId: 'dup' } });
    const before = await events(h, ws.org.id);
    const res = await h.request('POST', '/v1/contacts', {
      key: ws.key,
      body: { externalUserId: 'dup', name: 'Other' },
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: { code: 'ERR_CONFLICT', message: 'external_user_id already taken' } });
    expect(await events(h, ws.org.id)).toEqual(before);
    expect((await h.request('GET', '/v1/contacts', { key: ws.key })).body.data).toHaveLength(1);
  });

  it('POST /v1/contacts without externalUserId always inserts', async () => {
    const ws = await h.seed();
    const a = await h.request('POST', '/v1/contacts', { key: ws.key, body: { email: 'same@x.co' } });
    const b = await h.request('POST', '/v1/contacts', { key: ws.key, body: { email: 'same@x.co' } });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.data.id).not.toBe(b.body.data.id);
    expect(a.body.data.externalUserId).toBeNull();
  });

  it('contact.created is written with the exact payload, in the same transaction as the insert', async () => {
    const ws = await h.seed();
    const res = await h.request('POST', '/v1/contacts', {
      key: ws.key,
      body: {
        externalUserId: 'e1',
        email: 'e@x.co',
        plan: 'pro',
        mrrCents: 100,
        currency: 'USD',
        metadata: { k: 'v' },
      },
    });
    const c = res.body.data;
    expect(await events(h, ws.org.id)).toEqual([
      {
        event: 'contact.created',
        organizationId: ws.org.id,
        contact: {
          id: c.id,
          externalUserId: 'e1',
          name: null,
          plan: 'pro',
          mrrCents: 100,
          currency: 'USD',
          source: 'admin',
          consentBasis: 'admin_created',
          metadata: { k: 'v' },
          locale: null,
          firstSeenAt: c.firstSeenAt,
          lastSeenAt: c.lastSeenAt,
          createdAt: c.createdAt,
          updatedAt: c.updatedAt,
        },
      },
    ]);
  });

  it('identify creates with 201 (source identify, sdk_identify), then answers 200 for the same externalUserId', async () => {
    const ws = await h.seed();
    const first = await h.request('POST', '/v1/contacts/identify', {
      key: ws.key,
      body: { externalUserId: 'u1', email: 'u1@x.co' },
    });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ externalUserId: 'u1', source: 'identify', consentBasis: 'sdk_identify' });
    const again = await h.request('POST', '/v1/contacts/identify', {
      key: ws.key,
      body: { externalUserId: 'u1', email: 'u1@x.co' },
    });
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect((await h.request('GET', '/v1/contacts', { key: ws.key })).body.data).toHaveLength(1);
  });

  it('identify that only advances lastSeenAt emits nothing and leaves updatedAt', async () => {
    const ws = await h.seed();
    const first = await h.request('POST', '/v1/contacts/identify', {
      key: ws.key,
      body: { externalUserId: 'u1', name: 'A', metadata: { x: 1, y: { z: [1, 2] } } },
    });
    h.advance(5_000);
    // Same traits; metadata keys in another order: still no change.
    const again = await h.request('POST', '/v1/contacts/identify', {
      key: ws.key,
      body: { externalUserId: 'u1', name: 'A', metadata: { y: { z: [1, 2] }, x: 1 } },
    });
    h.advance(-5_000);
    expect(again.status).toBe(200);
    expect(Date.parse(again.body.data.lastSeenAt) - Date.parse(first.body.data.lastSeenAt)).toBeGreaterThanOrEqual(
      5_000,
    );
    expect(again.body.data.updatedAt).toBe(first.body.data.updatedAt);
    expect((await events(h, ws.org.id)).map((e) => e.event)).toEqual(['contact.created']);
    const read = await h.request('GET', `/v1/contacts/${first.body.data.id}`, { key: ws.key });
    expect(read.body.data.lastSeenAt).toBe(again.body.data.lastSeenAt);
  });

  it('identify that changes a trait emits contact.updated with changes (traits only, metadata as whole objects)', async () => {
    const ws = await h.seed();
    await h.request('POST', '/v1/contacts/identify', {
      key: ws.key,
      body: { externalUserId: 'u1', plan: 'free', metadata: { a: 1, b: 2 } },
    });
    const res = await h.request('POST', '/v1/contacts/identify', {
      key: ws.key,
      body: { externalUserId: 'u1', plan: 'pro', mrrCents: 900, currency: 'USD', metadata: { b: null, c: 3 } },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ plan: 'pro', mrrCents: 900, currency: 'USD', metadata: { a: 1, c: 3 } });
    const evts = await events(h, ws.org.id);
    expect(evts).toHaveLength(2);
    const updated = evts[1];
    expect(updated.event).toBe('contact.updated');
    expect(updated.changes).toEqual({
      plan: { from: 'free', to: 'pro' },
      mrrCents: { from: null, to: 900 },
      currency: { from: null, to: 'USD' },
      metadata: { from: { a: 1, b: 2 }, to: { a: 1, c: 3 } },
    });
    expect(updated.contact).toMatchObject({
      id: res.body.data.id,
      plan: 'pro',
      updatedAt: res.body.data.updatedAt,
      lastSeenAt: res.body.data.lastSeenAt,
    });
    expect(updated.contact).not.toHaveProperty('email');
  });

  it('omitted fields stay, null clears a field, and both null clears mrr and currency', async () => {
    const ws = await h.seed();
    await h.request('POST', '/v1/contacts/identify', {
      key: ws.key,
      body: { externalUserId: 'u1', name: 'N', email: 'n@x.co', mrrCents: 5, currency: 'USD' },
    });
    const kept = await h.request('POST', '/v1/contacts/identify', { key: ws.key, body: { externalUserId: 'u1' } });
    expect(kept.body.data).toMatchObject({ name: 'N', email: 'n@x.co', mrrCents: 5, currency: 'USD' });
    const cleared = await h.request('POST', '/v1/contacts/identify', {
      key: ws.key,
      body: { externalUserId: 'u1', name: null, mrrCents: null, currency: null },
    });
    expect(cleared.body.data).toMatchObject({ name: null, email: 'n@x.co', mrrCents: null, currency: null });
  });

  it('the 100-key metadata cap applies to the merged result', async () => {
    const ws = await h.seed();
    const fifty = (p: string) => Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`${p}${i}`, i]));
    await h.request('POST', '/v1/contacts/identify', {
      key: ws.key,
      body: { externalUserId: 'u1', metadata: fifty('a') },
    });
    expect(
      (
        await h.request('POST', '/v1/contacts/identify', {
          key: ws.key,
          body: { externalUserId: 'u1', metadata: fifty('b') },
        })
      ).status,
    ).toBe(200);
    const over = await h.request(
      'PATCH',
      `/v1/contacts/${(await h.request('POST', '/v1/contacts/identify', { key: ws.key, body: { externalUserId: 'u1' } })).body.data.id}`,
      { key: ws.key, body: { metadata: { extra: 1 } } },
    );
    expect(over.status).toBe(422);
    expect(over.body.error.details.issues[0].path).toBe('metadata');
    // Removing one key while adding one stays within the cap.
    const swap = await h.request('POST', '/v1/contacts/identify', {
      key: ws.key,
      body: { externalUserId: 'u1', metadata: { a0: null, extra: 1 } },
    });
    expect(swap.status).toBe(200);
    expect(Object.keys(swap.body.data.metadata)).toHaveLength(100);
  });

  it('GET /v1/contacts/{id} adds postCount, voteCount and commentCount; unknown id is 404', async () => {
    const ws = await h.seed();
    const c = (await h.request('POST', '/v1/contacts', { key: ws.key, body: { email: 'Voter@Example.COM' } })).body
      .data;
    const res = await h.request('GET', `/v1/contacts/${c.id}`, { key: ws.readKey });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ ...c, postCount: 0, voteCount: 0, commentCount: 0 });
    const missing = await h.request('GET', '/v1/contacts/ctc_doesnotexist', { key: ws.key });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('ERR_NOT_FOUND');
  });

  it('PATCH updates only what is sent, does not move lastSeenAt, and emits contact.updated', async () => {
    const ws = await h.seed();
    const c = (
      await h.request('POST', '/v1/contacts', {
        key: ws.key,
        body: { externalUserId: 'p1', name: 'Old', plan: 'free' },
      })
    ).body.data;
    h.advance(2_000);
    const res = await h.request('PATCH', `/v1/contacts/${c.id}`, {
      key: ws.key,
      body: { name: 'New', metadata: { k: 1 } },
    });
    h.advance(-2_000);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'New', plan: 'free', metadata: { k: 1 }, lastSeenAt: c.lastSeenAt });
    expect(res.body.data.updatedAt).not.toBe(c.updatedAt);
    const evts = await events(h, ws.org.id);
    expect(evts.at(-1)).toMatchObject({
      event: 'contact.updated',
      changes: { name: { from: 'Old', to: 'New' }, metadata: { from: {}, to: { k: 1 } } },
    });
    // A PATCH that changes nothing emits nothing.
    await h.request('PATCH', `/v1/contacts/${c.id}`, { key: ws.key, body: { name: 'New' } });
    expect(await events(h, ws.org.id)).toHaveLength(evts.length);
  });

  it('PATCH externalUserId to a taken one is 409 with the exact message; null detaches it', async () => {
    const ws = await h.seed();
    await h.request('POST', '/v1/contacts', { key: ws.key, body: { externalUserId: 'taken' } });
    const c = (await h.request('POST', '/v1/contacts', { key: ws.key, body: { externalUserId: 'mine' } })).body.data;
    const res = await h.request('PATCH', `/v1/contacts/${c.id}`, { key: ws.key, body: { externalUserId: 'taken' } });
    expect(res.status).toBe(409);
    expect(res.body.error).toEqual({ code: 'ERR_CONFLICT', message: 'external_user_id already taken' });
    const cleared = await h.request('PATCH', `/v1/contacts/${c.id}`, { key: ws.key, body: { externalUserId: null } });
    expect(cleared.body.data.externalUserId).toBeNull();
    // 'mine' is free again.
    expect((await h.request('POST', '/v1/contacts', { key: ws.key, body: { externalUserId: 'mine' } })).status).toBe(
      201,
    );
  });

  it('source and consentBasis cannot be changed', async () => {
    const ws = await h.seed();
    const c = (await h.request('POST', '/v1/contacts', { key: ws.key, body: {} })).body.data;
    for (const body of [{ source: 'identify' }, { consentBasis: 'sdk_identify' }]) {
      const res = await h.request('PATCH', `/v1/contacts/${c.id}`, { key: ws.key, body });
      expect(res.status).toBe(422);
    }
    expect((await h.request('GET', `/v1/contacts/${c.id}`, { key: ws.key })).body.data).toMatchObject({
      source: 'admin',
      consentBasis: 'admin_created',
    });
  });

  it('DELETE answers { id, deleted: true }, emits contact.deleted, keeps attached posts with contactId null', async () => {
    const ws = await h.seed();
    const c = (await h.request('POST', '/v1/contacts', { key: ws.key, body: { externalUserId: 'gone' } })).body.data;
    const board = await h.engine.workspace(ws.org.id).boards.create({ name: 'Ideas' });
    const now = h.engine.dialect === 'postgresql' ? new Date() : Date.now();
    await h.engine.db.all(
      `INSERT INTO post (id, organization_id, board_id, contact_id, title, slug, body, body_text, status, moderation_status, hide_from_roadmap, comment_count, vote_count, created_at, updated_at)
       VALUES ('post_a', ?, ?, ?, 'T', 't', '', '', 'open', 'approved', ?, 0, 0, ?, ?)`,
      [ws.org.id, board.id, c.id, h.engine.dialect === 'postgresql' ? false : 0, now, now],
    );
    expect((await h.request('GET', `/v1/contacts/${c.id}`, { key: ws.key })).body.data.postCount).toBe(1);
    const res = await h.request('DELETE', `/v1/contacts/${c.id}`, { key: ws.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { id: c.id, deleted: true } });
    expect((await events(h, ws.org.id)).at(-1)).toEqual({
      event: 'contact.deleted',
      organizationId: ws.org.id,
      contact: { id: c.id, externalUserId: 'gone' },
    });
    const post = await h.engine.db.one<{ id: string; contact_id: string | null }>(
      "SELECT id, contact_id FROM post WHERE id = 'post_a'",
    );
    expect(post).toEqual({ id: 'post_a', contact_id: null });
    expect((await h.request('GET', `/v1/contacts/${c.id}`, { key: ws.key })).status).toBe(404);
    expect((await h.request('DELETE', `/v1/contacts/${c.id}`, { key: ws.key })).status).toBe(404);
  });

  it('the contact cap of the plan refuses new contacts with 402 ERR_PLAN_LIMIT; existing contacts still identify', async () => {
    const ws = await h.seed({ plan: 'free', contactCap: 2 });
    await h.request('POST', '/v1/contacts/identify', { key: ws.key, body: { externalUserId: 'a' } });
    await h.request('POST', '/v1/contacts', { key: ws.key, body: {} });
    const over = await h.request('POST', '/v1/contacts/identify', { key: ws.key, body: { externalUserId: 'c' } });
    expect(over.status).toBe(402);
    expect(over.body.error.code).toBe('ERR_PLAN_LIMIT');
    expect(over.body.error.details).toEqual({ limit: 2, current: 2, resource: 'contact' });
    expect((await h.request('POST', '/v1/contacts', { key: ws.key, body: {} })).status).toBe(402);
    expect(
      (
        await h.request('POST', '/v1/contacts/identify', {
          key: ws.key,
          body: { externalUserId: 'a', name: 'still here' },
        })
      ).status,
    ).toBe(200);
    expect((await events(h, ws.org.id)).filter((e) => e.event === 'contact.created')).toHaveLength(2);
  });

  it('the free plan caps at 1,000 contacts by default and paid is unlimited', async () => {
    const free = await h.engine.organizations.create({ name: 'f', plan: 'free' });
    const paid = await h.engine.organizations.create({ name: 'p', plan: 'paid' });
    expect(free.contactCap).toBe(1000);
    expect(paid.contactCap).toBeNull();
  });

  it('concurrent identifies of one new externalUserId create exactly one contact and one contact.created', async () => {
    const ws = await h.seed();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        h.request('POST', '/v1/contacts/identify', {
          key: ws.key,
          body: { externalUserId: 'race', name: `n${i % 2}` },
        }),
      ),
    );
    expect(results.every((r) => r.status === 200 || r.status === 201)).toBe(true);
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    expect((await events(h, ws.org.id)).filter((e) => e.event === 'contact.created')).toHaveLength(1);
  });

  it('concurrent trait changes of one contact lose no update: every change has its event and the events chain', async () => {
    const ws = await h.seed();
    const c = (
      await h.request('POST', '/v1/contacts/identify', { key: ws.key, body: { externalUserId: 'hot', name: 'n0' } })
    ).body.data;
    const writes = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) =>
        h.request('POST', '/v1/contacts/identify', { key: ws.key, body: { externalUserId: 'hot', name: `n${i + 1}` } }),
      ),
      ...Array.from({ length: 6 }, (_, i) =>
        h.request('PATCH', `/v1/contacts/${c.id}`, { key: ws.key, body: { metadata: { [`k${i}`]: i } } }),
      ),
    ]);
    expect(writes.map((w) => w.status).every((s) => s === 200)).toBe(true);
    const updates = (await events(h, ws.org.id)).filter((e) => e.event === 'contact.updated');
    // Six name changes and six metadata additions, none lost: the final state has every metadata key.
    expect(updates).toHaveLength(12);
    const final = (await h.request('GET', `/v1/contacts/${c.id}`, { key: ws.key })).body.data;
    expect(Object.keys(final.metadata).sort()).toEqual(['k0', 'k1', 'k2', 'k3', 'k4', 'k5']);
    // Each event's `from` is the previous event's `to`: no change was computed from a stale read.
    let name = 'n0';
    let metadata: Record<string, unknown> = {};
    for (const e of updates) {
      if (e.changes.name) {
        expect(e.changes.name.from).toBe(name);
        name = e.changes.name.to;
      }
      if (e.changes.metadata) {
        expect(e.changes.metadata.from).toEqual(metadata);
        metadata = e.changes.metadata.to;
      }
    }
    expect(final.name).toBe(name);
    expect(final.metadata).toEqual(metadata);
  });
});
