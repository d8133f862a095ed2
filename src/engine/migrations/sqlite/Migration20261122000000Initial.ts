import { Migration } from '@mikro-orm/migrations';

/** The foundation schema: organizations, keys, contacts, boards, posts, votes, comments, events. */
export class Migration20261122000000Initial extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table `organization` (`id` text not null, `name` text not null, `plan` text not null, `billing_state` text not null, `contact_cap_override` integer not null default false, `contact_cap` integer null, `rate_limit` integer null, `admin_emails` json not null, `created_at` datetime not null, `updated_at` datetime not null, primary key (`id`))',
    );
    this.addSql(
      'create table `event` (`id` text not null, `organization_id` text not null, `type` text not null, `payload` text not null, `created_at` datetime not null, constraint `event_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade, primary key (`id`))',
    );
    this.addSql('create index `event_organization_id_index` on `event` (`organization_id`)');
    this.addSql('create index `event_org_created_idx` on `event` (`organization_id`, `created_at`, `id`)');
    this.addSql(
      'create table `contact` (`id` text not null, `organization_id` text not null, `external_user_id` text null, `email` text null, `email_hash` text null, `name` text null, `plan` text null, `mrr_cents` integer null, `currency` text null, `metadata` json not null, `source` text not null, `consent_basis` text not null, `first_seen_at` datetime not null, `last_seen_at` datetime not null, `created_at` datetime not null, `updated_at` datetime not null, constraint `contact_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade, primary key (`id`))',
    );
    this.addSql('create index `contact_organization_id_index` on `contact` (`organization_id`)');
    this.addSql('create index `contact_org_created_idx` on `contact` (`organization_id`, `created_at`, `id`)');
    this.addSql('create index `contact_org_last_seen_idx` on `contact` (`organization_id`, `last_seen_at`, `id`)');
    this.addSql('create index `contact_org_mrr_idx` on `contact` (`organization_id`, `mrr_cents`, `id`)');
    this.addSql('create index `contact_org_email_hash_idx` on `contact` (`organization_id`, `email_hash`)');
    this.addSql(
      'create unique index `contact_org_external_user_id_unique` on `contact` (`organization_id`, `external_user_id`)',
    );
    this.addSql(
      'create table `board` (`id` text not null, `organization_id` text not null, `name` text not null, `slug` text not null, `is_public` integer not null default true, `created_at` datetime not null, `updated_at` datetime not null, constraint `board_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade, primary key (`id`))',
    );
    this.addSql('create index `board_organization_id_index` on `board` (`organization_id`)');
    this.addSql('create unique index `board_org_slug_unique` on `board` (`organization_id`, `slug`)');
    this.addSql(
      'create table `api_key` (`id` text not null, `organization_id` text not null, `key_hash` text not null, `scope` text not null, `revoked_at` datetime null, `created_at` datetime not null, constraint `api_key_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade, primary key (`id`))',
    );
    this.addSql('create index `api_key_organization_id_index` on `api_key` (`organization_id`)');
    this.addSql('create unique index `api_key_key_hash_unique` on `api_key` (`key_hash`)');
    this.addSql(
      'create table `post` (`id` text not null, `organization_id` text not null, `board_id` text not null, `contact_id` text null, `author_user_id` text null, `title` text not null, `slug` text not null, `body` text not null, `body_text` text not null, `status` text not null, `moderation_status` text not null, `hide_from_roadmap` integer not null default false, `roadmap_order` integer null, `merged_into_id` text null, `comment_count` integer not null default 0, `vote_count` integer not null default 0, `created_at` datetime not null, `updated_at` datetime not null, `deleted_at` datetime null, constraint `post_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade, constraint `post_board_id_foreign` foreign key(`board_id`) references `board`(`id`) on delete cascade on update cascade, constraint `post_contact_id_foreign` foreign key(`contact_id`) references `contact`(`id`) on delete set null on update cascade, primary key (`id`))',
    );
    this.addSql('create index `post_organization_id_index` on `post` (`organization_id`)');
    this.addSql('create index `post_board_id_index` on `post` (`board_id`)');
    this.addSql('create index `post_contact_id_index` on `post` (`contact_id`)');
    this.addSql('create index `post_contact_created_idx` on `post` (`contact_id`, `created_at`, `id`)');
    this.addSql('create index `post_board_created_idx` on `post` (`board_id`, `created_at`, `id`)');
    this.addSql('create unique index `post_board_slug_unique` on `post` (`board_id`, `slug`)');
    this.addSql(
      'create table `comment` (`id` text not null, `organization_id` text not null, `post_id` text not null, `parent_id` text null, `author_user_id` text null, `email_hash` text null, `contact_id` text null, `body_text` text not null, `created_at` datetime not null, constraint `comment_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade, constraint `comment_post_id_foreign` foreign key(`post_id`) references `post`(`id`) on delete cascade on update cascade, primary key (`id`))',
    );
    this.addSql('create index `comment_organization_id_index` on `comment` (`organization_id`)');
    this.addSql('create index `comment_post_id_index` on `comment` (`post_id`)');
    this.addSql('create index `comment_org_email_hash_idx` on `comment` (`organization_id`, `email_hash`)');
    this.addSql('create index `comment_post_created_idx` on `comment` (`post_id`, `created_at`)');
    this.addSql(
      'create table `vote` (`id` text not null, `organization_id` text not null, `post_id` text not null, `user_id` text null, `email_hash` text null, `voter_key` text not null, `contact_id` text null, `created_at` datetime not null, constraint `vote_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade, constraint `vote_post_id_foreign` foreign key(`post_id`) references `post`(`id`) on delete cascade on update cascade, primary key (`id`))',
    );
    this.addSql('create index `vote_organization_id_index` on `vote` (`organization_id`)');
    this.addSql('create index `vote_post_id_index` on `vote` (`post_id`)');
    this.addSql('create index `vote_org_email_hash_idx` on `vote` (`organization_id`, `email_hash`)');
    this.addSql('create unique index `vote_post_voter_unique` on `vote` (`post_id`, `voter_key`)');
  }
}
