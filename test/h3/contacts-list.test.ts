import { expect, it } from 'vitest';
import { type ApiResponse, describeMatrix, type Harness } from '../helpers/harness.js';

async function walk(h: Harness, key: string, query: string, limit: number, between?: (page: number) => Promise<void>) {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const qs: string = `${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res: ApiResponse = await h.request('GET', `/v1/contacts?${qs}`, { key });
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeLessThanOrEqual(limit);
    ids.push(...res.body.data.map((c: { id: string }) => c.id));
    cursor = res.body.nextCursor;
    pages++;
    if (between) await between(pages);
  } while (cursor !== null && pages < 1000);
  return ids;
}

describeMatrix('listing contacts', (h) => {
  it('default is newest first with limit 25, and each item has postCount', async () => {
    const ws = await h.seed();
    const created: string[] = [];
    for (let i = 0; i < 30; i++) {
      h.advance(1);
      created.push((await h.request('POST', '/v1/contacts', { key: ws.key, body: { name: `c${i}` } })).body.data.id);
    }
    const res = await h.request('GET', '/v1/contacts', { key: ws.key });
    expect(res.body.data).toHaveLength(25);
    expect(res.body.data.map((c: { id: string }) => c.id)).toEqual(created.slice().reverse().slice(0, 25));
    expect(res.body.data[0].postCount).toBe(0);
    expect(typeof res.body.nextCursor).toBe('string');
    const rest = await h.request('GET', `/v1/contacts?cursor=${encodeURIComponent(res.body.nextCursor)}`, {
      key: ws.key,
    });
    expect(rest.body.data).toHaveLength(5);
    expect(rest.body.nextCursor).toBeNull();
  });

  it('a walk under every sort returns every contact exactly once, ties included', async () => {
    const ws = await h.seed();
    // Same created time for many rows (ties break on id), repeated mrr values, and null mrr.
    for (let i = 0; i < 23; i++) {
      const body = i % 3 === 0 ? {} : { mrrCents: (i % 4) * 100, currency: 'USD' };
      await h.request('POST', '/v1/contacts', { key: ws.key, body });
    }
    const all = (await h.request('GET', '/v1/contacts?limit=100', { key: ws.key })).body.data
      .map((c: { id: string }) => c.id)
      .sort();
    for (const sort of ['created', 'last_seen', 'mrr']) {
      for (const limit of [1, 4, 7]) {
        const ids = await walk(h, ws.key, `sort=${sort}`, limit);
        expect(new Set(ids).size, `${sort}/${limit}`).toBe(ids.length);
        expect(ids.slice().sort(), `${sort}/${limit}`).toEqual(all);
      }
    }
  });

  it('sort=mrr is highest first with null mrr last', async () => {
    const ws = await h.seed();
    const values = [500, null, 100, 900, null, 100];
    for (const v of values)
      await h.request('POST', '/v1/contacts', {
        key: ws.key,
        body: v === null ? {} : { mrrCents: v, currency: 'USD' },
      });
    const ids = await walk(h, ws.key, 'sort=mrr', 2);
    const list = (await h.request('GET', '/v1/contacts?sort=mrr&limit=100', { key: ws.key })).body.data;
    expect(list.map((c: { mrrCents: number | null }) => c.mrrCents)).toEqual([900, 500, 100, 100, null, null]);
    expect(ids).toEqual(list.map((c: { id: string }) => c.id));
  });

  it('sort=last_seen is most recent activity first', async () => {
    const ws = await h.seed();
    for (const id of ['a', 'b', 'c']) {
      h.advance(10);
      await h.request('POST', '/v1/contacts/identify', { key: ws.key, body: { externalUserId: id } });
    }
    h.advance(10);
    await h.request('POST', '/v1/contacts/identify', { key: ws.key, body: { externalUserId: 'a' } });
    const list = (await h.request('GET', '/v1/contacts?sort=last_seen', { key: ws.key })).body.data;
    expect(list.map((c: { externalUserId: string }) => c.externalUserId)).toEqual(['a', 'c', 'b']);
  });

  it('cursors never repeat or skip a row while rows are inserted during the walk', async () => {
    const ws = await h.seed();
    for (let i = 0; i < 20; i++) {
      await h.request('POST', '/v1/contacts', {
        key: ws.key,
        body: i % 2 ? { mrrCents: i * 10, currency: 'USD' } : {},
      });
    }
    const before = (await h.request('GET', '/v1/contacts?limit=100', { key: ws.key })).body.data
      .map((c: { id: string }) => c.id)
      .sort();
    for (const sort of ['created', 'last_seen', 'mrr']) {
      let n = 0;
      const ids = await walk(h, ws.key, `sort=${sort}`, 3, async () => {
        // New rows land at the head of created/last_seen and anywhere in mrr (including in walked ranges).
        await h.request('POST', '/v1/contacts', {
          key: ws.key,
          body: n++ % 2 ? { mrrCents: 55, currency: 'USD' } : {},
        });
      });
      expect(new Set(ids).size, sort).toBe(ids.length);
      for (const id of before) expect(ids, sort).toContain(id);
    }
  });

  it('q is a case-insensitive substring search over email and name; % and _ are literal', async () => {
    const ws = await h.seed();
    const mk = (body: Record<string, unknown>) => h.request('POST', '/v1/contacts', { key: ws.key, body });
    await mk({ email: 'Jane.Doe@Acme.com', name: 'Jane' });
    await mk({ email: 'bob@example.com', name: 'Bob ACME-fan' });
    await mk({ email: 'x_y@example.com', name: '100% real' });
    await mk({ email: 'xay@example.com', name: '100 percent' });
    await mk({});
    const q = async (term: string) =>
      (await h.request('GET', `/v1/contacts?q=${encodeURIComponent(term)}`, { key: ws.key })).body.data
        .map((c: { email: string }) => c.email)
        .sort();
    expect(await q('acme')).toEqual(['Jane.Doe@Acme.com', 'bob@example.com']);
    expect(await q('JANE')).toEqual(['Jane.Doe@Acme.com']);
    expect(await q('x_y')).toEqual(['x_y@example.com']);
    expect(await q('100%')).toEqual(['x_y@example.com']);
    expect(await q('%')).toEqual(['x_y@example.com']);
    expect(await q('nobody')).toEqual([]);
  });

  it('plan filters exactly and case-sensitively, repeated or comma-separated', async () => {
    const ws = await h.seed();
    for (const plan of ['pro', 'Pro', 'free', 'team', null])
      await h.request('POST', '/v1/contacts', { key: ws.key, body: { plan } });
    const plans = async (qs: string) =>
      (await h.request('GET', `/v1/contacts?${qs}`, { key: ws.key })).body.data
        .map((c: { plan: string }) => c.plan)
        .sort();
    expect(await plans('plan=pro')).toEqual(['pro']);
    expect(await plans('plan=pro,free')).toEqual(['free', 'pro']);
    expect(await plans('plan=pro&plan=team')).toEqual(['pro', 'team']);
    expect(await plans('plan=Pro&plan=free,team')).toEqual(['Pro', 'free', 'team']);
    expect(await plans('plan=enterprise')).toEqual([]);
    expect(await plans('plan=pro&q=zzz')).toEqual([]);
  });

  it('a search and a filter paginate with cursors like the full list', async () => {
    const ws = await h.seed();
    for (let i = 0; i < 12; i++)
      await h.request('POST', '/v1/contacts', {
        key: ws.key,
        body: { name: `match ${i}`, plan: i % 2 ? 'pro' : 'free' },
      });
    await h.request('POST', '/v1/contacts', { key: ws.key, body: { name: 'other', plan: 'pro' } });
    const ids = await walk(h, ws.key, 'q=match&plan=pro&sort=created', 2);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
  });
});
