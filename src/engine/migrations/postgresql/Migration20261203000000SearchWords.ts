import { PostgresqlMigration } from './migration.js';

/**
 * A prefix term of a post search (`dark mo` while typing, and every word typed, since `export` also finds "exports")
 * was a partial match in the GIN index: PostgreSQL gathers every post of every word with that prefix into a bitmap
 * before it can intersect it with the other terms, and cannot skip through it as it does through a whole word's list.
 * At a million posts a common word typed whole took a board's search to 25 ms, 21 of them in that gathering.
 *
 * `post_search_word` lists the words (lexemes) of each workspace's posts, so that a search can name the few words a
 * prefix stands for and ask the index for them whole (store/tables/search.ts): the same posts, found by a skipping scan. A
 * trigger on `post_search` adds a document's new words in the transaction of every write; the words of the posts the
 * workspace already holds are added here. Words stay when their last post goes: the list says which words were ever
 * written in a workspace, not where, and a word no post holds only finds nothing. It goes with its workspace.
 */
export class Migration20261203000000SearchWords extends PostgresqlMigration {
  override async up(): Promise<void> {
    this.addSql(`create table "post_search_word" (
      "organization_id" varchar(40) not null references "organization" ("id") on delete cascade,
      "word" text collate "C" not null,
      primary key ("organization_id", "word"))`);
    this.addSql(`create function "post_search_word_write"() returns trigger language plpgsql as $$
      begin
        insert into "post_search_word" ("organization_id", "word")
        select new."organization_id", w from unnest(tsvector_to_array(new."document")) w
        on conflict do nothing;
        return null;
      end $$`);
    this.addSql(
      'create trigger "post_search_word_insert" after insert on "post_search" for each row execute function "post_search_word_write"()',
    );
    this.addSql(
      'create trigger "post_search_word_update" after update of "organization_id", "document" on "post_search" for each row execute function "post_search_word_write"()',
    );
    this.addSql(
      `insert into "post_search_word" ("organization_id", "word")
       select distinct s."organization_id", w from "post_search" s, unnest(tsvector_to_array(s."document")) w`,
    );
  }
}
