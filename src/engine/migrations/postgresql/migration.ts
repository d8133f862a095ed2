import { Migration } from '@mikro-orm/migrations';

/**
 * A PostgreSQL migration: runs without the engine's statement timeout (`set local`, for this migration's
 * transaction), since building an index over a large table may take longer than any request should.
 */
export abstract class PostgresqlMigration extends Migration {
  override getQueries() {
    return ['set local statement_timeout = 0', ...super.getQueries()];
  }
}
