import { PostgresqlMigration } from './migration.js';

/**
 * The portal's board pages walk an index in their order whatever the statistics say: partial indexes over exactly the
 * posts a board shows, in Top's and New's orders. Before any ANALYZE (a freshly loaded workspace, or autovacuum off)
 * the planner took a board for a dozen rows and sorted a bitmap scan instead: 30 ms a page at 30,000 posts, 0.6 ms
 * with statistics; with these, 0.6 ms either way. SQLite plans these pages from its indexes without statistics.
 */
export class Migration20261127010000ShownPostIndexes extends PostgresqlMigration {
  override async up(): Promise<void> {
    const shown = `where "deleted_at" is null and "moderation_status" = 'approved' and "merged_into_id" is null`;
    this.addSql(
      `create index "post_board_shown_votes_idx" on "post" ("board_id", "vote_count" desc, "id" desc) ${shown}`,
    );
    this.addSql(
      `create index "post_board_shown_created_idx" on "post" ("board_id", "created_at" desc, "id" desc) ${shown}`,
    );
  }
}
