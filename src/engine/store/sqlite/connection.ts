import { textOf, type CommitListeners, type DeliveryKind, type EngineDatabase, type Sql, type Statement, type SyncSql } from '../sql.js';
import { SAFETY_NET_PAGES, WAL_SIZE_LIMIT, startCheckpointer, type Checkpointer } from './checkpointer.js';
import { sqliteDialect } from './dialect.js';

/** A libsql connection and prepared statement, as far as the engine uses them. */
interface LibsqlStatement {
  readonly reader: boolean;
  all(params: unknown[]): Record<string, unknown>[];
  get(params: unknown[]): Record<string, unknown> | undefined;
  run(params: unknown[]): { changes: number };
}
interface LibsqlConnection {
  prepare(sql: string): LibsqlStatement;
  exec(sql: string): void;
}
interface Prepared {
  stmt: LibsqlStatement;
  reader: boolean;
}
type KnexClient = { acquireConnection(): Promise<unknown>; releaseConnection(c: unknown): Promise<unknown> };

/** Prepared statements kept per connection; past this many texts the oldest is dropped. */
const MAX_PREPARED = 1000;

/**
 * A parameter as libsql binds it. libsql 0.5 aborts the whole process (a Rust panic, not an exception) on a
 * boolean, a Date, a Buffer or an object, so every value is converted here or refused with a TypeError.
 */
function toParam(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'bigint':
      return value;
    case 'boolean':
      return value ? 1 : 0;
    case 'undefined':
      return null;
    default:
      if (value === null) return null;
      if (value instanceof Date) return value.getTime();
      throw new TypeError(`cannot bind a ${Object.prototype.toString.call(value)} as a SQLite parameter`);
  }
}

/**
 * SQLite through libsql, which is synchronous: one connection for the process, taken from the ORM's pool once and
 * kept. A second connection in the same process could only wait for the first one's write lock by blocking the
 * event loop that the first one needs to finish its transaction.
 *
 * - Every statement text is prepared once per connection and kept (`MAX_PREPARED`).
 * - A statement outside a transaction runs at once (it cannot interleave with anything: it is synchronous).
 * - A transaction holds the connection from BEGIN IMMEDIATE to COMMIT; statements and transactions that arrive
 *   meanwhile wait, in arrival order. IMMEDIATE takes the write lock up front: a deferred transaction that reads
 *   and then writes fails at once with SQLITE_BUSY when another process wrote meanwhile.
 * - Another process holding the write lock (a CLI command on the same file) is waited for up to `busy_timeout`.
 * - A database file is checkpointed by a worker thread (checkpointer.ts), not by COMMITs on the event loop.
 */
