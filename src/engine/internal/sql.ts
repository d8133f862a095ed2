import { createHash } from 'node:crypto';
import type { Knex } from '@mikro-orm/knex';

export type Dialect = 'sqlite' | 'postgresql';

/**
 * The explicit-SQL path the hot operations take: statements on the ORM's own connections,
 * without the unit of work and without the query builder. Placeholders are `?`; rows come back
 * as plain objects.
 */
export interface Sql {
  readonly dialect: Dialect;
  all<T = Record<string, unknown>>(sql: string | Statement, params?: readonly unknown[]): Promise<T[]>;
  one<T = Record<string, unknown>>(sql: string | Statement, params?: readonly unknown[]): Promise<T | undefined>;
  /**
   * Note that this work wrote webhook deliveries (directly, or through the event fan-out trigger): the
   * database's `onDeliveriesCommitted` listeners run once it is committed (at COMMIT in a transaction,
   * at once outside one, where each statement commits by itself).
   */
  wroteDeliveries(): void;
}

export interface Database extends Sql {
  /** Run `fn` in one transaction: everything it writes commits together or not at all. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /** Call `listener` after every commit that wrote deliveries (the local scheduler's wake-up). */
  onDeliveriesCommitted(listener: () => void): () => void;
}

/**
 * A statement run often with the same text: PostgreSQL parses and plans it once per connection (a named
 * prepared statement) instead of on every execution. SQLite runs the text as usual.
 */
export interface Statement {
  readonly text: string;
  readonly name: string;
}
export function statement(text: string): Statement {
  return { text, name: `fs_${createHash('sha1').update(text).digest('hex').slice(0, 16)}` };
}

/** A driver connection as the knex pool hands it out. */
type Connection = unknown;
type Run = (conn: Connection, sql: string | Statement, params: readonly unknown[]) => Promise<unknown[]>;

/**
 * SQLite: node-sqlite3's `all` runs any statement (RETURNING included) and collects its rows. A
 * better-sqlite3 connection (the benchmark's driver comparison) prepares; `reader` says whether rows come back.
 */
type BetterSqliteConnection = { prepare(sql: string): { reader: boolean; all(...p: unknown[]): unknown[]; run(...p: unknown[]): unknown } };
const runSqlite: Run = (conn, statementOrText, params) => {
  const sql = typeof statementOrText === 'string' ? statementOrText : statementOrText.text;
  // node-sqlite3's Database has prepare() too; only it has a callback-style all().
  if (typeof (conn as { all?: unknown }).all !== 'function') {
    const statement = (conn as BetterSqliteConnection).prepare(sql);
    // node-sqlite3 binds booleans as 1 and 0; better-sqlite3 refuses them.
    const bound = params.map((p) => (typeof p === 'boolean' ? Number(p) : p));
    if (statement.reader) return Promise.resolve(statement.all(...bound));
    statement.run(...bound);
    return Promise.resolve([]);
  }
  return new Promise((resolve, reject) => {
    (conn as { all(sql: string, p: readonly unknown[], cb: (e: Error | null, rows: unknown[]) => void): void }).all(
      sql,
      params,
      (err, rows) => (err ? reject(err) : resolve(rows)),
    );
  });
};

/** `?` placeholders become `$1..$n` once per statement text. */
const pgText = new Map<string, string>();
function toPgPlaceholders(sql: string): string {
  let text = pgText.get(sql);
  if (text === undefined) {
    let n = 0;
    text = sql.replace(/\?/g, () => `$${++n}`);
    if (pgText.size < 1000) pgText.set(sql, text);
  }
  return text;
}

type PgConnection = {
  query(text: string, values: readonly unknown[]): Promise<{ rows: unknown[] }>;
  query(config: { name: string; text: string; values: readonly unknown[] }): Promise<{ rows: unknown[] }>;
};
const runPg: Run = async (conn, sql, params) => {
  const pgConn = conn as PgConnection;
  const result =
    typeof sql === 'string'
      ? await pgConn.query(toPgPlaceholders(sql), params)
      : await pgConn.query({ name: sql.name, text: toPgPlaceholders(sql.text), values: params });
  return result.rows;
};

