import { Migration } from '@mikro-orm/migrations';

/**
 * The public portal: a workspace's public handle and whether its portal is on; the display name an end-user gives
 * with a post or comment; the index a board's Top page seeks on.
 */
export class Migration20261124000000Portal extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table `organization` add column `handle` text null');
    this.addSql('alter table `organization` add column `portal_enabled` integer not null default false');
    this.addSql('create unique index `organization_handle_unique` on `organization` (`handle`)');
    this.addSql('alter table `post` add column `author_name` text null');
    this.addSql('alter table `comment` add column `author_name` text null');
    this.addSql('create index `post_board_votes_idx` on `post` (`board_id`, `vote_count`, `id`)');
  }
}
