import { forBothDialects } from './both.js';

/**
 * The companies list's `q` (a case-insensitive substring of the name or the domain) as index reads: trigrams on both
 * databases. On SQLite an FTS5 trigram table kept by triggers in the company's own write (companies are written far
 * less often than contacts, so they need no queue), keyed by a table of its own (a company's rowid is not stable across
 * a VACUUM); on PostgreSQL pg_trgm indexes, which its planner takes for the ILIKE.
 */
export const CompanySearch = forBothDialects({
  sqlite: [
    'create table `company_search_key` (`rowid` integer primary key, `company_id` text not null unique)',
    "create virtual table `company_search` using fts5(`name`, `domain`, tokenize = 'trigram')",
    "insert into `company_search` (`company_search`, `rank`) values ('secure-delete', 1)",
    `create trigger \`company_search_insert\` after insert on \`company\` begin
       insert into \`company_search_key\` (\`company_id\`) values (new.\`id\`);
       insert into \`company_search\` (\`rowid\`, \`name\`, \`domain\`)
         select \`rowid\`, new.\`name\`, new.\`domain\` from \`company_search_key\` where \`company_id\` = new.\`id\`;
     end`,
    `create trigger \`company_search_update\` after update of \`name\`, \`domain\` on \`company\` begin
       delete from \`company_search\` where \`rowid\` = (select \`rowid\` from \`company_search_key\` where \`company_id\` = new.\`id\`);
       insert into \`company_search\` (\`rowid\`, \`name\`, \`domain\`)
         select \`rowid\`, new.\`name\`, new.\`domain\` from \`company_search_key\` where \`company_id\` = new.\`id\`;
     end`,
    `create trigger \`company_search_delete\` after delete on \`company\` begin
       delete from \`company_search\` where \`rowid\` = (select \`rowid\` from \`company_search_key\` where \`company_id\` = old.\`id\`);
       delete from \`company_search_key\` where \`company_id\` = old.\`id\`;
     end`,
    'insert into `company_search_key` (`company_id`) select `id` from `company` order by `created_at`, `id`',
    'insert into `company_search` (`rowid`, `name`, `domain`) select k.`rowid`, co.`name`, co.`domain` from `company` co join `company_search_key` k on k.`company_id` = co.`id`',
  ],
  postgresql: [
    'create index "company_name_trgm_idx" on "company" using gin ("name" gin_trgm_ops)',
    'create index "company_domain_trgm_idx" on "company" using gin ("domain" gin_trgm_ops)',
  ],
});
