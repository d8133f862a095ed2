import { forBothDialects } from './both.js';

/**
 * SQLite: the search chore merges any level of the posts' FTS5 index that holds two segments or more (FTS5's
 * `usermerge`, 4 by default), so that the index stays in few segments, each of which every term looked up is looked up
 * in (docs/search.md). Nothing on PostgreSQL.
 */
export const SearchSegments = forBothDialects({
  sqlite: ["insert into `post_search` (`post_search`, `rank`) values ('usermerge', 2)"],
  postgresql: [],
});
