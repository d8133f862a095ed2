import { PostgresqlMigration } from './migration.js';

/**
 * Post search reads a table of its own (docs/search.md): `post_search` holds each post's workspace, board and words as
 * a stored tsvector, kept by a trigger in the transaction of every write of a post's title, body or board (a deleted
 * post's row goes with it). The first search migration indexed an expression over `post`, so ranking a match with
 * `ts_rank` parsed the post's text again and read its wide row: at a million posts, 71 ms for a workspace search's
 * first page against 24 ms from the stored vectors. The GIN index keeps the ids beside the words (btree_gin), so one
 * workspace's or board's search is one index scan whatever the other workspaces hold.
 *
 * The words are read in the workspace's `search_language`, a text search configuration (`simple` by default: words
 * split and case folded, for any language; `english` and the others stem). Changing it indexes the workspace again.
 *
 * The table is filled here from every post, in the migration's transaction.
 */
export class Migration20261128000000SearchDocuments extends PostgresqlMigration {
  override async up(): Promise<void> {
    this.addSql('alter table "organization" add column "search_language" varchar(40) not null default \'simple\'');
    this.addSql('drop index "post_search_idx"');
    this.addSql(`create table "post_search" (
      "post_id" text not null primary key references "post" ("id") on delete cascade,
      "organization_id" text not null,
      "board_id" text not null,
      "document" tsvector not null)`);
    this.addSql(`create function "post_search_write"() returns trigger language plpgsql as $$
      begin
        insert into "post_search" ("post_id", "organization_id", "board_id", "document")
        values (new."id", new."organization_id", new."board_id", to_tsvector(
          (select o."search_language"::regconfig from "organization" o where o."id" = new."organization_id"), new."title" || ' ' || new."body_text"))
        on conflict ("post_id") do update set "organization_id" = excluded."organization_id", "board_id" = excluded."board_id", "document" = excluded."document";
        return null;
      end $$`);
    this.addSql(
      'create trigger "post_search_insert" after insert on "post" for each row execute function "post_search_write"()',
    );
    this.addSql(
      'create trigger "post_search_update" after update of "title", "body_text", "board_id" on "post" for each row execute function "post_search_write"()',
    );
    this.addSql(
      `insert into "post_search" ("post_id", "organization_id", "board_id", "document")
       select p."id", p."organization_id", p."board_id", to_tsvector(o."search_language"::regconfig, p."title" || ' ' || p."body_text")
       from "post" p join "organization" o on o."id" = p."organization_id"`,
    );
    this.addSql(
      'create index "post_search_document_idx" on "post_search" using gin ("organization_id", "board_id", "document")',
    );
  }
}
