import { Migration } from '@mikro-orm/migrations';

/**
 * A new post or contact is no longer marked for the search index: `search_watermark` holds, for each of the two
 * tables, the highest rowid the index has taken in (`through`) and the id of the row that had it (`id`), and the next
 * `search.indexPending` takes in every row above it. SQLite gives a new row the highest rowid plus one, so an insert
 * writes nothing for search, and the insert triggers go: marking a new row in `search_pending` cost a new contact's
 * identify 8 % more instructions and one more page in its commit, and a trigger that only checked the watermark
 * (`when new.rowid <= through`) still cost 2.3 %, against 1.3 % without one (callgrind, docs/benchmarks.md).
 *
 * Changes of the searched words are still marked by the update triggers. Two cases keep the watermark honest:
 * - deleting the row that holds the watermark moves it down to the row below, so the rowid SQLite hands out next, the
 *   deleted one again, is above it;
 * - rows numbered again (a restore from `.dump`; VACUUM may, though SQLite's keeps them) leave `id` at another rowid
 *   than `through`, or gone. `indexPending` sees that, and takes in every row that has no search key.
 */
export class Migration20261204000000SearchWatermark extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table `search_watermark` (`kind` text not null primary key, `through` integer not null, `id` text null) without rowid',
    );
    for (const kind of ['post', 'contact']) {
      this.addSql(
        `insert into \`search_watermark\` (\`kind\`, \`through\`, \`id\`) select '${kind}', coalesce(max(\`rowid\`), 0), \`id\` from \`${kind}\``,
      );
      this.addSql(`drop trigger \`${kind}_search_insert\``);
      this.addSql(
        `create trigger \`${kind}_search_watermark_delete\` after delete on \`${kind}\`
         when old.\`id\` = (select \`id\` from \`search_watermark\` where \`kind\` = '${kind}')
         begin
           update \`search_watermark\` set (\`through\`, \`id\`) = (select coalesce(max(\`rowid\`), 0), \`id\` from \`${kind}\` where \`rowid\` < old.\`rowid\`)
           where \`kind\` = '${kind}' and \`through\` = old.\`rowid\`;
         end`,
      );
    }
  }
}
