import type { H3 } from 'h3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsole } from '../../src/console/index.js';
import { createEngine, type Engine, isDatabaseUnavailable } from '../../src/engine/index.js';
import { PostgresqlMigration } from '../../src/engine/migrations/postgresql/migration.js';
import { createApp } from '../../src/h3/index.js';
import { mcpEndpoint } from '../../src/mcp/index.js';
import { createPortal } from '../../src/portal/index.js';
import { createTestDatabase, postgresReachable, type TestDatabase } from '../helpers/databases.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { until, within } from '../helpers/wait.js';

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
    const answers = await Promise.all(
      Array.from({ length: 14 }, (_, i) =>
        within(`request ${i} during the partition`, BOUND_MS, Promise.resolve(identify(i + 1))),
      ),
    );
    for (const res of answers) {
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      expect((await res.json()).error.code).toBe('ERR_UNAVAILABLE');
    }
    proxy.release();
    // The pool drops the connections that got no answer and opens new ones.
    await until(
      'identify succeeds again',
      async () => (await identify(100)).status === 200 || (await identify(100)).status === 201,
      15_000,
    );
    const after = await Promise.all(Array.from({ length: 20 }, (_, i) => identify(200 + i)));
    expect(after.map((r) => r.status)).toEqual(Array(20).fill(201));
  });

  it('PostgreSQL refusing connections: the portal answers 503 with Retry-After and a page that says so, REST the envelope; both recover', async () => {
    // Past the key cache, so that REST's key lookup needs the database too.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await proxy.refuse();
    try {
      const page = await within(
        'the portal during the outage',
        BOUND_MS,
        Promise.resolve(app.fetch(new Request(`http://x/portal/${handle}/`))),
      );
      expect(page.status).toBe(503);
      expect(page.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
      const html = await page.text();
      expect(html).toContain('<h1>');
      expect(html).toMatch(/try again/i);
      const rest = await within('REST during the outage', BOUND_MS, Promise.resolve(identify(300)));
      expect(rest.status).toBe(503);
      expect((await rest.json()).error.code).toBe('ERR_UNAVAILABLE');
    } finally {
      await proxy.accept();
    }
    await until(
      'the portal answers again',
      async () => (await app.fetch(new Request(`http://x/portal/${handle}/`))).status === 200,
      15_000,
    );
  });
});

describe.skipIf(!POSTGRES)('PostgreSQL that accepts connections and never answers [postgresql]', () => {
  it('REST, the agent tools, the portal and the console answer 503 (the connect timeout is the database away, not a failure of ours), and recover', async () => {
    const db = await createTestDatabase('postgresql');
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(db.url).port || 5432) });
    const engine = await createEngine({ database: proxy.urlFor(db.url), timeouts: TIMEOUTS, log: () => {} });
    const reported: string[] = [];
    try {
      await engine.migrate();
      const org = await engine.organizations.create({ name: 'Silent', plan: 'paid' });
      const handle = `silent-${Date.now().toString(36)}`;
      await engine.organizations.update(org.id, { handle, portalEnabled: true });
      const key = (await engine.keys.create(org.id, 'read:write')).key;
      const app = createApp({
        engine,
        logError: (message) => reported.push(message),
        sites: [createPortal({ engine }), createConsole({ engine })],
        endpoints: [mcpEndpoint(engine)],
      });
      // Past the key cache, so that REST's key lookup needs the database too.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      // Every open connection dropped; new ones are accepted, and nothing ever comes back.
      await proxy.refuse();
      proxy.hold();
      await proxy.accept();
      const rest = await within(
        'REST',
        BOUND_MS,
        Promise.resolve(
          app.fetch(new Request('http://x/v1/contacts?limit=1', { headers: { authorization: `Bearer ${key}` } })),
        ),
      );
      expect(rest.status).toBe(503);
      expect((await rest.json()).error.code).toBe('ERR_UNAVAILABLE');
      const portal = await within(
        'the portal',
        BOUND_MS,
        Promise.resolve(app.fetch(new Request(`http://x/portal/${handle}/`))),
      );
      expect(portal.status).toBe(503);
      expect(portal.headers.get('retry-after')).toMatch(/^\d+$/);
      const console_ = await within(
        'the console',
        BOUND_MS,
        Promise.resolve(
          app.fetch(
            new Request('http://x/console/', {
              headers: { cookie: 'fs_console=some-session-token-of-43-characters-xxxxxxxxxx' },
            }),
          ),
        ),
      );
      expect(console_.status).toBe(503);
      expect(await console_.text()).toContain('The database is unreachable');
      const mcp = await within(
        'the agent tools',
        BOUND_MS,
        Promise.resolve(
          app.fetch(
            new Request('http://x/mcp', {
              method: 'POST',
              headers: {
                authorization: `Bearer ${key}`,
                'content-type': 'application/json',
                accept: 'application/json, text/event-stream',
              },
              body: JSON.stringify({
                jsonrpc: '2.0',
                id: 1,
                method: 'tools/call',
                params: { name: 'list_contacts', arguments: { limit: 1 } },
              }),
            }),
          ),
        ),
      );
      expect(mcp.status).toBe(503);
      expect(reported.length).toBeGreaterThan(0);
      expect(reported.filter((m) => !/database unavailable/.test(m))).toEqual([]);
      proxy.release();
      await until(
        'the console answers again',
        async () => (await app.fetch(new Request('http://x/console/sign-in'))).status === 200,
        15_000,
      );
    } finally {
      proxy.release();
      await engine.close();
      await proxy.close();
      await db.drop();
    }
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
    expect(probe.getQueries()).toEqual([
      'set local statement_timeout = 0',
      'create index "big_idx" on "post" ("title")',
    ]);
  });
});
