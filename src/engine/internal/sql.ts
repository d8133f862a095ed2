import { createHash } from 'node:crypto';
import type { Knex } from '@mikro-orm/knex';
import { createSqliteDatabase } from './sqlite.js';

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
  /** A write without RETURNING: how many rows it changed. */
  run(sql: string | Statement, params?: readonly unknown[]): Promise<number>;
  /**
   * Note that this work wrote webhook deliveries (directly, or through the event fan-out trigger): the
   * database's `onDeliveriesCommitted` listeners run once it is committed (at COMMIT in a transaction,
   * at once outside one, where each statement commits by itself).
   */
  wroteDeliveries(): void;
}

/** Statements that run at once and return their result (SQLite's driver is synchronous). */
export interface SyncSql {
  readonly dialect: 'sqlite';
  all<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): T[];
  run(sql: string, params?: readonly unknown[]): number;
  wroteDeliveries(): void;
}

export interface Database extends Sql {
  /** Run `fn` in one transaction: everything it writes commits together or not at all. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /**
   * SQLite only: run `fn` in one transaction within one turn of the event loop (BEGIN IMMEDIATE, fn, COMMIT). No
   * transaction spans an await, so under load nothing queues behind it. For short writes that need no await.
   */
  batch?<T>(fn: (tx: SyncSql) => T): Promise<T>;
  /** Call `listener` after every commit that wrote deliveries (the local scheduler's wake-up). */
  onDeliveriesCommitted(listener: () => void): () => void;
}

/**
 * A statement run often with the same text: PostgreSQL parses and plans it once per connection (a named
 * prepared statement) instead of on every execution. SQLite prepares every statement text once anyway.
 */
export interface Statement {
  readonly text: string;
  readonly name: string;
}
const statements = new Map<string, Statement>();
/** The statement of this text (one object per text: a text built at run time is hashed once). */
export function statement(text: string): Statement {
  let s = statements.get(text);
  if (s === undefined) {
    s = { text, name: `fs_${createHash('sha1').update(text).digest('hex').slice(0, 16)}` };
    if (statements.size < 2000) statements.set(text, s);
  }
  return s;
}

/** A driver connection as the knex pool hands it out. */
type Connection = unknown;
type KnexClient = { acquireConnection(): Promise<Connection>; releaseConnection(c: Connection): Promise<unknown> };

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

type PgResult = { rows: unknown[]; rowCount: number | null };
type PgConnection = {
  query(text: string, values: readonly unknown[]): Promise<PgResult>;
  query(config: { name: string; text: string; values: readonly unknown[] }): Promise<PgResult>;
};
function queryPg(conn: Connection, sql: string | Statement, params: readonly unknown[]): Promise<PgResult> {
  const pgConn = conn as PgConnection;
  return typeof sql === 'string'
    ? pgConn.query(toPgPlaceholders(sql), params)
    : pgConn.query({ name: sql.name, text: toPgPlaceholders(sql.text), values: params });
}
async function runPg(conn: Connection, sql: string | Statement, params: readonly unknown[]): Promise<unknown[]> {
  return (await queryPg(conn, sql, params)).rows;
}
async function changesPg(conn: Connection, sql: string | Statement, params: readonly unknown[]): Promise<number> {
  return (await queryPg(conn, sql, params)).rowCount ?? 0;
}

/** The engine's statements on its database; `close()` gives back the connection it holds, if any. */
export interface EngineDatabase extends Database {
  /** Run `fn` (the ORM's own work: migrations) while the ORM's pool has every connection the engine holds. */
  lendToOrm<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** What both dialects share: the listeners of commits that wrote deliveries. */
export interface CommitListeners {
  notify(): void;
  add(listener: () => void): () => void;
}
function commitListeners(): CommitListeners {
  const listeners = new Set<() => void>();
  return {
    notify: () => {
      for (const listener of listeners) listener();
    },
    add(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * The explicit-SQL path on the ORM's own connections. PostgreSQL: each statement or transaction takes a
 * connection from the ORM's knex pool for its duration, so the pool stays the one arbiter shared with the ORM's
 * own work. SQLite: see `createSqliteDatabase`.
 */
export function createDatabase(
  dialect: Dialect,
  knex: Knex,
  options: { location: string; log: (message: string) => void },
): EngineDatabase {
  const client = (knex as unknown as { client: KnexClient }).client;
  const committed = commitListeners();
  if (dialect === 'sqlite') return createSqliteDatabase(client, committed, { file: options.location, log: options.log });

  async function withConnection<T>(fn: (conn: Connection) => Promise<T>): Promise<T> {
    const conn = await client.acquireConnection();
    try {
      return await fn(conn);
    } finally {
      await client.releaseConnection(conn);
    }
  }
  return {
    dialect,
    wroteDeliveries: committed.notify,
    onDeliveriesCommitted: committed.add,
    all: <T>(sql: string | Statement, params: readonly unknown[] = []) => withConnection((conn) => runPg(conn, sql, params) as Promise<T[]>),
    one: async <T>(sql: string | Statement, params: readonly unknown[] = []) =>
      (await withConnection((conn) => runPg(conn, sql, params) as Promise<T[]>))[0],
    run: (sql: string | Statement, params: readonly unknown[] = []) => withConnection((conn) => changesPg(conn, sql, params)),
    transaction: <T>(fn: (tx: Sql) => Promise<T>) =>
      withConnection(async (conn) => {
        await runPg(conn, 'BEGIN', []);
        let result: T;
        let wrote = false;
        try {
          const all = <R>(sql: string | Statement, params: readonly unknown[] = []) => runPg(conn, sql, params) as Promise<R[]>;
          result = await fn({
            dialect,
            all,
            one: async <R>(sql: string | Statement, params?: readonly unknown[]) => (await all<R>(sql, params))[0],
            run: (sql: string | Statement, params: readonly unknown[] = []) => changesPg(conn, sql, params),
            wroteDeliveries: () => (wrote = true),
          });
        } catch (err) {
          await runPg(conn, 'ROLLBACK', []).catch(() => {});
          throw err;
        }
        await runPg(conn, 'COMMIT', []);
        if (wrote) committed.notify();
        return result;
      }),
    lendToOrm: (fn) => fn(),
    close: async () => {},
  };
}

/** A unique-constraint violation, as either driver reports it (libsql: `SQLITE_CONSTRAINT_UNIQUE`). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(e?.message ?? '');
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
export function ts(sql: { readonly dialect: Dialect }, d: Date): Date | number {
  return sql.dialect === 'postgresql' ? d : d.getTime();
}
/** JSON bound for a json/jsonb column. */
export function json(v: unknown): string {
  return JSON.stringify(v);
}
