import { Migration } from '@mikro-orm/migrations';

/** Tags (at most three per post) and changelog entries per board. */
export class Migration20261122020000TagsChangelog extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table `changelog_entry` (`id` text not null, `organization_id` text not null, `board_id` text not null, `title` text not null, `slug` text not null, `body` text not null, `status` text not null, `published_at` datetime null, `created_at` datetime not null, `updated_at` datetime not null, constraint `changelog_entry_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade, constraint `changelog_entry_board_id_foreign` foreign key(`board_id`) references `board`(`id`) on delete cascade on update cascade, primary key (`id`))',
    );
    this.addSql('create index `changelog_entry_organization_id_index` on `changelog_entry` (`organization_id`)');
    this.addSql('create index `changelog_entry_board_id_index` on `changelog_entry` (`board_id`)');
    this.addSql('create index `changelog_board_created_idx` on `changelog_entry` (`board_id`, `created_at`, `id`)');
    this.addSql('create unique index `changelog_board_slug_unique` on `changelog_entry` (`board_id`, `slug`)');
    this.addSql(
      'create table `tag` (`id` text not null, `organization_id` text not null, `name` text not null, `slug` text not null, `created_at` datetime not null, constraint `tag_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade, primary key (`id`))',
    );
    this.addSql('create index `tag_organization_id_index` on `tag` (`organization_id`)');
    this.addSql('create unique index `tag_org_slug_unique` on `tag` (`organization_id`, `slug`)');
    this.addSql(
      'create table `post_tag` (`post_id` text not null, `tag_id` text not null, constraint `post_tag_post_id_foreign` foreign key(`post_id`) references `post`(`id`) on delete cascade on update cascade, constraint `post_tag_tag_id_foreign` foreign key(`tag_id`) references `tag`(`id`) on delete cascade on update cascade, primary key (`post_id`, `tag_id`))',
    );
    this.addSql('create index `post_tag_post_id_index` on `post_tag` (`post_id`)');
    this.addSql('create index `post_tag_tag_id_index` on `post_tag` (`tag_id`)');
  }
}
