import {
  type CommitListeners,
  type DeliveryKind,
  type EngineDatabase,
  type Sql,
  type Statement,
  type SyncSql,
  textOf,
} from '../sql.js';
import { type Checkpointer, SAFETY_NET_PAGES, startCheckpointer, WAL_SIZE_LIMIT } from './checkpointer.js';
import { sqliteDialect } from './dialect.js';
import { GroupCommit } from './group-commit.js';
import { Turnstile } from './turnstile.js';

/** A libsql connection and prepared statement, as far as the engine uses them. */
interface LibsqlStatement {
  readonly reader: boolean;
  /** Rows as arrays of values, in the order of `columns()`. */
  raw(on: boolean): LibsqlStatement;
  columns(): Array<{ name: string }>;
  all(params: unknown[]): unknown[][];
  get(params: unknown[]): unknown[] | undefined;
  run(params: unknown[]): { changes: number };
}
interface LibsqlConnection {
  prepare(sql: string): LibsqlStatement;
  exec(sql: string): void;
  readonly inTransaction: boolean;
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

/** A row as an object: its columns' names to its values (a name given twice keeps the last). */
function rowOf(columns: string[], values: unknown[]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < columns.length; i++) row[columns[i]!] = values[i];
  return row;
}

/**
 * One connection's statements, each text prepared once (with whether it returns rows: a native call to ask). Rows are
 * read as arrays and made objects here: libsql builds an object through a native call per column, which for a
 * contact's 19 columns cost a third of the read (20 us against 13.5 for the array, 15.5 with the object made here).
 */
class Statements {
  readonly #prepared = new Map<string, { stmt: LibsqlStatement; columns: string[] | null }>();
  constructor(readonly connection: LibsqlConnection) {}

  #prepare(text: string) {
    let entry = this.#prepared.get(text);
    if (entry === undefined) {
      const stmt = this.connection.prepare(text);
      entry = {
        stmt,
        columns: stmt.reader
          ? stmt
              .raw(true)
              .columns()
              .map((c) => c.name)
          : null,
      };
      if (this.#prepared.size >= MAX_PREPARED) this.#prepared.delete(this.#prepared.keys().next().value!);
      this.#prepared.set(text, entry);
    }
    return entry;
  }

  all<T>(sql: string | Statement, params: readonly unknown[]): T[] {
    const { stmt, columns } = this.#prepare(textOf(sql));
    const bound = params.map(toParam);
    if (columns === null) {
      stmt.run(bound);
      return [];
    }
    return stmt.all(bound).map((values) => rowOf(columns, values) as T);
  }

  one<T>(sql: string | Statement, params: readonly unknown[]): T | undefined {
    const { stmt, columns } = this.#prepare(textOf(sql));
    const bound = params.map(toParam);
    if (columns === null) {
      stmt.run(bound);
      return undefined;
    }
    const values = stmt.get(bound);
    return values === undefined ? undefined : (rowOf(columns, values) as T);
  }

  run(sql: string | Statement, params: readonly unknown[]): number {
    return this.#prepare(textOf(sql)).stmt.run(params.map(toParam)).changes;
  }

