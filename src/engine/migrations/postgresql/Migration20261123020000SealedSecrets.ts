import { PostgresqlMigration } from './migration.js';

/**
 * Webhook signing secrets are kept sealed (AES-256-GCM, `fs1:<key id>:<base64url>`, about 116 characters), no
 * longer in clear (49). `engine.migrate()` seals the secrets written before this, with the server's key.
 */
export class Migration20261123020000SealedSecrets extends PostgresqlMigration {
  override async up(): Promise<void> {
    this.addSql('alter table "webhook" alter column "secret" type varchar(255)');
  }
}
