import { PostgresqlMigration } from './migration.js';

/**
 * The public portal: a workspace's public handle and whether its portal is on; the display name an end-user gives
 * with a post or comment; the index a board's Top page seeks on.
 */
export class Migration20261124000000Portal extends PostgresqlMigration {
  override async up(): Promise<void> {
    this.addSql(
      'alter table "organization" add column "handle" varchar(40) null, add column "portal_enabled" boolean not null default false',
    );
    this.addSql('alter table "organization" add constraint "organization_handle_unique" unique ("handle")');
    this.addSql('alter table "post" add column "author_name" varchar(200) null');
    this.addSql('alter table "comment" add column "author_name" varchar(200) null');
    this.addSql('create index "post_board_votes_idx" on "post" ("board_id", "vote_count", "id")');
  }
}
