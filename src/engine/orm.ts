import type { Options } from '@mikro-orm/core';
import { modelFor } from './entities/dialects.js';
import { ApiKey, Board, ChangelogEntry, Comment, Contact, Delivery, DeliveryAttempt, Event, Organization, Post, PostTag, Tag, Vote, Webhook, IdempotencyKey, PortalSession, PortalCode, Mail, MailSubscription, MailUnsubscribe, MailPreference, Suppression, RateLimitWindow } from './entities/index.js';
import type { SqlDialect } from './store/sql.js';

export const ENTITIES = [Organization, ApiKey, Contact, Board, Post, Vote, Comment, Event, Tag, PostTag, ChangelogEntry, Webhook, Delivery, DeliveryAttempt, IdempotencyKey, PortalSession, PortalCode, Mail, MailSubscription, MailUnsubscribe, MailPreference, Suppression];
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

export function ormOptions(target: DatabaseTarget, extra: Partial<Options> = {}): Options {
  const common: Partial<Options> = {
    entities: [...ENTITIES, ...ONLY_ON[target.dialect]] as Options['entities'],
    // The model is what the tables declare, for this database (entities/dialects.ts); test/engine/schema.test.ts checks
    // that the migrations make exactly it.
    discovery: { warnWhenNoEntities: true, onMetadata: modelFor(target.dialect) },
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
  return { ...common, clientUrl: target.location, pool: { min: 0, max: 10 } } as Options;
}
