import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine/index.js';
import { createApp } from '../../src/h3/index.js';
import { command } from '../helpers/cli.js';
import { createTestDatabase, PG_ADMIN_URL, postgresReachable, type TestDatabase } from '../helpers/databases.js';
import { describeMatrix } from '../helpers/harness.js';

const POSTGRES = await postgresReachable();

describeMatrix('health', (h) => {
  it('GET /healthz answers 200 without a key; GET /readyz reports each check', async () => {
    const live = await h.request('GET', '/healthz', { key: null });
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: 'ok' });
    expect(live.headers.get('x-request-id')).toMatch(/^req_/);
    const ready = await h.request('GET', '/readyz', { key: null });
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: 'ready',
      checks: { database: { ok: true }, migrations: { ok: true }, scheduler: { ok: true } },
    });
    expect((await h.request('POST', '/readyz', { key: null })).status).toBe(405);
  });

  it('/readyz is 503 when the server must run the scheduler and it does not', async () => {
    const app = createApp({ engine: h.engine, requireScheduler: true, logError: () => {} });
    const res = await app.fetch(new Request('http://x/readyz'));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(await res.json()).toMatchObject({
      status: 'not_ready',
      checks: { scheduler: { ok: false, reason: 'the delivery scheduler is not running' } },
    });
  });
});

describe.skipIf(!POSTGRES)('a lost database [postgresql]', () => {
  let db: TestDatabase;
  let engine: Engine;
  beforeAll(async () => {
    db = await createTestDatabase('postgresql');
    engine = await createEngine({ database: db.url, log: () => {} });
  });
  afterAll(async () => {
    await engine.close();
    await db.drop();
  });

  it('/readyz is 503 while migrations are pending, 200 once applied', async () => {
    const app = createApp({ engine, logError: () => {} });
    const before = await app.fetch(new Request('http://x/readyz'));
    expect(before.status).toBe(503);
    expect((await before.json()).checks.migrations).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/pending: run feedback-service migrate/),
    });
    await engine.migrate();
    expect((await app.fetch(new Request('http://x/readyz'))).status).toBe(200);
  });

  it('terminated backends answer 503 with Retry-After, never 500, and the server recovers by itself', async () => {
    const lines: string[] = [];
    const app = createApp({ engine, logError: (m) => lines.push(m) });
    const org = await engine.organizations.create({ name: 'outage', plan: 'paid' });
    const { key } = await engine.keys.create(org.id, 'read:write');
    const identify = (i: number) =>
      app.fetch(
        new Request('http://x/v1/contacts/identify', {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ externalUserId: `u${i}` }),
        }),
      );
    expect((await identify(0)).status).toBe(201);
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    const name = new URL(db.url).pathname.slice(1);
    const statuses: number[] = [];
    try {
      for (let round = 0; round < 3; round++) {
        await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [name],
        );
        for (let i = 0; i < 20; i++) {
          const res = await identify(round * 100 + i + 1);
          statuses.push(res.status);
          if (res.status === 503) {
            expect(res.headers.get('retry-after')).toBe('2');
            expect((await res.json()).error.code).toBe('ERR_UNAVAILABLE');
          }
        }
      }
    } finally {
      await admin.end();
    }
    expect(statuses.every((s) => s === 201 || s === 503)).toBe(true);
    expect(statuses.slice(-5)).toEqual([201, 201, 201, 201, 201]);
    const ready = await app.fetch(new Request('http://x/readyz'));
    expect(ready.status).toBe(200);
    // Every 503 was logged as one line naming it.
    expect(lines.length).toBe(statuses.filter((s) => s === 503).length);
    for (const line of lines) expect(line).toMatch(/database unavailable/);
  });

  it('serve exits non-zero with a clear message when the database is unreachable at start', async () => {
    // The command in this process (`run` gives the exit code): the start stops before anything listens.
    const result = await command('serve', '--db', 'postgres://postgres@127.0.0.1:1/none', '--port', '0', '--json');
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({
      error: { code: 'ERR_UNAVAILABLE', message: expect.stringMatching(/cannot reach the database \(ECONNREFUSED\)/) },
    });
  });
});
