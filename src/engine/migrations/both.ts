import type { Constructor } from '@mikro-orm/core';
import { Migration } from '@mikro-orm/migrations';
import type { SqlDialect } from '../store/index.js';
import { PostgresqlMigration } from './postgresql/migration.js';

type Dialect = SqlDialect['name'];

/** One change's statements in each database's words, in order; a function where a statement depends on what it reads. */
export type DialectStatements = Record<Dialect, readonly string[] | ((migration: Migration) => void | Promise<void>)>;

/** A change of the schema written once for both databases: the class each runs, listed once in index.ts. */
export type BothDialects = Record<Dialect, Constructor<Migration>>;

/**
 * A migration for both databases in one file: `forBothDialects({ sqlite: [...], postgresql: [...] })`. PostgreSQL's
 * runs without the statement timeout, as every PostgreSQL migration does (postgresql/migration.ts).
 */
export function forBothDialects(statements: DialectStatements): BothDialects {
  const up = (dialect: Dialect, migration: Migration) => {
    const change = statements[dialect];
    if (typeof change === 'function') return change(migration);
    for (const sql of change) migration.addSql(sql);
  };
  return {
    sqlite: class extends Migration {
      override async up() {
        await up('sqlite', this);
      }
    },
    postgresql: class extends PostgresqlMigration {
      override async up() {
        await up('postgresql', this);
      }
    },
  };
}
