import { forBothDialects } from './both.js';

/**
 * Integrations (docs/integrations.md): a workspace's connections to Linear, GitHub and Slack, the issues linked to
 * posts, and the integrations' outbox, which the scheduler's integration lane works. The `event_integration_fan_out`
 * trigger writes a Slack notice's job with the event that causes it, in the same statement, as `event_fan_out` writes
 * a webhook's delivery; its delivery id (`evt:<event id>`) makes it one job whatever happens, and its id keeps the
 * event's whole id, so a connection's notices are claimed in the order their events happened.
 */
export const Integrations = forBothDialects({
  sqlite: [
    "create table `integration` (`id` text not null, `organization_id` text not null, `service` text not null, `auth` text not null, `account` text null, `credentials` text not null, `settings` text not null, `notify_events` text not null default '', `status` text not null, `last_error` text null, `last_error_at` datetime null, `created_at` datetime not null, `updated_at` datetime not null, constraint `integration_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade, primary key (`id`))",
    'create unique index `integration_org_service_unique` on `integration` (`organization_id`, `service`)',
    'create table `issue_link` (`id` text not null, `organization_id` text not null, `integration_id` text not null, `post_id` text not null, `service` text not null, `external_id` text not null, `key` text not null, `url` text not null, `title` text null, `state` text null, `created_at` datetime not null, constraint `issue_link_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade, constraint `issue_link_integration_id_foreign` foreign key(`integration_id`) references `integration`(`id`) on delete cascade on update cascade, constraint `issue_link_post_id_foreign` foreign key(`post_id`) references `post`(`id`) on delete cascade on update cascade, primary key (`id`))',
    'create unique index `issue_link_unique` on `issue_link` (`integration_id`, `external_id`, `post_id`)',
    'create index `issue_link_post_idx` on `issue_link` (`post_id`)',
    'create table `integration_job` (`id` text not null, `organization_id` text not null, `integration_id` text not null, `kind` text not null, `post_id` text null, `delivery_id` text null, `payload` text not null, `status` text not null, `attempt_count` integer not null default 0, `next_attempt_at` datetime null, `lease_token` text null, `lease_expires_at` datetime null, `last_error` text null, `created_at` datetime not null, `completed_at` datetime null, constraint `integration_job_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade, constraint `integration_job_integration_id_foreign` foreign key(`integration_id`) references `integration`(`id`) on delete cascade on update cascade, primary key (`id`))',
    'create unique index `integration_job_delivery_unique` on `integration_job` (`integration_id`, `delivery_id`)',
    'create index `integration_job_post_idx` on `integration_job` (`post_id`)',
    "create index `integration_job_due_idx` on `integration_job` (`next_attempt_at`, `id`) where `status` = 'pending'",
    'create trigger `event_integration_fan_out` after insert on `event` begin ' +
      'insert into `integration_job` (`id`, `organization_id`, `integration_id`, `kind`, `delivery_id`, `payload`, `status`, `attempt_count`, `next_attempt_at`, `created_at`) ' +
      "select 'ijob_' || substr(new.`id`, 5) || lower(hex(randomblob(1))), new.`organization_id`, i.`id`, 'slack.notice', 'evt:' || new.`id`, new.`payload`, 'pending', 0, new.`created_at`, new.`created_at` " +
      "from `integration` i where i.`organization_id` = new.`organization_id` and instr(i.`notify_events`, ',' || new.`type` || ',') > 0; " +
      'end',
  ],
  postgresql: [
    `create table "integration" ("id" varchar(40) not null, "organization_id" varchar(40) not null, "service" varchar(20) not null, "auth" varchar(20) not null, "account" varchar(200) null, "credentials" text not null, "settings" text not null, "notify_events" varchar(200) not null default '', "status" varchar(20) not null, "last_error" varchar(500) null, "last_error_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "integration_pkey" primary key ("id"))`,
    'alter table "integration" add constraint "integration_org_service_unique" unique ("organization_id", "service")',
    'alter table "integration" add constraint "integration_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
    'create table "issue_link" ("id" varchar(40) not null, "organization_id" varchar(40) not null, "integration_id" varchar(40) not null, "post_id" varchar(40) not null, "service" varchar(20) not null, "external_id" varchar(200) not null, "key" varchar(200) not null, "url" varchar(2048) not null, "title" varchar(500) null, "state" varchar(100) null, "created_at" timestamptz(3) not null, constraint "issue_link_pkey" primary key ("id"))',
    'alter table "issue_link" add constraint "issue_link_unique" unique ("integration_id", "external_id", "post_id")',
    'create index "issue_link_post_idx" on "issue_link" ("post_id")',
    'alter table "issue_link" add constraint "issue_link_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
    'alter table "issue_link" add constraint "issue_link_integration_id_foreign" foreign key ("integration_id") references "integration" ("id") on update cascade on delete cascade',
    'alter table "issue_link" add constraint "issue_link_post_id_foreign" foreign key ("post_id") references "post" ("id") on update cascade on delete cascade',
    'create table "integration_job" ("id" varchar(40) not null, "organization_id" varchar(40) not null, "integration_id" varchar(40) not null, "kind" varchar(40) not null, "post_id" varchar(40) null, "delivery_id" varchar(200) null, "payload" text not null, "status" varchar(20) not null, "attempt_count" int not null default 0, "next_attempt_at" timestamptz(3) null, "lease_token" varchar(40) null, "lease_expires_at" timestamptz(3) null, "last_error" varchar(500) null, "created_at" timestamptz(3) not null, "completed_at" timestamptz(3) null, constraint "integration_job_pkey" primary key ("id"))',
    'alter table "integration_job" add constraint "integration_job_delivery_unique" unique ("integration_id", "delivery_id")',
    'create index "integration_job_post_idx" on "integration_job" ("post_id")',
    `create index "integration_job_due_idx" on "integration_job" ("next_attempt_at", "id") where "status" = 'pending'`,
    'alter table "integration_job" add constraint "integration_job_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
    'alter table "integration_job" add constraint "integration_job_integration_id_foreign" foreign key ("integration_id") references "integration" ("id") on update cascade on delete cascade',
    `create function "event_integration_fan_out"() returns trigger language plpgsql as $$
begin
  insert into "integration_job" ("id", "organization_id", "integration_id", "kind", "delivery_id", "payload", "status", "attempt_count", "next_attempt_at", "created_at")
  select 'ijob_' || substr(new."id", 5) || substr(replace(gen_random_uuid()::text, '-', ''), 1, 2), new."organization_id", i."id", 'slack.notice', 'evt:' || new."id", new."payload"::text, 'pending', 0, new."created_at", new."created_at"
  from "integration" i
  where i."organization_id" = new."organization_id" and position(',' || new."type" || ',' in i."notify_events") > 0;
  if found then
    perform pg_notify('feedback_service_delivery', '');
  end if;
  return null;
end
$$`,
    'create trigger "event_integration_fan_out" after insert on "event" for each row execute function "event_integration_fan_out"()',
  ],
});