export function createSqliteDatabase(
  client: KnexClient,
  committed: CommitListeners,
  options: { file: string; log: (message: string) => void },
): EngineDatabase {
  const inMemory = options.file === ':memory:' || options.file === '';
  let checkpointer: Checkpointer | undefined;
  let conn: LibsqlConnection | undefined;
  let acquiring: Promise<LibsqlConnection> | undefined;
  /** Per connection, each statement text prepared, with whether it returns rows (a native call to ask). */
  const prepared = new WeakMap<LibsqlConnection, Map<string, Prepared>>();
  /** Whether a transaction (or the ORM's borrowed turn) holds the connection, and who waits for it. */
  let held = false;
  const waiting: Array<() => void> = [];

  function prepare(c: LibsqlConnection, text: string): Prepared {
    let cache = prepared.get(c);
    if (!cache) prepared.set(c, (cache = new Map()));
    let entry = cache.get(text);
    if (entry === undefined) {
      const stmt = c.prepare(text);
      entry = { stmt, reader: stmt.reader };
      if (cache.size >= MAX_PREPARED) cache.delete(cache.keys().next().value!);
      cache.set(text, entry);
    }
    return entry;
  }

  function execAll<T>(c: LibsqlConnection, sql: string | Statement, params: readonly unknown[]): T[] {
    const { stmt, reader } = prepare(c, textOf(sql));
    const bound = params.map(toParam);
    if (reader) return stmt.all(bound) as T[];
    stmt.run(bound);
    return [];
  }

  function execOne<T>(c: LibsqlConnection, sql: string | Statement, params: readonly unknown[]): T | undefined {
    const { stmt, reader } = prepare(c, textOf(sql));
    const bound = params.map(toParam);
    if (!reader) {
      stmt.run(bound);
      return undefined;
    }
    // get() is one native call where all() iterates in JavaScript; its row carries an extra `_metadata` key.
    const row = stmt.get(bound);
    if (row !== undefined) delete row._metadata;
    return row as T | undefined;
  }

  function execRun(c: LibsqlConnection, sql: string | Statement, params: readonly unknown[]): number {
    return prepare(c, textOf(sql)).stmt.run(params.map(toParam)).changes;
  }

  async function connection(): Promise<LibsqlConnection> {
    if (conn) return conn;
    acquiring ??= client.acquireConnection().then((acquired) => {
      const c = acquired as LibsqlConnection;
      if (!inMemory) {
        c.exec(`PRAGMA wal_autocheckpoint = ${SAFETY_NET_PAGES}; PRAGMA journal_size_limit = ${WAL_SIZE_LIMIT}`);
        checkpointer ??= startCheckpointer(options.file, options.log);
      }
      return (conn = c);
    });
    try {
      return await acquiring;
    } finally {
      acquiring = undefined;
    }
  }

  /** Hold the connection exclusively (a transaction); resolves when it is this caller's turn. */
  function hold(): Promise<void> {
    if (!held) {
      held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => waiting.push(resolve));
  }
  function letGo(): void {
    const next = waiting.shift();
    if (next) next();
    else held = false;
  }

  /** A statement outside a transaction: at once when the connection is free, else in turn. */
  async function statement<T>(exec: (c: LibsqlConnection) => T): Promise<T> {
    const c = conn ?? (await connection());
    if (!held) return exec(c);
    await hold();
    try {
      return exec(c);
    } finally {
      letGo();
    }
  }

  /**
   * BEGIN IMMEDIATE on a connection the caller holds, with the transaction's statements (which run at once), and its
   * end: COMMIT (then the listeners hear of the deliveries it wrote) or ROLLBACK (some errors end the transaction by
   * themselves; ROLLBACK then has nothing to undo).
   */
  function begin(c: LibsqlConnection) {
    execAll(c, 'BEGIN IMMEDIATE', []);
    const wrote = new Set<DeliveryKind>();
    const tx: SyncSql & { one<R>(sql: string | Statement, params?: readonly unknown[]): R | undefined } = {
      dialect: sqliteDialect,
      all: <R>(sql: string, params: readonly unknown[] = []) => execAll<R>(c, sql, params),
      one: <R>(sql: string | Statement, params: readonly unknown[] = []) => execOne<R>(c, sql, params),
      run: (sql: string, params: readonly unknown[] = []) => execRun(c, sql, params),
      wroteDeliveries: (kind: DeliveryKind = 'webhooks') => void wrote.add(kind),
    };
    return {
      tx,
      commit() {
        execAll(c, 'COMMIT', []);
        if (wrote.size > 0) committed.notify(wrote);
      },
      rollback() {
        try {
          execAll(c, 'ROLLBACK', []);
        } catch {}
      },
    };
  }

  /** `fn` between BEGIN and COMMIT, within this turn of the event loop; the caller holds the connection. */
  function batchOn<T>(c: LibsqlConnection, fn: (tx: SyncSql) => T): T {
    const t = begin(c);
    try {
      const result = fn(t.tx);
      t.commit();
      return result;
    } catch (err) {
      t.rollback();
      throw err;
    }
  }

  return {
    dialect: sqliteDialect,
    wroteDeliveries: committed.notify,
    async batch<T>(fn: (tx: SyncSql) => T): Promise<T> {
      const c = conn ?? (await connection());
      if (!held) return batchOn(c, fn);
      await hold();
      try {
        return batchOn(c, fn);
      } finally {
        letGo();
      }
    },
    onDeliveriesCommitted: committed.add,
    all: <T>(sql: string | Statement, params: readonly unknown[] = []) => statement((c) => execAll<T>(c, sql, params)),
    one: <T>(sql: string | Statement, params: readonly unknown[] = []) => statement((c) => execOne<T>(c, sql, params)),
    run: (sql: string | Statement, params: readonly unknown[] = []) => statement((c) => execRun(c, sql, params)),
    async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
      const c = conn ?? (await connection());
      await hold();
      try {
        const t = begin(c);
        try {
          const { tx } = t;
          const result = await fn({
            dialect: sqliteDialect,
            all: async (sql, params) => tx.all(textOf(sql), params),
            one: async (sql, params) => tx.one(sql, params),
            run: async (sql, params) => tx.run(textOf(sql), params),
            wroteDeliveries: tx.wroteDeliveries,
          });
          t.commit();
          return result;
        } catch (err) {
          t.rollback();
          throw err;
        }
      } finally {
        letGo();
      }
    },
    async lendToOrm<T>(fn: () => Promise<T>): Promise<T> {
      await hold();
      try {
        if (conn) {
          const c = conn;
          conn = undefined;
          await client.releaseConnection(c);
        }
        return await fn();
      } finally {
        letGo();
      }
    },
    async close() {
      await hold();
      // The worker's connection closes first, so that the last one to close (ours, with the ORM) removes the WAL.
      await checkpointer?.stop();
      checkpointer = undefined;
      // libsql has no finalize: the connection really closes once its statements are garbage (a WAL file may stay
      // until then, as after a crash; SQLite recovers it on the next open).
      if (conn) {
        prepared.delete(conn);
        await client.releaseConnection(conn);
      }
      conn = undefined;
      letGo();
    },
  };
}
