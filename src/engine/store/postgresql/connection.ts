import { isDatabaseUnavailable } from '../../shared/faults.js';
import { createGather } from '../gather.js';
import {
  type CommitListeners,
  type DeliveryKind,
  type EngineDatabase,
  type Sql,
  type Statement,
  textOf,
} from '../sql.js';
import { postgresqlDialect } from './dialect.js';

/** A connection as the ORM's knex pool hands it out (pg's Client). */
type Connection = unknown;
type KnexClient = { acquireConnection(): Promise<Connection>; releaseConnection(c: Connection): Promise<unknown> };
type PgResult = { rows: unknown[]; rowCount: number | null };
type PgConnection = {
  query(config: { name?: string; text: string; values: readonly unknown[]; query_timeout: number }): Promise<PgResult>;
  end(): Promise<void>;
};

/** SQLSTATE query_canceled: the server ended a statement at its `statement_timeout`. */
const STATEMENT_CANCELLED = '57014';

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

/**
 * One statement, waiting at most `answerMs` for its answer (pg's per-query `query_timeout`): a server that went silent
 * fails the statement as a server that answers cancels it after `statement_timeout`.
 */
function query(
  conn: Connection,
  sql: string | Statement,
  params: readonly unknown[],
  answerMs: number,
): Promise<PgResult> {
  const pg = conn as PgConnection;
  const text = toPgPlaceholders(textOf(sql));
  return pg.query(
    typeof sql === 'string'
      ? { text, values: params, query_timeout: answerMs }
      : { name: sql.name, text, values: params, query_timeout: answerMs },
  );
}

/** The statements of one connection; `wrote` notes deliveries written. */
function on(conn: Connection, wrote: (kind?: DeliveryKind) => void, answerMs: number): Sql {
  const all = async <T>(sql: string | Statement, params: readonly unknown[] = []) =>
    (await query(conn, sql, params, answerMs)).rows as T[];
  return {
    dialect: postgresqlDialect,
    all,
    one: async <T>(sql: string | Statement, params: readonly unknown[] = []) => (await all<T>(sql, params))[0],
    run: async (sql: string | Statement, params: readonly unknown[] = []) =>
      (await query(conn, sql, params, answerMs)).rowCount ?? 0,
    wroteDeliveries: wrote,
  };
}

/**
 * PostgreSQL through the ORM's knex pool: each statement or transaction takes a connection for its duration, so the
 * pool stays the one arbiter shared with the ORM's own work. Named statements (`statement()`) are parsed and planned
 * once per connection. A statement whose answer does not come within `answerMs` fails, and its connection is closed
 * (the pool makes a new one when the database answers again) instead of being handed to the next request.
 */
export function createPostgresqlDatabase(
  client: KnexClient,
  committed: CommitListeners,
  options: { answerMs: number },
): EngineDatabase {
  async function withConnection<T>(
    fn: (sql: Sql) => Promise<T>,
    wrote: (kind?: DeliveryKind) => void = committed.notify,
  ): Promise<T> {
    const conn = await client.acquireConnection();
    try {
      return await fn(on(conn, wrote, options.answerMs));
    } catch (err) {
      // A connection whose statement got no answer may still be waiting for it, and one that broke is of no use: end it
      // before it goes back (pg destroys its socket; knex's pool then drops it instead of handing it out). A statement
      // the server cancelled (its timeout) leaves a good connection.
      if (isDatabaseUnavailable(err) && (err as { code?: unknown }).code !== STATEMENT_CANCELLED)
        await (conn as PgConnection).end().catch(() => {});
      throw err;
    } finally {
      await client.releaseConnection(conn);
    }
  }
  return {
    dialect: postgresqlDialect,
    gather: createGather(),
    wroteDeliveries: committed.notify,
    onDeliveriesCommitted: committed.add,
    all: (sql, params) => withConnection((s) => s.all(sql, params)),
    one: (sql, params) => withConnection((s) => s.one(sql, params)),
    run: (sql, params) => withConnection((s) => s.run(sql, params)),
    async transaction(fn) {
      const wrote = new Set<DeliveryKind>();
      const result = await withConnection(
        async (tx) => {
          await tx.run('BEGIN');
          try {
            const value = await fn(tx);
            await tx.run('COMMIT');
            return value;
          } catch (err) {
            await tx.run('ROLLBACK').catch(() => {});
            throw err;
          }
        },
        (kind: DeliveryKind = 'webhooks') => void wrote.add(kind),
      );
      if (wrote.size > 0) committed.notify(wrote);
      return result;
    },
    lendToOrm: (fn) => fn(),
    close: async () => {},
  };
}
