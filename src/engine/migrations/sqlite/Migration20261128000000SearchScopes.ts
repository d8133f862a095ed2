import { Migration } from '@mikro-orm/migrations';
import { SQLITE_POST_FLUSH } from '../../store/tables/search.js';

/**
 * Post search by rowid range (docs/search.md): the FTS5 table of the first search migration held a `scope` column,
 * the post's workspace and board as tokens, which every search ANDed with its words. At a million posts in one
 * workspace, walking that token's posting list cost more than the words' (a 13 ms count against 1.6 ms), and BM25
 * scored it too. Now a post's rowid places it: its workspace's number, its board's slot, then a sequence, so a search
 * in a board or a workspace is one rowid range, which FTS5 seeks to in each word's list.
 *
 * Also prefix indexes of 2 and 3 characters: a short last word while typing reads one list instead of merging the lists
 * of every word that starts with it (at a million posts, a board's p95 went from 125 ms to 30).
 *
 * The table is rebuilt here from every post, in the migration's transaction. Also the workspace's `search_language`,
 * which PostgreSQL reads its posts with; SQLite reads every language alike (the column keeps the two schemas one).
 */
export class Migration20261128000000SearchScopes extends Migration {
  override async up(): Promise<void> {
    this.addSql("alter table `organization` add column `search_language` text not null default 'simple'");
    this.addSql('drop table `post_search`');
    this.addSql('drop table `post_search_key`');
    this.addSql(
      'create table `post_search_workspace` (`n` integer primary key, `organization_id` text not null unique)',
    );
    this.addSql(
      'create table `post_search_board` (`board_id` text not null primary key, `base` integer not null unique)',
    );
    this.addSql('create table `post_search_key` (`rowid` integer primary key, `post_id` text not null unique)');
    this.addSql(
      "create virtual table `post_search` using fts5(`title`, `body`, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3')",
    );
    // post_search_delete (the first search migration) names these tables by name, so it works on the new ones.
    this.addSql("insert or ignore into `search_pending` (`kind`, `id`) select 'post', `id` from `post`");
    for (const statement of SQLITE_POST_FLUSH) this.addSql(statement);
    this.addSql("delete from `search_pending` where `kind` = 'post'");
  }
}
