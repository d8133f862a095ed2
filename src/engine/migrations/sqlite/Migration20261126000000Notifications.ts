import { Migration } from '@mikro-orm/migrations';

/**
 * Consent in practice (docs/privacy.md): the mail outbox, the topics contacts subscribe to, their unsubscribes and
 * digest preference, the suppression list erasures leave, the workspace's switch for mailing admin-created contacts
 * and its suppression salt, and when an event's payload was redacted.
 */
export class Migration20261126000000Notifications extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table `organization` add column `notify_admin_created` integer not null default false');
    this.addSql('alter table `organization` add column `privacy_salt` text null');
    this.addSql('alter table `event` add column `redacted_at` datetime null');
    this.addSql(
      'create table `mail` (`id` text not null, `organization_id` text not null, `change_id` text not null, `kind` text not null, `contact_id` text null, `email` text not null, `email_hash` text not null, `payload` text not null, `status` text not null, `attempt_count` integer not null default 0, `next_attempt_at` datetime null, `lease_token` text null, `lease_expires_at` datetime null, `message_id` text null, `sent_at` datetime null, `failed_at` datetime null, `error` text null, `created_at` datetime not null, constraint `mail_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade, primary key (`id`))',
    );
    this.addSql(
      'create unique index `mail_change_recipient_unique` on `mail` (`organization_id`, `change_id`, `email_hash`)',
    );
    this.addSql('create index `mail_recipient_idx` on `mail` (`organization_id`, `email_hash`, `created_at`)');
    this.addSql('create index `mail_contact_idx` on `mail` (`contact_id`)');
    // What the mail lane claims: pending rows by due time.
    this.addSql("create index `mail_due_idx` on `mail` (`next_attempt_at`, `id`) where `status` = 'pending'");
    // What the retention sweep deletes: settled rows by age.
    this.addSql("create index `mail_settled_idx` on `mail` (`created_at`) where `status` <> 'pending'");
    this.addSql(
      'create table `mail_subscription` (`contact_id` text not null, `topic` text not null, `organization_id` text not null, `via` text not null, `created_at` datetime not null, constraint `mail_subscription_contact_id_foreign` foreign key(`contact_id`) references `contact`(`id`) on delete cascade on update cascade, constraint `mail_subscription_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade, primary key (`contact_id`, `topic`))',
    );
    this.addSql('create index `mail_subscription_topic_idx` on `mail_subscription` (`organization_id`, `topic`)');
    this.addSql(
      'create table `mail_unsubscribe` (`id` text not null, `organization_id` text not null, `email_hash` text not null, `contact_id` text null, `topic` text not null, `via` text not null, `created_at` datetime not null, `undone_at` datetime null, constraint `mail_unsubscribe_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade, primary key (`id`))',
    );
    this.addSql(
      'create index `mail_unsubscribe_recipient_idx` on `mail_unsubscribe` (`organization_id`, `email_hash`)',
    );
    this.addSql(
      'create table `mail_preference` (`organization_id` text not null, `email_hash` text not null, `digest` text not null, `updated_at` datetime not null, constraint `mail_preference_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade, primary key (`organization_id`, `email_hash`))',
    );
    this.addSql(
      'create table `suppression` (`organization_id` text not null, `contact_id` text not null, `digest` text not null, `pending_event_id` text null, `created_at` datetime not null, constraint `suppression_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade, primary key (`organization_id`, `contact_id`))',
    );
    this.addSql('create index `suppression_digest_idx` on `suppression` (`organization_id`, `digest`)');
    this.addSql(
      'create index `suppression_pending_event_idx` on `suppression` (`pending_event_id`) where `pending_event_id` is not null',
    );
  }
}
