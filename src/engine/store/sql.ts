import { createHash } from 'node:crypto';
import type { Gather } from './gather.js';

/**
 * The explicit-SQL path every operation takes: statements on the ORM's own connections, without the unit of work
 * and without the query builder. Placeholders are `?`; rows come back as plain objects. Only the store's modules
 * write SQL text; services call their functions.
 */
export interface Sql {
  /** What differs between SQLite and PostgreSQL (dialect.ts). */
  readonly dialect: SqlDialect;
  all<T = Record<string, unknown>>(sql: string | Statement, params?: readonly unknown[]): Promise<T[]>;
  one<T = Record<string, unknown>>(sql: string | Statement, params?: readonly unknown[]): Promise<T | undefined>;
  /** A write without RETURNING: how many rows it changed. */
  run(sql: string | Statement, params?: readonly unknown[]): Promise<number>;
  /**
   * Note that this work wrote something for the scheduler to send: webhook deliveries (directly, or through the event
   * fan-out trigger; the default) or mail. The database's `onDeliveriesCommitted` listeners hear of each kind once it is
   * committed (at COMMIT in a transaction, at once outside one, where each statement commits by itself).
   */
  wroteDeliveries(kind?: DeliveryKind): void;
}

/**
 * The channel PostgreSQL NOTIFYs on when work for the scheduler was committed: the `event_fan_out` trigger (deliveries),
 * mail rows, claims given back. Every scheduler LISTENs on it.
 */
export const DELIVERY_CHANNEL = 'feedback_service_delivery';

/** What the scheduler sends, a lane each: webhook deliveries, and mail. A commit wakes only the lanes of what it wrote. */
export type DeliveryKind = 'webhooks' | 'mail' | 'integrations';

/** Statements that run at once and return their result (SQLite's driver is synchronous). */
export interface SyncSql {
  readonly dialect: SqlDialect;
  all<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): T[];
  run(sql: string, params?: readonly unknown[]): number;
  wroteDeliveries(kind?: DeliveryKind): void;
}

export interface Database extends Sql {
  /** Run `fn` in one transaction: everything it writes commits together or not at all. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /**
   * SQLite only: run `fn` in one transaction within one turn of the event loop (BEGIN IMMEDIATE, fn, COMMIT). No
   * transaction spans an await, so under load nothing queues behind it. For short writes that need no await.
   */
  batch?<T>(fn: (tx: SyncSql) => T): Promise<T>;
  /**
   * PostgreSQL's engine database only: gathering (gather.ts), so that calls of one kind and key made while one is on its
   * way share a round trip. Absent on SQLite (its statements run in process, at once) and on a transaction (whose
   * statements must see its own writes): callers then run their one statement.
   */
  readonly gather?: Gather;
  /** Call `listener` after every commit that wrote deliveries, with their kinds (the local scheduler's wake-up). */
  onDeliveriesCommitted(listener: (kinds: ReadonlySet<DeliveryKind>) => void): () => void;
}

