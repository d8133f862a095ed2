import type { Database, InsertStatement, Sql, WriteStatement } from './sql.js';

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
  /** A value below every timestamp, for a keyset seek that starts at the beginning. */
  readonly minTime: string;
  /** `FROM`-able rows of a JSON array parameter (`?`) with these columns, named `alias`. */
  jsonRows(columns: readonly JsonColumn[], alias: string): string;
  /** `FROM`-able single-column rows (`value`) of a JSON array parameter of strings. */
  readonly jsonStrings: string;
  /**
   * Whether one statement may hold several data-modifying CTEs (PostgreSQL): a claim then returns its rows in claim
   * order, and a batch of outcomes is recorded in one statement instead of a transaction of three.
   */
  readonly modifyingCtes: boolean;
  /** How the scheduler's claim (engine/delivery/sql/claim.ts) finds and takes due deliveries. */
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
   * prepared); SQLite: both statements within one turn in an IMMEDIATE transaction (or in the caller's transaction).
   */
  writeWithEvent(db: Sql | Database, write: WriteStatement, event: InsertStatement): Promise<boolean>;
}
