import { randomBytes } from 'node:crypto';
import pg from 'pg';

// PostgreSQL engines need the key that seals webhook secrets; spawned servers inherit it.
process.env.FEEDBACK_SECRET_KEY ??= randomBytes(32).toString('base64url');

/** The PostgreSQL server the benchmarks create their databases on. */
export const PG_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    for (const statement of sql.split(';')) await client.query(statement);
  } finally {
    await client.end();
  }
}

/** An empty database named `name` (dropped first if it exists); returns its URL. */
export async function freshPg(name: string): Promise<string> {
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE);CREATE DATABASE ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropPg(name: string): Promise<void> {
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
