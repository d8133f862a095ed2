import { Migration } from '@mikro-orm/migrations';

/** Idempotency-Key records of POST requests, per workspace, kept 24 hours. */
export class Migration20261122040000IdempotencyKeys extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table `idempotency_key` (`organization_id` text not null, `key` text not null, `request_hash` text not null, `status` text not null, `response_status` integer null, `response_body` text null, `created_at` datetime not null, `expires_at` datetime not null, constraint `idempotency_key_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade, primary key (`organization_id`, `key`))',
    );
    this.addSql('create index `idempotency_key_expires_idx` on `idempotency_key` (`expires_at`)');
  }
}
