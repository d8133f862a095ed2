import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, isDatabaseUnavailable, type Engine } from '../../src/engine/index.js';
import { PostgresqlMigration } from '../../src/engine/migrations/postgresql/migration.js';
import { createApp } from '../../src/h3/index.js';
import { createPortal } from '../../src/portal/index.js';
import { createTestDatabase, postgresReachable, type TestDatabase } from '../helpers/databases.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { until, within } from '../helpers/wait.js';
import type { H3 } from 'h3';

const POSTGRES = await postgresReachable();
const TIMEOUTS = { connectMs: 1_000, statementMs: 1_500, idleInTransactionMs: 1_500 };
/** The longest a request may wait with these timeouts: a pooled connection (connect), then a statement and its margin. */
const BOUND_MS = TIMEOUTS.connectMs + TIMEOUTS.statementMs + 1_000 + 3_000;

describe.skipIf(!POSTGRES)('PostgreSQL behind a network that fails [postgresql]', () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let engine: Engine;
  let app: H3;
  let key: string;
  let handle: string;

  beforeAll(async () => {
    db = await createTestDatabase('postgresql');
    proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(db.url).port || 5432) });
    engine = await createEngine({ database: proxy.urlFor(db.url), timeouts: TIMEOUTS, log: () => {} });
    await engine.migrate();
    const org = await engine.organizations.create({ name: 'Faults', plan: 'paid' });
    handle = `faults-${Date.now().toString(36)}`;
    await engine.organizations.update(org.id, { handle, portalEnabled: true });
    await engine.workspace(org.id).boards.create({ name: 'Ideas' });
    key = (await engine.keys.create(org.id, 'read:write')).key;
    app = createApp({ engine, logError: () => {}, sites: [createPortal({ engine })] });
  });
  afterAll(async () => {
    proxy?.release();
    await engine?.close();
    await proxy?.close();
    await db?.drop();
  });

  const identify = (n: number) =>
    app.fetch(
      new Request('http://x/v1/contacts/identify', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ externalUserId: `u${n}`, plan: 'pro' }),
      }),
    );

  it('a silent partition: every request, in flight or new, gets 503 ERR_UNAVAILABLE with Retry-After within the timeouts; the pool recovers with the network', async () => {
    expect((await identify(0)).status).toBe(201);
    proxy.hold();
    // More requests than the pool has connections: some wait for a connection, the rest for their statement.
    const answers = await Promise.all(Array.from({ length: 14 }, (_, i) => within(`request ${i} during the partition`, BOUND_MS, Promise.resolve(identify(i + 1)))));
    for (const res of answers) {
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      expect((await res.json()).error.code).toBe('ERR_UNAVAILABLE');
    }
    proxy.release();
    // The pool drops the connections that got no answer and opens new ones.
    await until('identify succeeds again', async () => (await identify(100)).status === 200 || (await identify(100)).status === 201, 15_000);
    const after = await Promise.all(Array.from({ length: 20 }, (_, i) => identify(200 + i)));
    expect(after.map((r) => r.status)).toEqual(Array(20).fill(201));
  });

  it('PostgreSQL refusing connections: the portal answers 503 with Retry-After and a page that says so, REST the envelope; both recover', async () => {
    // Past the key cache, so that REST's key lookup needs the database too.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await proxy.refuse();
    try {
      const page = await within("the portal during the outage", BOUND_MS, Promise.resolve(app.fetch(new Request(`http://x/portal/${handle}/`))));
      expect(page.status).toBe(503);
      expect(page.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
      const html = await page.text();
      expect(html).toContain('<h1>');
      expect(html).toMatch(/try again/i);
      const rest = await within("REST during the outage", BOUND_MS, Promise.resolve(identify(300)));
      expect(rest.status).toBe(503);
      expect((await rest.json()).error.code).toBe('ERR_UNAVAILABLE');
    } finally {
      await proxy.accept();
    }
    await until('the portal answers again', async () => (await app.fetch(new Request(`http://x/portal/${handle}/`))).status === 200, 15_000);
  });
});

describe.skipIf(!POSTGRES)('the statement timeout [postgresql]', () => {
  it('a statement running past it is cancelled and counts as the database being unavailable (503), not a failure (500)', async () => {
    const db = await createTestDatabase('postgresql');
    const engine = await createEngine({ database: db.url, timeouts: { statementMs: 200 }, log: () => {} });
    try {
      const err = await engine.db.one('SELECT pg_sleep(1)').catch((e: unknown) => e);
      expect((err as { code?: string }).code).toBe('57014');
      expect(isDatabaseUnavailable(err)).toBe(true);
      // The pool goes on serving.
      expect(await engine.db.one('SELECT 1 AS ok')).toEqual({ ok: 1 });
    } finally {
      await engine.close();
      await db.drop();
    }
  });

  it('migrations run without it: each migration begins by lifting it for its own transaction', () => {
    class Probe extends PostgresqlMigration {
      override up() {
        this.addSql('create index "big_idx" on "post" ("title")');
      }
    }
    const probe = new Probe({} as never, {} as never);
    probe.up();
    expect(probe.getQueries()).toEqual(['set local statement_timeout = 0', 'create index "big_idx" on "post" ("title")']);
  });
});

