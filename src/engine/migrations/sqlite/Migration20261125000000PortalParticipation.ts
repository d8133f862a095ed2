import { Migration } from '@mikro-orm/migrations';

/**
 * Taking part on the portal: the workspace's portal settings (who may take part, moderation, which sites may frame it) and its token-signing secret (sealed; the previous one
 * keeps verifying until its grace period ends), the sessions of signed-in end-users, the one-time email codes, and the index a post page finds its merged posts by.
 */
export class Migration20261125000000PortalParticipation extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table `organization` add column `portal_verified_only` integer not null default false');
    this.addSql('alter table `organization` add column `portal_moderation` integer not null default false');
    this.addSql('alter table `organization` add column `portal_secret` text null');
    this.addSql('alter table `organization` add column `portal_previous_secret` text null');
    this.addSql('alter table `organization` add column `portal_previous_secret_until` datetime null');
    this.addSql("alter table `organization` add column `portal_frame_origins` json not null default '[]'");
    this.addSql(
      'create table `portal_session` (`id` text not null primary key, `organization_id` text not null, `external_user_id` text null, `email` text not null, `name` text null, `verified` integer not null, `created_at` datetime not null, `expires_at` datetime not null, constraint `portal_session_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade)',
    );
    this.addSql('create index `portal_session_expires_idx` on `portal_session` (`expires_at`)');
    this.addSql('create index `portal_session_organization_idx` on `portal_session` (`organization_id`)');
    this.addSql(
      'create table `portal_code` (`id` text not null primary key, `organization_id` text not null, `email` text not null, `name` text null, `code_hash` text not null, `action` text not null, `attempts` integer not null default 0, `created_at` datetime not null, `expires_at` datetime not null, constraint `portal_code_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade)',
    );
    this.addSql('create index `portal_code_expires_idx` on `portal_code` (`expires_at`)');
    this.addSql('create index `portal_code_organization_idx` on `portal_code` (`organization_id`)');
    // A post page lists the posts merged into it: without this, a scan of every post. Partial: nearly every post is
    // merged into nothing, and a full index on that column tells SQLite's planner (after ANALYZE) to scan instead.
    this.addSql('create index `post_merged_into_idx` on `post` (`merged_into_id`) where `merged_into_id` is not null');
  }
}
