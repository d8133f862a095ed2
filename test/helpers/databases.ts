import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export const PG_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** PostgreSQL is required in CI (CI=true or REQUIRE_POSTGRES=1); locally its half is skipped, loudly, when unreachable. */
export const POSTGRES_REQUIRED = process.env.CI === 'true' || process.env.REQUIRE_POSTGRES === '1';

let reachable: Promise<boolean> | undefined;
export function postgresReachable(): Promise<boolean> {
  reachable ??= (async () => {
    const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      await client.end();
      return true;
    } catch {
      return false;
    }
  })();
  return reachable;
}

export interface TestDatabase {
  name: 'sqlite' | 'postgresql';
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty database: a SQLite file in a temp folder, or a new PostgreSQL database. */
export async function createTestDatabase(kind: 'sqlite' | 'postgresql'): Promise<TestDatabase> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'feedback-test-'));
    return {
      name: 'sqlite',
      url: join(dir, 'test.db'),
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const dbName = `fs_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${dbName}`;
  return {
    name: 'postgresql',
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await c.end();
    },
  };
}