function bind(dialect: Dialect, run: Run, conn: Connection, onWroteDeliveries: () => void): Sql {
  const all = <T>(sql: string | Statement, params: readonly unknown[] = []) => run(conn, sql, params) as Promise<T[]>;
  return {
    dialect,
    all,
    one: async <T>(sql: string | Statement, params?: readonly unknown[]) => (await all<T>(sql, params))[0],
    wroteDeliveries: onWroteDeliveries,
  };
}

/**
 * Statements go straight to the driver connection, taken from the ORM's knex pool for the duration of
 * one statement or one transaction, so the pool stays the single arbiter shared with ordinary ORM work
 * (on SQLite it has one connection: every transaction is serialized). Measured here: 45 us per SQLite
 * statement this way against 179 us through knex.raw (docs/benchmarks.md).
 */
export function createDatabase(dialect: Dialect, knex: Knex): Database {
  const client = (knex as unknown as { client: { acquireConnection(): Promise<Connection>; releaseConnection(c: Connection): Promise<unknown> } })
    .client;
  const run = dialect === 'postgresql' ? runPg : runSqlite;
  // SQLite: take the write lock up front. A deferred transaction that reads and then writes fails at once
  // with SQLITE_BUSY when another process writes meanwhile (busy_timeout does not apply to the upgrade).
  const begin = dialect === 'sqlite' ? 'BEGIN IMMEDIATE' : 'BEGIN';

  async function withConnection<T>(fn: (conn: Connection) => Promise<T>): Promise<T> {
    const conn = await client.acquireConnection();
    try {
      return await fn(conn);
    } finally {
      await client.releaseConnection(conn);
    }
  }

  const listeners = new Set<() => void>();
  const deliveriesCommitted = () => {
    for (const listener of listeners) listener();
  };

  return {
    dialect,
    wroteDeliveries: deliveriesCommitted,
    onDeliveriesCommitted(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    all: <T>(sql: string | Statement, params: readonly unknown[] = []) => withConnection((conn) => run(conn, sql, params) as Promise<T[]>),
    one: async <T>(sql: string | Statement, params: readonly unknown[] = []) =>
      (await withConnection((conn) => run(conn, sql, params) as Promise<T[]>))[0],
    transaction: <T>(fn: (tx: Sql) => Promise<T>) =>
      withConnection(async (conn) => {
        await run(conn, begin, []);
        let result: T;
        let wrote = false;
        try {
          result = await fn(bind(dialect, run, conn, () => (wrote = true)));
        } catch (err) {
          await run(conn, 'ROLLBACK', []).catch(() => {});
          throw err;
        }
        await run(conn, 'COMMIT', []);
        if (wrote) deliveriesCommitted();
        return result;
      }),
  };
}

/** A unique-constraint violation, as either driver reports it. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT' || /UNIQUE constraint failed/.test(e?.message ?? '');
}

/** `FOR UPDATE` where the database has row locks; SQLite serializes writers anyway. */
export function forUpdate(sql: Sql): string {
  return sql.dialect === 'postgresql' ? ' FOR UPDATE' : '';
}

/** Values as the drivers return them, normalized. */
export function toDate(v: unknown): Date {
  if (v instanceof Date) return v;
  if (typeof v === 'number') return new Date(v);
  if (typeof v === 'string') return /^\d+(\.\d+)?$/.test(v) ? new Date(Number(v)) : new Date(v);
  throw new TypeError(`not a timestamp: ${String(v)}`);
}
export function toIso(v: unknown): string {
  return toDate(v).toISOString();
}
export function toIsoOrNull(v: unknown): string | null {
  return v === null || v === undefined ? null : toIso(v);
}
export function toJson<T>(v: unknown): T {
  return (typeof v === 'string' ? JSON.parse(v) : v) as T;
}
export function toBool(v: unknown): boolean {
  return v === true || v === 1 || v === '1' || v === 't';
}
export function toInt(v: unknown): number {
  return typeof v === 'number' ? v : Number(v);
}
export function toIntOrNull(v: unknown): number | null {
  return v === null || v === undefined ? null : toInt(v);
}
/** A value bound for a timestamp column: a Date for PostgreSQL, epoch milliseconds for SQLite. */
export function ts(sql: Sql, d: Date): Date | number {
  return sql.dialect === 'postgresql' ? d : d.getTime();
}
/** JSON bound for a json/jsonb column. */
export function json(v: unknown): string {
  return JSON.stringify(v);
}
