import { PostgresqlMigration } from './migration.js';

/**
 * Webhooks, deliveries and their attempt log, and the fan-out: a trigger turns every event row into one
 * pending delivery per enabled webhook of the workspace that subscribes to its kind, inside the statement
 * (and so the transaction) that wrote the event, and NOTIFYs the schedulers, which PostgreSQL delivers
 * only when that transaction commits.
 */
export class Migration20261122030000Webhooks extends PostgresqlMigration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "webhook" ("id" varchar(40) not null, "organization_id" varchar(40) not null, "url" varchar(2048) not null, "events" varchar(400) not null, "description" varchar(500) null, "secret" varchar(100) not null, "enabled" boolean not null default true, "consecutive_failures" int not null default 0, "disabled_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "webhook_pkey" primary key ("id"))',
    );
    this.addSql('create index "webhook_org_created_idx" on "webhook" ("organization_id", "created_at", "id")');
    // fillfactor 70 leaves room on each page for HOT updates: a claim and a lease renewal change no indexed column.
    this.addSql(
      'create table "delivery" ("id" varchar(40) not null, "organization_id" varchar(40) not null, "webhook_id" varchar(40) not null, "event_id" varchar(40) not null, "event_type" varchar(40) not null, "status" varchar(20) not null, "attempt_count" int not null default 0, "next_attempt_at" timestamptz(3) null, "lease_token" varchar(40) null, "lease_expires_at" timestamptz(3) null, "succeeded_at" timestamptz(3) null, "failed_at" timestamptz(3) null, "failure_reason" varchar(40) null, "replay_of_id" varchar(40) null, "created_at" timestamptz(3) not null, constraint "delivery_pkey" primary key ("id")) with (fillfactor = 70)',
    );
    this.addSql('create index "delivery_webhook_created_idx" on "delivery" ("webhook_id", "created_at", "id")');
    // What the scheduler claims: per webhook, its pending deliveries by due time (one seek per webhook).
    this.addSql(
      'create index "delivery_pending_idx" on "delivery" ("webhook_id", "next_attempt_at", "id") where "status" = \'pending\'',
    );
    this.addSql(
      'create table "delivery_attempt" ("delivery_id" varchar(40) not null, "number" int not null, "attempted_at" timestamptz(3) not null, "status_code" int null, "error" varchar(500) null, "duration_ms" int not null, "response_body" text null, constraint "delivery_attempt_pkey" primary key ("delivery_id", "number"))',
    );
    this.addSql(
      'alter table "webhook" add constraint "webhook_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "delivery" add constraint "delivery_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "delivery" add constraint "delivery_webhook_id_foreign" foreign key ("webhook_id") references "webhook" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "delivery_attempt" add constraint "delivery_attempt_delivery_id_foreign" foreign key ("delivery_id") references "delivery" ("id") on update cascade on delete cascade',
    );
    // Delivery ids keep the event's time part (time-sortable) and add 64 random bits.
    this.addSql(`create function "event_fan_out"() returns trigger language plpgsql as $$
begin
  insert into "delivery" ("id", "organization_id", "webhook_id", "event_id", "event_type", "status", "attempt_count", "next_attempt_at", "created_at")
  select 'dlv_' || substr(new."id", 5, 10) || substr(replace(gen_random_uuid()::text, '-', ''), 1, 16), new."organization_id", w."id", new."id", new."type", 'pending', 0, new."created_at", new."created_at"
  from "webhook" w
  where w."organization_id" = new."organization_id" and w."enabled" and position(',' || new."type" || ',' in w."events") > 0;
  if found then
    perform pg_notify('feedback_service_delivery', '');
  end if;
  return null;
end
$$`);
    this.addSql(
      'create trigger "event_fan_out" after insert on "event" for each row execute function "event_fan_out"()',
    );
  }
}
