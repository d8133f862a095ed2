import { forBothDialects } from './both.js';

/**
 * A search that forgives (docs/search.md): each workspace's stem language (English unless set) and its synonyms; on
 * SQLite, FTS5's vocabulary of the post index as a table, which the typo check reads (PostgreSQL has post_search_word).
 */
export const SearchForgiveness = forBothDialects({
  sqlite: [
    "alter table `organization` add column `search_stems` text not null default 'english'",
    "alter table `organization` add column `search_synonyms` json not null default '[]'",
    "create virtual table `post_search_vocab` using fts5vocab('post_search', 'row')",
  ],
  postgresql: [
    `alter table "organization" add column "search_stems" varchar(20) not null default 'english'`,
    `alter table "organization" add column "search_synonyms" jsonb not null default '[]'`,
  ],
});