  /**
   * BEGIN IMMEDIATE, with the transaction's statements (which run at once) and its end: COMMIT (then the listeners
   * hear of the deliveries it wrote) or ROLLBACK (some errors end the transaction by themselves; ROLLBACK then has
   * nothing to undo).
   */
  begin(committed: CommitListeners) {
    this.all('BEGIN IMMEDIATE', []);
    const wrote = new Set<DeliveryKind>();
    const tx: SyncSql & { one<R>(sql: string | Statement, params?: readonly unknown[]): R | undefined } = {
      dialect: sqliteDialect,
      all: <R>(sql: string, params: readonly unknown[] = []) => this.all<R>(sql, params),
      one: <R>(sql: string | Statement, params: readonly unknown[] = []) => this.one<R>(sql, params),
      run: (sql: string, params: readonly unknown[] = []) => this.run(sql, params),
      wroteDeliveries: (kind: DeliveryKind = 'webhooks') => void wrote.add(kind),
    };
    return {
      tx,
      commit: () => {
        this.all('COMMIT', []);
        if (wrote.size > 0) committed.notify(wrote);
      },
      rollback: () => {
        try {
          this.all('ROLLBACK', []);
        } catch {}
      },
    };
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
 *   meanwhile wait, in arrival order (`Turnstile`). IMMEDIATE takes the write lock up front: a deferred transaction
 *   that reads and then writes fails at once with SQLITE_BUSY when another process wrote meanwhile.
 * - Another process holding the write lock (a CLI command on the same file) is waited for up to `busy_timeout`.
 * - Small writes (`batch`: a change and its event) commit in groups when several arrive in one turn of the event
 *   loop (group-commit.ts); the first of a turn commits at once.
 * - A database file is checkpointed by a worker thread (checkpointer.ts), not by COMMITs on the event loop.
 */
class SqliteDatabase implements EngineDatabase {
  readonly dialect = sqliteDialect;
  readonly #client: KnexClient;
  readonly #committed: CommitListeners;
  readonly #options: { file: string; log: (message: string) => void };
  readonly #turn = new Turnstile();
  readonly #group = new GroupCommit(
    () => {
      const s = this.#statements!;
      return {
        begin: () => s.begin(this.#committed),
        exec: (sql) => void s.all(sql, []),
        get inTransaction() {
          return s.connection.inTransaction;
        },
      };
    },
    // At once when the connection is free; else in turn (after a transaction, or the ORM's borrowing, which gives the
    // connection back: it is taken again first).
    (flush) =>
      this.#turn.free && this.#statements
        ? flush()
        : void this.#turn.run(async () => {
            if (!this.#statements) await this.#connection();
            flush();
          }),
  );
  #statements: Statements | undefined;
  #acquiring: Promise<Statements> | undefined;
  #checkpointer: Checkpointer | undefined;

  constructor(
    client: KnexClient,
    committed: CommitListeners,
    options: { file: string; log: (message: string) => void },
  ) {
    this.#client = client;
    this.#committed = committed;
    this.#options = options;
  }

  /** The connection's statements, the connection taken from the ORM's pool on first use and kept. */
  async #connection(): Promise<Statements> {
    if (this.#statements) return this.#statements;
    this.#acquiring ??= this.#client.acquireConnection().then((acquired) => {
      const c = acquired as LibsqlConnection;
      const file = this.#options.file;
      if (file !== ':memory:' && file !== '') {
        c.exec(`PRAGMA wal_autocheckpoint = ${SAFETY_NET_PAGES}; PRAGMA journal_size_limit = ${WAL_SIZE_LIMIT}`);
        this.#checkpointer ??= startCheckpointer(file, this.#options.log);
      }
      return (this.#statements = new Statements(c));
    });
    try {
      return await this.#acquiring;
    } finally {
      this.#acquiring = undefined;
    }
  }

  /** A statement outside a transaction: at once when the connection is free, else in turn. */
  async #statement<T>(exec: (s: Statements) => T): Promise<T> {
    const s = this.#statements ?? (await this.#connection());
    return this.#turn.free ? exec(s) : this.#turn.run(() => exec(s));
  }

  wroteDeliveries = (kind?: DeliveryKind | ReadonlySet<DeliveryKind>) => this.#committed.notify(kind);
  onDeliveriesCommitted = (listener: (kinds: ReadonlySet<DeliveryKind>) => void) => this.#committed.add(listener);
  all = <T>(sql: string | Statement, params: readonly unknown[] = []) => this.#statement((s) => s.all<T>(sql, params));
  one = <T>(sql: string | Statement, params: readonly unknown[] = []) => this.#statement((s) => s.one<T>(sql, params));
  run = (sql: string | Statement, params: readonly unknown[] = []) => this.#statement((s) => s.run(sql, params));

  async batch<T>(fn: (tx: SyncSql) => T): Promise<T> {
    if (!this.#statements) await this.#connection();
    return this.#group.write(fn);
  }

  async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    const s = this.#statements ?? (await this.#connection());
    return this.#turn.run(async () => {
      const t = s.begin(this.#committed);
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
    });
  }

  /** The ORM's own work (migrations) on the pool's one connection: ours is given back for the time being. */
  lendToOrm<T>(fn: () => Promise<T>): Promise<T> {
    return this.#turn.run(async () => {
      if (this.#statements) {
        const c = this.#statements.connection;
        this.#statements = undefined;
        await this.#client.releaseConnection(c);
      }
      return fn();
    });
  }

  close(): Promise<void> {
    return this.#turn.run(async () => {
      // The worker's connection closes first, so that the last one to close (ours, with the ORM) removes the WAL.
      await this.#checkpointer?.stop();
      this.#checkpointer = undefined;
      // libsql has no finalize: the connection really closes once its statements are garbage (a WAL file may stay
      // until then, as after a crash; SQLite recovers it on the next open).
      if (this.#statements) await this.#client.releaseConnection(this.#statements.connection);
      this.#statements = undefined;
    });
  }
}

/** The engine's statements on SQLite (see SqliteDatabase). */
export function createSqliteDatabase(
  client: KnexClient,
  committed: CommitListeners,
  options: { file: string; log: (message: string) => void },
): EngineDatabase {
  return new SqliteDatabase(client, committed, options);
}
