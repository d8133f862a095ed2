import { PostgresqlMigration } from './migration.js';

/** Optimistic concurrency for contacts: every trait change bumps `version`; writes are conditional on it. */
export class Migration20261122010000ContactVersion extends PostgresqlMigration {
  override async up(): Promise<void> {
    this.addSql('alter table "contact" add column "version" int not null default 1');
  }
}
