import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine/index.js';
import { createApp } from '../../src/h3/index.js';
import { createTestDatabase, postgresReachable, type TestDatabase } from '../helpers/databases.js';

const POSTGRES = await postgresReachable();
const LIMIT = 30;

// Three instances on one PostgreSQL database, as three servers would be: each its own engine (its own pool, key cache
// and rate limiter) and app, in this process; the budget they share is the database's. One clock for the three, set
// inside a fresh minute, so the test waits for nothing.
describe.skipIf(!POSTGRES)('rate limits shared by three instances [postgresql]', () => {
  let db: TestDatabase;
  let now = 0;
  const engines: Engine[] = [];
  beforeAll(async () => {
    db = await createTestDatabase('postgresql');
    now = Math.ceil(Date.now() / 60_000) * 60_000 + 1_000;
    for (let i = 0; i < 3; i++)
      engines.push(await createEngine({ database: db.url, log: () => {}, clock: () => new Date(now) }));
    await engines[0]!.migrate();
  });
  afterAll(async () => {
    for (const engine of engines) await engine.close();
    await db.drop();
  });

  it(`a key's ${LIMIT} requests a minute are one budget across the instances, and whoami agrees on each`, async () => {
    const org = await engines[0]!.organizations.create({ name: 'Shared', plan: 'paid' });
    const { key: apiKey } = await engines[0]!.keys.create(org.id, 'read:write');
    await engines[0]!.organizations.update(org.id, { rateLimit: LIMIT });
    const apps = engines.map((engine) => createApp({ engine }));
    const request = (i: number, path: string) =>
      apps[i % 3]!.fetch(new Request(`http://x${path}`, { headers: { authorization: `Bearer ${apiKey}` } }));

    const statuses: number[] = [];
    for (let i = 0; i < 2 * LIMIT; i++) {
      const res = await request(i, '/v1/contacts?limit=1');
      statuses.push(res.status);
      if (res.status === 429) expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(LIMIT);
    expect(statuses.slice(0, LIMIT).every((s) => s === 200)).toBe(true);

    // Every instance reports the same budget for the key (each whoami is one more refused request).
    const views = await Promise.all(
      engines.map(async (_engine, i) => {
        const res = await request(i, '/v1/whoami');
        return {
          status: res.status,
          limit: res.headers.get('ratelimit-limit'),
          remaining: res.headers.get('ratelimit-remaining'),
        };
      }),
    );
    expect(views).toEqual(engines.map(() => ({ status: 429, limit: String(LIMIT), remaining: '0' })));
  }, 120_000);
});
