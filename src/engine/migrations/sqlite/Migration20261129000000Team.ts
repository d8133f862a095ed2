import { Migration } from '@mikro-orm/migrations';

/**
 * The team console (docs/console.md): team members per workspace with their role, the one-time sign-in links and
 * codes, the team's browser sessions, the audit log of what members did, the team's internal notes on posts, and
 * which comments are the team's official replies, and each workspace's single sign-on (OpenID Connect).
 */
export class Migration20261129000000Team extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table `audit_entry` (`id` text not null, `organization_id` text not null, `actor` text not null, `action` text not null, `resource_type` text null, `resource_id` text null, `ip` text null, `detail` text not null, `created_at` datetime not null, constraint `audit_entry_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade, primary key (`id`))',
    );
    this.addSql('create index `audit_entry_org_created_idx` on `audit_entry` (`organization_id`, `created_at`, `id`)');
    this.addSql('create index `audit_entry_actor_idx` on `audit_entry` (`actor`)');
    this.addSql('create index `audit_entry_resource_idx` on `audit_entry` (`resource_id`)');
    this.addSql(
      'create table `team_member` (`id` text not null, `organization_id` text not null, `email` text not null, `name` text null, `role` text not null, `added_by` text not null, `created_at` datetime not null, `joined_at` datetime null, `posts_seen_at` datetime null, `posts_seen_before` datetime null, constraint `team_member_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade, primary key (`id`))',
    );
    this.addSql('create index `team_member_email_idx` on `team_member` (`email`)');
    this.addSql('create unique index `team_member_org_email_unique` on `team_member` (`organization_id`, `email`)');
    this.addSql(
      'create table `team_session` (`id` text not null, `email` text not null, `method` text not null, `created_at` datetime not null, `seen_at` datetime not null, `expires_at` datetime not null, primary key (`id`))',
    );
    this.addSql('create index `team_session_email_idx` on `team_session` (`email`)');
    this.addSql('create index `team_session_expires_idx` on `team_session` (`expires_at`)');
    this.addSql(
      'create table `team_sign_in` (`id` text not null, `email` text not null, `token_hash` text not null, `code_hash` text not null, `attempts` integer not null default 0, `created_at` datetime not null, `expires_at` datetime not null, primary key (`id`))',
    );
    this.addSql('create index `team_sign_in_expires_idx` on `team_sign_in` (`expires_at`)');
    this.addSql('create unique index `team_sign_in_token_unique` on `team_sign_in` (`token_hash`)');
    this.addSql(
      'create table `post_note` (`id` text not null, `organization_id` text not null, `post_id` text not null, `author_email` text not null, `body_text` text not null, `created_at` datetime not null, constraint `post_note_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade, constraint `post_note_post_id_foreign` foreign key(`post_id`) references `post`(`id`) on delete cascade on update cascade, primary key (`id`))',
    );
    this.addSql('create index `post_note_post_created_idx` on `post_note` (`post_id`, `created_at`, `id`)');
    this.addSql('create index `post_note_author_idx` on `post_note` (`author_email`)');
    this.addSql(
      'create table `workspace_sso` (`organization_id` text not null, `issuer` text not null, `client_id` text not null, `client_secret` text not null, `allowed_domains` text not null, `updated_at` datetime not null, constraint `workspace_sso_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade, primary key (`organization_id`))',
    );
    this.addSql('alter table `comment` add column `official` integer not null default false');
  }
}
