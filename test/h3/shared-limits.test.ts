import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import { CLI_ARGS } from '../helpers/cli.js';
import { createTestDatabase, postgresReachable, type TestDatabase } from '../helpers/databases.js';

const POSTGRES = await postgresReachable();
const LIMIT = 30;

/** A `serve` process on the database; resolves with what it printed first. */
async function serve(url: string): Promise<{ child: ChildProcessWithoutNullStreams; info: any }> {
  const child = spawn(process.execPath, [
    ...CLI_ARGS,
    'serve',
    '--port',
    '0',
    '--json',
    '--db',
    url,
    '--log-level',
    'warn',
  ]);
  const info = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!));
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
  });
  return { child, info };
}

describe.skipIf(!POSTGRES)('rate limits shared by three instances [postgresql]', () => {
  let db: TestDatabase;
  const servers: { child: ChildProcessWithoutNullStreams; info: any }[] = [];
  beforeAll(async () => {
    db = await createTestDatabase('postgresql');
    servers.push(await serve(db.url)); // the first start makes the workspace and its key
    servers.push(await serve(db.url), await serve(db.url));
  }, 60_000);
  afterAll(async () => {
    for (const s of servers) {
      s.child.kill('SIGTERM');
      await new Promise((r) => (s.child.exitCode !== null ? r(null) : s.child.once('exit', r)));
    }
    await db.drop();
  });

  it(`a key's ${LIMIT} requests a minute are one budget across the instances, and whoami agrees on each`, async () => {
    const { apiKey, organizationId } = servers[0]!.info.bootstrap;
    expect(servers[1]!.info.bootstrap).toBeUndefined();
    const engine = await createEngine({ database: db.url, log: () => {} });
    await engine.organizations.update(organizationId, { rateLimit: LIMIT });
    await engine.close();
    // Stay inside one clock minute, and past the instances' one-second key cache.
    const now = Date.now();
    const wait = Math.max(1100, now % 60_000 > 50_000 ? 60_000 - (now % 60_000) + 200 : 0);
    await new Promise((r) => setTimeout(r, wait));

    const statuses: number[] = [];
    for (let i = 0; i < 2 * LIMIT; i++) {
      const res = await fetch(`${servers[i % 3]!.info.url}/v1/contacts?limit=1`, {
        headers: { authorization: `Bearer ${apiKey}` },
      });
      statuses.push(res.status);
      if (res.status === 429) expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(LIMIT);
    expect(statuses.slice(0, LIMIT).every((s) => s === 200)).toBe(true);

    // Every instance reports the same budget for the key (each whoami is one more refused request).
    const views = await Promise.all(
      servers.map(async (s) => {
        const res = await fetch(`${s.info.url}/v1/whoami`, { headers: { authorization: `Bearer ${apiKey}` } });
        return {
          status: res.status,
          limit: res.headers.get('ratelimit-limit'),
          remaining: res.headers.get('ratelimit-remaining'),
        };
      }),
    );
    expect(views).toEqual(servers.map(() => ({ status: 429, limit: String(LIMIT), remaining: '0' })));
  }, 120_000);
});
