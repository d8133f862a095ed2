import { Migration } from '@mikro-orm/migrations';

/**
 * Full-text search (docs/search.md) with SQLite's FTS5, kept in step with the posts and contacts by triggers in the
 * transaction of every write, cascades and erasures included:
 *
 * - a delete takes the row's search entry out at once (an erased person is in no search table once the erasure
 *   commits);
 * - an insert, or a change of the words, marks the row in `search_pending`: one small write. The FTS5 index is brought
 *   up to date from the pending rows in one transaction before any search reads it (and by a scheduler chore), because
 *   an FTS5 write costs about 0.1 ms per transaction, which would have cost a new contact's identify a third of its
 *   throughput.
 *
 * - `post_search`: a post's title and body (unicode61, accents folded), and a `scope` column holding its workspace and
 *   board as one token each, so a search in one board intersects that board's posting list instead of filtering
 *   every match in the database.
 * - `contact_search`: a contact's email and name as trigrams, for `GET /v1/contacts?q=` (a substring of either).
 *
 * An FTS5 row is found by its integer rowid; posts and contacts have text ids (and rowids that VACUUM may renumber),
 * so `*_search_key` gives each a rowid of its own. MikroORM does not manage these tables (orm.ts skips them).
 */
export class Migration20261127000000Search extends Migration {
  override async up(): Promise<void> {
    this.addSql('create table `post_search_key` (`rowid` integer primary key, `post_id` text not null unique)');
    this.addSql(
      "create virtual table `post_search` using fts5(`scope`, `title`, `body`, tokenize = 'unicode61 remove_diacritics 2')",
    );
    this.addSql(
      'create table `search_pending` (`kind` text not null, `id` text not null, primary key (`kind`, `id`)) without rowid',
    );
    this.addSql(
      "create trigger `post_search_insert` after insert on `post` begin insert or ignore into `search_pending` values ('post', new.`id`); end",
    );
    this.addSql(
      "create trigger `post_search_update` after update of `title`, `body_text`, `board_id` on `post` begin insert or ignore into `search_pending` values ('post', new.`id`); end",
    );
    this.addSql(
      `create trigger \`post_search_delete\` after delete on \`post\` begin
        delete from \`post_search\` where \`rowid\` = (select \`rowid\` from \`post_search_key\` where \`post_id\` = old.\`id\`);
        delete from \`post_search_key\` where \`post_id\` = old.\`id\`;
        delete from \`search_pending\` where \`kind\` = 'post' and \`id\` = old.\`id\`;
      end`,
    );
    this.addSql('insert into `post_search_key` (`post_id`) select `id` from `post` order by `created_at`, `id`');
    this.addSql(
      "insert into `post_search` (`rowid`, `scope`, `title`, `body`) select k.`rowid`, replace(p.`organization_id`, '_', '') || ' ' || replace(p.`board_id`, '_', ''), p.`title`, p.`body_text` from `post` p join `post_search_key` k on k.`post_id` = p.`id`",
    );

    this.addSql('create table `contact_search_key` (`rowid` integer primary key, `contact_id` text not null unique)');
    this.addSql("create virtual table `contact_search` using fts5(`email`, `name`, tokenize = 'trigram')");
    // A deleted contact's trigrams are removed from the index's pages, not only marked deleted (erasure).
    this.addSql("insert into `contact_search` (`contact_search`, `rank`) values ('secure-delete', 1)");
    this.addSql(
      "create trigger `contact_search_insert` after insert on `contact` begin insert or ignore into `search_pending` values ('contact', new.`id`); end",
    );
    this.addSql(
      "create trigger `contact_search_update` after update of `email`, `name` on `contact` begin insert or ignore into `search_pending` values ('contact', new.`id`); end",
    );
    this.addSql(
      `create trigger \`contact_search_delete\` after delete on \`contact\` begin
        delete from \`contact_search\` where \`rowid\` = (select \`rowid\` from \`contact_search_key\` where \`contact_id\` = old.\`id\`);
        delete from \`contact_search_key\` where \`contact_id\` = old.\`id\`;
        delete from \`search_pending\` where \`kind\` = 'contact' and \`id\` = old.\`id\`;
      end`,
    );
    this.addSql(
      'insert into `contact_search_key` (`contact_id`) select `id` from `contact` order by `created_at`, `id`',
    );
    this.addSql(
      'insert into `contact_search` (`rowid`, `email`, `name`) select k.`rowid`, c.`email`, c.`name` from `contact` c join `contact_search_key` k on k.`contact_id` = c.`id`',
    );
  }
}
