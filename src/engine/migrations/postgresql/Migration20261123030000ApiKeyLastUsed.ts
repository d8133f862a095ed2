import { PostgresqlMigration } from './migration.js';

/** When each API key was last used (to the minute), for `feedback-service key list`. */
export class Migration20261123030000ApiKeyLastUsed extends PostgresqlMigration {
  override async up(): Promise<void> {
    this.addSql('alter table "api_key" add column "last_used_at" timestamptz(3) null');
  }
}
