import { PostgresqlMigration } from './migration.js';

/**
 * The posts' GIN index keeps its pending list (the entries of recent writes not yet merged into the index, which every
 * search reads through, whole) at 64 kB instead of PostgreSQL's 4 MB. Measured after 100,000 posts were loaded: a
 * pending list of 204 pages cost every search about 2.7 ms (a board's ranked matches 5.6 ms against 2.8 once merged),
 * until autovacuum merged it. A write that fills the list merges it, so the list stays short whatever autovacuum does.
 * 64 kB is the least PostgreSQL allows. What it costs a post's write was not told apart from the noise: the server's
 * CPU per post creation with the search kept in step measured 2,424 us with 4 MB, 2,268 with 64 kB, 2,405 with 256
 * (docs/benchmarks.md).
 */
export class Migration20261203010000SearchPendingList extends PostgresqlMigration {
  override async up(): Promise<void> {
    this.addSql('alter index "post_search_document_idx" set (gin_pending_list_limit = 64)');
  }
}