/** The engine's statements on its database; `close()` gives back the connection it holds, if any. */
export interface EngineDatabase extends Database {
  /** Run `fn` (the ORM's own work: migrations) while the ORM's pool has every connection the engine holds. */
  lendToOrm<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The listeners of commits that wrote deliveries: `notify` with the kinds a transaction wrote, or the one a statement did. */
export interface CommitListeners {
  notify(kinds?: ReadonlySet<DeliveryKind> | DeliveryKind): void;
  add(listener: (kinds: ReadonlySet<DeliveryKind>) => void): () => void;
}
export function commitListeners(): CommitListeners {
  const listeners = new Set<(kinds: ReadonlySet<DeliveryKind>) => void>();
  return {
    notify: (kinds = 'webhooks') => {
      const set = typeof kinds === 'string' ? new Set([kinds]) : kinds;
      for (const listener of listeners) listener(set);
    },
    add(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * A statement run often with the same text: PostgreSQL parses and plans it once per connection (a named prepared
 * statement) instead of on every execution. SQLite prepares every statement text once anyway.
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
export const textOf = (sql: string | Statement): string => (typeof sql === 'string' ? sql : sql.text);

/** A write (INSERT, UPDATE or DELETE, without RETURNING) and its parameters. */
export interface WriteStatement {
  sql: string;
  params: readonly unknown[];
  /**
   * The one row the write changes, named (`contact <id>`): a write that says so may share a statement with other
   * writes on PostgreSQL (writeWithEvent's gathering), never with another write of the same row.
   */
  row?: string;
}

/** An INSERT as its head (`INSERT INTO t (a, b)`) and its values: each dialect adds `VALUES` or a `SELECT`. */
export interface InsertStatement {
  into: string;
  params: readonly unknown[];
}
export const insertValues = (insert: InsertStatement): WriteStatement => ({
  sql: `${insert.into} VALUES (${placeholders(insert.params)})`,
  params: insert.params,
});

/** `?, ?, ?` for a list of values. */
export const placeholders = (values: readonly unknown[]): string => values.map(() => '?').join(', ');

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
export const toStringOrNull = (v: unknown): string | null => (v as string | null | undefined) ?? null;
/** A value bound for a timestamp column: a Date for PostgreSQL, epoch milliseconds for SQLite. */
export function ts(sql: { readonly dialect: SqlDialect }, d: Date): Date | number {
  return sql.dialect.time(d);
}
/** JSON bound for a json/jsonb column. */
export function json(v: unknown): string {
  return JSON.stringify(v);
}

/** A column of rows that travel as one JSON array parameter (a batch of outcomes, a list of webhooks). */
export type JsonColumn = readonly [name: string, type: 'text' | 'int' | 'timestamptz'];

/**
 * What differs between SQLite and PostgreSQL, and nothing else: the store's modules and the scheduler's statements
 * are written once against this. One implementation per database (sqlite/dialect.ts, postgresql/dialect.ts).
 */
export interface SqlDialect {
  readonly name: 'sqlite' | 'postgresql';
  /** A timestamp as its columns take it: a Date (timestamptz) or epoch milliseconds (SQLite). */
  time(d: Date): Date | number;
  /** A timestamp inside a JSON parameter: ISO text (PostgreSQL casts it) or epoch milliseconds. */
  jsonTime(d: Date): string | number;
  /** Case-insensitive substring match (PostgreSQL's ILIKE; SQLite's LIKE folds ASCII case by itself). */
  readonly ilike: string;
  /**
   * Appended to a SELECT in a transaction to lock the rows it reads. PostgreSQL only: a SQLite transaction begins
   * IMMEDIATE and so holds the whole database.
   */
  readonly forUpdate: string;
  /** The same, skipping rows another transaction holds instead of waiting for them. */
  readonly forUpdateSkipLocked: string;
  /** Hours from the timestamp column `column` to a timestamp parameter (`?`), as a double. */
  hoursUntil(column: string): string;
  /** A value below every timestamp, for a keyset seek that starts at the beginning. */
  readonly minTime: string;
  /** `FROM`-able rows of a JSON array parameter (`?`) with these columns, named `alias`. */
  jsonRows(columns: readonly JsonColumn[], alias: string): string;
  /** `FROM`-able single-column rows (`value`) of a JSON array parameter of strings. */
  readonly jsonStrings: string;
  /**
   * `FROM`-able rows of `table` (named `alias`) whose ids a JSON array parameter (`?`) lists, each read by its primary
   * key whatever the planner's statistics say: a search's best matches, read right after a bulk load. (PostgreSQL
   * planned `id IN (ids)` on a table it had never analyzed as a loop over every row for each id: 5 s for 4,000 ids of
   * 30,000 posts.)
   */
  rowsOfIds(table: string, alias: string): string;
  /**
   * Whether one statement may hold several data-modifying CTEs (PostgreSQL): a claim then returns its rows in claim
   * order, and a batch of outcomes is recorded in one statement instead of a transaction of three.
   */
  readonly modifyingCtes: boolean;
  /** How the scheduler's claim (store/queries/delivery-claims.ts) finds and takes due deliveries. */
  readonly claims: {
    /** A row's own address: its tuple id (PostgreSQL) or rowid (SQLite), so that taking it needs no second index lookup. */
    readonly rowRef: string;
    /**
     * `SELECT ref, id, next_attempt_at FROM h ...`: each webhook `h`'s oldest due deliveries, as `due` selects them
     * (`rowRef AS ref, id, next_attempt_at`). PostgreSQL locks them, skipping rows another process is claiming right
     * now instead of waiting, and re-checks the conditions on the locked row; SQLite serializes writers, so the
     * statement sees no concurrent claim.
     */
    pick(due: string): string;
    /** The condition that an UPDATE's row is one of `refs` (a SELECT of refs). */
    whereRef(refs: string): string;
  };
  /**
   * Write a change and its event row as one unit: the event is inserted if and only if the change matched a row, and
   * both commit together. Returns whether the change matched. PostgreSQL: one statement (a data-modifying CTE,
   * prepared), shared with the workspace's (`organizationId`) other writes that name their row and arrive while one is
   * on its way (gather.ts); SQLite: both statements within one turn in an IMMEDIATE transaction, shared with the turn's
   * other small writes (group commit), or in the caller's transaction.
   */
  writeWithEvent(
    db: Sql | Database,
    write: WriteStatement,
    event: InsertStatement,
    organizationId: string,
  ): Promise<boolean>;
}
