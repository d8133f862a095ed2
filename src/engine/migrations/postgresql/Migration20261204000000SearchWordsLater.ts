import { PostgresqlMigration } from './migration.js';

/**
 * A post's write no longer adds its words to `post_search_word` (Migration20261203000000SearchWords) itself: it names
 * the post in `post_search_word_pending`, one small row, and `search.indexPending` (a scheduler chore, every minute)
 * adds the words of the posts named there. Looking each of a post's 40-odd words up in the list was about 125 us of
 * server CPU per post creation (perf, 2026-11-27), two fifths of what keeping the search in step cost it.
 *
 * A search stays exact meanwhile: it reads the words a prefix stands for from the list and from the documents of the
 * posts still named (store/tables/search.ts), so a word written a moment ago is found as before.
 *
 * No foreign key: one would cost each write a lookup of its workspace. The rows of a deleted workspace's posts are
 * dropped by the next chore, which finds no document for them.
 */
export class Migration20261204000000SearchWordsLater extends PostgresqlMigration {
  override async up(): Promise<void> {
    this.addSql(`create table "post_search_word_pending" (
      "organization_id" varchar(40) not null,
      "post_id" varchar(40) not null,
      primary key ("organization_id", "post_id"))`);
    this.addSql(`create or replace function "post_search_word_write"() returns trigger language plpgsql as $$
      begin
        insert into "post_search_word_pending" ("organization_id", "post_id") values (new."organization_id", new."post_id")
        on conflict do nothing;
        return null;
      end $$`);
  }
}
