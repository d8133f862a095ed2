import { Migration } from '@mikro-orm/migrations';

/**
 * Webhook signing secrets and kept Idempotency-Key answers are sealed from now on (the column is text already).
 * The schema does not change; applying this tells `engine.migrate()` to seal, once, what was written before.
 */
export class Migration20261123020000SealedSecrets extends Migration {
  override async up(): Promise<void> {
    this.addSql('select 1');
  }
}
