import { Migration } from '@mikro-orm/migrations';

/**
 * Signing in, made safe (docs/security.md): a session records what proved it (a mailed code or link proves the
 * address; single sign-on proves it for the one workspace whose provider vouched), a workspace's single sign-on domains
 * each verified before the shared sign-in page sends anyone to it, wrong codes counted per address across codes, and
 * the mail outbox able to carry the console's own mail (a sign-in code belongs to no workspace).
 *
 * Sessions that single sign-on made before this cannot say which workspace vouched for them: they end. Sessions of a
 * mailed code or link keep their address proven. Existing single sign-on domains start unverified.
 */
export class Migration20261205000000SignInSecurity extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table `code_failure` (`id` text not null, `scope` text not null, `email_hash` text not null, `created_at` datetime not null, primary key (`id`))',
    );
    this.addSql('create index `code_failure_scope_email_idx` on `code_failure` (`scope`, `email_hash`, `created_at`)');
    this.addSql('create index `code_failure_created_idx` on `code_failure` (`created_at`)');

    // SQLite cannot drop NOT NULL from a column: the outbox is rebuilt with organization_id nullable.
    this.addSql(
      'create table `mail__new` (`id` text not null, `organization_id` text null, `change_id` text not null, `kind` text not null, `contact_id` text null, `email` text not null, `email_hash` text not null, `payload` text not null, `status` text not null, `attempt_count` integer not null default 0, `next_attempt_at` datetime null, `lease_token` text null, `lease_expires_at` datetime null, `message_id` text null, `sent_at` datetime null, `failed_at` datetime null, `error` text null, `created_at` datetime not null, constraint `mail_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade, primary key (`id`))',
    );
    this.addSql(
      'insert into `mail__new` (`id`, `organization_id`, `change_id`, `kind`, `contact_id`, `email`, `email_hash`, `payload`, `status`, `attempt_count`, `next_attempt_at`, `lease_token`, `lease_expires_at`, `message_id`, `sent_at`, `failed_at`, `error`, `created_at`) ' +
        'select `id`, `organization_id`, `change_id`, `kind`, `contact_id`, `email`, `email_hash`, `payload`, `status`, `attempt_count`, `next_attempt_at`, `lease_token`, `lease_expires_at`, `message_id`, `sent_at`, `failed_at`, `error`, `created_at` from `mail`',
    );
    this.addSql('drop table `mail`');
    this.addSql('alter table `mail__new` rename to `mail`');
    this.addSql(
      'create unique index `mail_change_recipient_unique` on `mail` (`organization_id`, `change_id`, `email_hash`)',
    );
    this.addSql('create index `mail_recipient_idx` on `mail` (`organization_id`, `email_hash`, `created_at`)');
    this.addSql('create index `mail_contact_idx` on `mail` (`contact_id`)');
    this.addSql('create index "mail_due_idx" on "mail" ("next_attempt_at", "id") where "status" = \'pending\'');
    this.addSql('create index "mail_settled_idx" on "mail" ("created_at") where "status" <> \'pending\'');
    this.addSql(
      'create index "mail_console_due_idx" on "mail" ("next_attempt_at", "id") where "status" = \'pending\' and "organization_id" is null',
    );

    this.addSql('alter table `team_session` add column `address_proven_at` datetime null');
    this.addSql("update `team_session` set `address_proven_at` = `created_at` where `method` in ('code', 'link')");
    this.addSql("delete from `team_session` where `method` = 'sso'");
    this.addSql(
      'create table `team_session_sso` (`session_id` text not null, `organization_id` text not null, `issuer` text not null, `proven_at` datetime not null, constraint `team_session_sso_session_id_foreign` foreign key(`session_id`) references `team_session`(`id`) on delete cascade on update cascade, constraint `team_session_sso_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade, primary key (`session_id`, `organization_id`))',
    );

    this.addSql(
      'create table `sso_domain` (`organization_id` text not null, `domain` text not null, `token` text not null, `verified_at` datetime null, `verified_by` text null, `created_at` datetime not null, constraint `sso_domain_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade, primary key (`organization_id`, `domain`))',
    );
    this.addSql(
      'create unique index "sso_domain_verified_unique" on "sso_domain" ("domain") where "verified_at" is not null',
    );
    this.addSql(
      'insert into `sso_domain` (`organization_id`, `domain`, `token`, `created_at`) select distinct s.`organization_id`, d.`value`, lower(hex(randomblob(16))), s.`updated_at` from `workspace_sso` s, json_each(s.`allowed_domains`) d',
    );
    this.addSql('alter table `workspace_sso` add column `enforced` integer not null default false');
    this.addSql('alter table `workspace_sso` drop column `allowed_domains`');
  }
}
