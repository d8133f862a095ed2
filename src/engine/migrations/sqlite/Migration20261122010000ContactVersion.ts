import { Migration } from '@mikro-orm/migrations';

/** Optimistic concurrency for contacts: every trait change bumps `version`; writes are conditional on it. */
export class Migration20261122010000ContactVersion extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table `contact` add column `version` integer not null default 1');
  }
}
