import type { MikroORM, Options } from '@mikro-orm/core';
import { MIGRATIONS } from './migrations/index.js';
import { entities, modelFor, type SqlDialect } from './store/index.js';

const { RateLimitWindow } = entities;
/** The full-text search tables (the search migrations of each database), which no entity describes: store/tables/search.ts reads them. */
const SEARCH_TABLES = /^((post|contact|company)_search(_\w+)?|search_(pending|watermark))$/;

/** Every table both databases have: each entity of the table modules (store/entities.ts, in name order), but the one-database ones below. */
export const ENTITIES: readonly unknown[] = Object.values(entities).filter((e) => e !== RateLimitWindow);
/** The tables one database alone has: PostgreSQL's shared rate-limit windows (SQLite counts in process memory). */
const ONLY_ON: Record<SqlDialect['name'], readonly unknown[]> = { sqlite: [], postgresql: [RateLimitWindow] };

export interface DatabaseTarget {
  dialect: SqlDialect['name'];
  /** SQLite file path or `:memory:`; for PostgreSQL the connection URL. */
  location: string;
}

/** `postgres://` and `postgresql://` URLs select PostgreSQL; anything else is a SQLite path. */
export function parseDatabase(database: string): DatabaseTarget {
  if (/^postgres(ql)?:\/\//i.test(database)) return { dialect: 'postgresql', location: database };
  const location = database.startsWith('sqlite:') ? database.slice('sqlite:'.length) : database;
  return { dialect: 'sqlite', location };
}

/** The SQLite pragmas every connection gets: WAL with NORMAL sync, FK enforcement, a busy wait. */
export const SQLITE_PRAGMAS = [
  'PRAGMA journal_mode = WAL',
  'PRAGMA synchronous = NORMAL',
  'PRAGMA foreign_keys = ON',
  'PRAGMA busy_timeout = 5000',
];

/**
 * How long the engine waits on PostgreSQL, so that a request in trouble gets `503 ERR_UNAVAILABLE` with Retry-After
 * within a bounded time instead of waiting for the network (docs/operations.md). SQLite waits for another process's
 * write lock for 5 s (its busy timeout) and has nothing else to wait for.
 */
export interface DatabaseTimeouts {
  /** Opening a connection, and waiting for one of the pool's: 5,000 ms. */
  connectMs?: number;
  /**
   * One statement: the server cancels it after this long (`statement_timeout`), and the client stops waiting for its
   * answer a second later, so a database that went silent (a partition) fails it too: 15,000 ms. Migrations have none.
   */
  statementMs?: number;
  /** A transaction whose client went quiet: the server ends it and frees its locks (`idle_in_transaction_session_timeout`): 10,000 ms. */
  idleInTransactionMs?: number;
}
export const DEFAULT_TIMEOUTS: Required<DatabaseTimeouts> = {
  connectMs: 5_000,
  statementMs: 15_000,
  idleInTransactionMs: 10_000,
};
/** How much longer than the server's statement timeout the client waits for an answer. */
export const CLIENT_TIMEOUT_MARGIN_MS = 1_000;

/** How the connections behave: their timeouts (PostgreSQL), and where the driver's warnings go (a dropped connection). */
export interface ConnectionSettings {
  timeouts: Required<DatabaseTimeouts>;
  log?: (message: string) => void;
}

export function ormOptions(
  target: DatabaseTarget,
  extra: Partial<Options> = {},
  settings: ConnectionSettings = { timeouts: DEFAULT_TIMEOUTS },
): Options {
  const { timeouts } = settings;
  const common: Partial<Options> = {
    entities: [...ENTITIES, ...ONLY_ON[target.dialect]] as Options['entities'],
    // The model is what the tables declare, for this database (entities/dialects.ts); test/engine/schema.test.ts checks
    // that the migrations make exactly it.
    discovery: { warnWhenNoEntities: true, onMetadata: modelFor(target.dialect) },
    // The full-text search tables (SQLite's FTS5 and their shadow tables, PostgreSQL's post_search) are made by the
    // search migrations and kept by their triggers.
    schemaGenerator: { skipTables: [SEARCH_TABLES] },
    allowGlobalContext: false,
    debug: false,
    ...extra,
  };
  if (target.dialect === 'sqlite') {
    return {
      ...common,
      dbName: target.location,
      // One connection: the engine keeps it (internal/sqlite.ts); libsql's exec is synchronous.
      pool: {
        min: 1,
        max: 1,
        afterCreate: (conn: { exec(sql: string): void }, done: (err: Error | null, conn: unknown) => void) => {
          try {
            conn.exec(SQLITE_PRAGMAS.join(';\n'));
            done(null, conn);
          } catch (err) {
            done(err as Error, conn);
          }
        },
      },
    } as Options;
  }
  return {
    ...common,
    clientUrl: target.location,
    pool: { min: 0, max: 10 },
    driverOptions: {
      // knex's wait for a pooled connection (creating one included).
      acquireConnectionTimeout: timeouts.connectMs,
      // knex warns when its pool drops a connection that ended (a restart, a statement that got no answer).
      ...(settings.log
        ? { log: { warn: (message: string) => settings.log!(`[feedback-service] database: ${message}`) } }
        : {}),
      connection: {
        connectionTimeoutMillis: timeouts.connectMs,
        keepAlive: true,
        statement_timeout: timeouts.statementMs,
        idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
      },
    },
  } as Options;
}

/** The timeouts in force: those given, the defaults for the rest. */
export function resolveTimeouts(given: DatabaseTimeouts = {}): Required<DatabaseTimeouts> {
  return {
    connectMs: given.connectMs ?? DEFAULT_TIMEOUTS.connectMs,
    statementMs: given.statementMs ?? DEFAULT_TIMEOUTS.statementMs,
    idleInTransactionMs: given.idleInTransactionMs ?? DEFAULT_TIMEOUTS.idleInTransactionMs,
  };
}

/** The ORM, with the checked-in migrations; each driver is imported only when its database is used. */
export async function initOrm(target: DatabaseTarget, settings: ConnectionSettings): Promise<MikroORM> {
  const { Migrator } = await import('@mikro-orm/migrations');
  const migrations = {
    migrationsList: MIGRATIONS[target.dialect],
    transactional: true,
    allOrNothing: true,
    snapshot: false,
    silent: true,
  };
  const options = ormOptions(target, { extensions: [Migrator], migrations }, settings);
  if (target.dialect === 'sqlite') {
    const { MikroORM } = await import('@mikro-orm/libsql');
    return (await MikroORM.init(options as never)) as unknown as MikroORM;
  }
  const { MikroORM } = await import('@mikro-orm/postgresql');
  return (await MikroORM.init(options as never)) as unknown as MikroORM;
}
