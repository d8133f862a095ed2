import { forBothDialects } from './both.js';

/**
 * PostgreSQL: a common word's best matches in a workspace without ranking every match (docs/search.md, "A common
 * word"). Each post's `bound` is the highest rank one word can give it (`ts_rank` of its most repeated word: a word it
 * holds more often, or a shorter post, ranks higher), a stored column computed from its document, and the GIN index
 * holds it beside the ids and the words, so a search can ask for the matches of high bound only. `post_search_band`
 * holds, for each large workspace, the bounds above which its 4,000, 32,000 and 256,000 posts of highest bound lie
 * (as many as it is large for; the search chore keeps them). Nothing on SQLite.
 */
export const SearchBound = forBothDialects({
  sqlite: [],
  postgresql: [
    `create function "post_search_bound"(d tsvector) returns real language sql immutable parallel safe as $$
      select coalesce((select ts_rank(d, ('''' || replace(replace(l.lexeme, '\\', '\\\\'), '''', '''''') || '''')::tsquery, 1)
        from unnest(d) l order by coalesce(array_length(l.positions, 1), 1) desc limit 1), 0)::real $$`,
    `alter table "post_search" add column "bound" real generated always as ("post_search_bound"("document")) stored`,
    'drop index "post_search_document_idx"',
    `create index "post_search_document_idx" on "post_search" using gin ("organization_id", "board_id", "bound", "document")
      with (gin_pending_list_limit = 64)`,
    `create table "post_search_band" (
      "organization_id" text not null primary key references "organization" ("id") on delete cascade,
      "bounds" real[] not null)`,
  ],
});
