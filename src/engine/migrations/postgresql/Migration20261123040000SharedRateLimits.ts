import { PostgresqlMigration } from './migration.js';

/**
 * Rate-limit windows shared by every instance on the database: one row per key and clock minute. UNLOGGED (no WAL:
 * a crash forgets the current minute's counts, which is harmless). Its entity, RateLimitWindow, is PostgreSQL's only.
 */
export class Migration20261123040000SharedRateLimits extends PostgresqlMigration {
  override async up(): Promise<void> {
    this.addSql(
      'create unlogged table "rate_limit_window" ("key_id" varchar(40) not null, "window_start" bigint not null, "count" int not null, constraint "rate_limit_window_pkey" primary key ("key_id", "window_start"))',
    );
  }
}
