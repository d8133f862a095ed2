import { Migration } from '@mikro-orm/migrations';

/**
 * The console, part 2 (docs/console.md): the roadmap's columns in order (an index of a workspace's posts by status and
 * roadmap order), a contact's comments, the portal's branding (logo and accent colour), and the posts a changelog entry ships.
 */
export class Migration20261201000000Console extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index `comment_contact_idx` on `comment` (`contact_id`, `created_at`)');
    this.addSql(
      'create index `post_org_status_roadmap_idx` on `post` (`organization_id`, `status`, `roadmap_order`, `vote_count`, `id`)',
    );
    this.addSql('alter table `organization` add column `portal_logo_url` text null');
    this.addSql('alter table `organization` add column `portal_accent` text null');
    this.addSql(
      'create table `changelog_entry_post` (`entry_id` text not null, `post_id` text not null, constraint `changelog_entry_post_entry_id_foreign` foreign key(`entry_id`) references `changelog_entry`(`id`) on delete cascade on update cascade, constraint `changelog_entry_post_post_id_foreign` foreign key(`post_id`) references `post`(`id`) on delete cascade on update cascade, primary key (`entry_id`, `post_id`))',
    );
    this.addSql('create index `changelog_entry_post_post_idx` on `changelog_entry_post` (`post_id`)');
  }
}
