import { Migration } from '@mikro-orm/migrations';

/**
 * The triggers that mark a post or a contact for the search index (Migration20261127000000Search) mark it with an
 * `INSERT ... WHERE NOT EXISTS` instead of `INSERT OR IGNORE`. SQLite runs a trigger's statements under the conflict
 * policy of the statement that fired it, when that statement names one: an `INSERT ... ON CONFLICT DO UPDATE` on the
 * post or contact table (an upsert written by hand, a bulk load) turned the trigger's `OR IGNORE` into ABORT, and a
 * second change of a row still waiting to be indexed failed with a UNIQUE error on `search_pending`.
 */
export class Migration20261202000000SearchPendingUpsert extends Migration {
  override async up(): Promise<void> {
    const mark = (kind: string) =>
      `insert into \`search_pending\` (\`kind\`, \`id\`) select '${kind}', new.\`id\` where not exists (select 1 from \`search_pending\` where \`kind\` = '${kind}' and \`id\` = new.\`id\`)`;
    const triggers: Array<[name: string, on: string, kind: string]> = [
      ['post_search_insert', 'after insert on `post`', 'post'],
      ['post_search_update', 'after update of `title`, `body_text`, `board_id` on `post`', 'post'],
      ['contact_search_insert', 'after insert on `contact`', 'contact'],
      ['contact_search_update', 'after update of `email`, `name` on `contact`', 'contact'],
    ];
    for (const [name, on, kind] of triggers) {
      this.addSql(`drop trigger \`${name}\``);
      this.addSql(`create trigger \`${name}\` ${on} begin ${mark(kind)}; end`);
    }
  }
}
