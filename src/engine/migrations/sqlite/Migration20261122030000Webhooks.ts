import { Migration } from '@mikro-orm/migrations';

/**
 * Webhooks, deliveries and their attempt log, and the fan-out: a trigger turns every event row into one
 * pending delivery per enabled webhook of the workspace that subscribes to its kind, inside the statement
 * (and so the transaction) that wrote the event.
 */
export class Migration20261122030000Webhooks extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table `webhook` (`id` text not null, `organization_id` text not null, `url` text not null, `events` text not null, `description` text null, `secret` text not null, `enabled` integer not null default true, `consecutive_failures` integer not null default 0, `disabled_at` datetime null, `created_at` datetime not null, `updated_at` datetime not null, constraint `webhook_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade, primary key (`id`))',
    );
    this.addSql('create index `webhook_org_created_idx` on `webhook` (`organization_id`, `created_at`, `id`)');
    this.addSql(
      'create table `delivery` (`id` text not null, `organization_id` text not null, `webhook_id` text not null, `event_id` text not null, `event_type` text not null, `status` text not null, `attempt_count` integer not null default 0, `next_attempt_at` datetime null, `lease_token` text null, `lease_expires_at` datetime null, `succeeded_at` datetime null, `failed_at` datetime null, `failure_reason` text null, `replay_of_id` text null, `created_at` datetime not null, constraint `delivery_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade, constraint `delivery_webhook_id_foreign` foreign key(`webhook_id`) references `webhook`(`id`) on delete cascade on update cascade, primary key (`id`))',
    );
    this.addSql('create index `delivery_webhook_created_idx` on `delivery` (`webhook_id`, `created_at`, `id`)');
    // What the scheduler claims: per webhook, its pending deliveries by due time (one seek per webhook).
    this.addSql(
      "create index `delivery_pending_idx` on `delivery` (`webhook_id`, `next_attempt_at`, `id`) where `status` = 'pending'",
    );
    this.addSql(
      'create table `delivery_attempt` (`delivery_id` text not null, `number` integer not null, `attempted_at` datetime not null, `status_code` integer null, `error` text null, `duration_ms` integer not null, `response_body` text null, constraint `delivery_attempt_delivery_id_foreign` foreign key(`delivery_id`) references `delivery`(`id`) on delete cascade on update cascade, primary key (`delivery_id`, `number`))',
    );
    // Delivery ids keep the event's time part (time-sortable) and add 64 random bits.
    this.addSql(
      'create trigger `event_fan_out` after insert on `event` begin ' +
        'insert into `delivery` (`id`, `organization_id`, `webhook_id`, `event_id`, `event_type`, `status`, `attempt_count`, `next_attempt_at`, `created_at`) ' +
        "select 'dlv_' || substr(new.`id`, 5, 10) || lower(hex(randomblob(8))), new.`organization_id`, w.`id`, new.`id`, new.`type`, 'pending', 0, new.`created_at`, new.`created_at` " +
        "from `webhook` w where w.`organization_id` = new.`organization_id` and w.`enabled` = 1 and instr(w.`events`, ',' || new.`type` || ',') > 0; " +
        'end',
    );
  }
}
