import { PostgresqlMigration } from './migration.js';

/** Idempotency-Key records of POST requests, per workspace, kept 24 hours. */
export class Migration20261122040000IdempotencyKeys extends PostgresqlMigration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "idempotency_key" ("organization_id" varchar(40) not null, "key" varchar(255) not null, "request_hash" varchar(64) not null, "status" varchar(20) not null, "response_status" int null, "response_body" text null, "created_at" timestamptz(3) not null, "expires_at" timestamptz(3) not null, constraint "idempotency_key_pkey" primary key ("organization_id", "key"))',
    );
    this.addSql('create index "idempotency_key_expires_idx" on "idempotency_key" ("expires_at")');
    this.addSql(
      'alter table "idempotency_key" add constraint "idempotency_key_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
    );
  }
}
