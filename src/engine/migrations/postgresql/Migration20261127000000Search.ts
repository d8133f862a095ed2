import { PostgresqlMigration } from './migration.js';

/**
 * Full-text search (docs/search.md) with PostgreSQL's own engine: a GIN index over each post's workspace, board and
 * words (`to_tsvector('simple', title || ' ' || body_text)`, btree_gin for the ids), so a search in one board or one
 * workspace is one index scan whatever the other workspaces hold. Contacts keep the trigram indexes of the first
 * migration, which `GET /v1/contacts?q=` (a substring of email or name) uses.
 */
export class Migration20261127000000Search extends PostgresqlMigration {
  override async up(): Promise<void> {
    this.addSql('create extension if not exists btree_gin');
    this.addSql(
      `create index "post_search_idx" on "post" using gin ("organization_id", "board_id", (to_tsvector('simple'::regconfig, "title" || ' ' || "body_text")))`,
    );
  }
}
