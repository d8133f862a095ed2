// Full-text search over posts and contacts, on each database's own engine (docs/search.md): SQLite's FTS5 tables,
// kept in step by the triggers of the search migration, and PostgreSQL's GIN index over `to_tsvector('simple', ...)`
// and its trigram indexes. The syntax is shared/search.ts's; what differs between the databases is here.
import { fts5Query, scopeToken, tsQuery, type SearchTerm } from '../shared/index.js';
import type { Sql } from './sql.js';

/** Where a post search looks: one board, or every board of a workspace. */
export type PostSearchScope = { boardId: string } | { organizationId: string };

/** The parts of a post search for a statement over `post p`: its FROM, its conditions, and its relevance. */
export interface PostSearch {
  /** Replaces `FROM post p`. */
  from: string;
  fromParams: unknown[];
  /** Conditions to AND with the statement's own. */
  where: string;
  whereParams: unknown[];
  /** Higher is more relevant; a float8 on both databases, exact in a cursor. */
  rank: string;
  rankParams: unknown[];
}

/** PostgreSQL's document of a post, exactly as `post_search_idx` indexes it (the planner matches it by its text). */
const PG_DOCUMENT = `to_tsvector('simple'::regconfig, p.title || ' ' || p.body_text)`;

/**
 * The matching posts of `scope`: every term in the title or the body. SQLite starts from the FTS5 table, whose scope
 * token narrows to the board or workspace before any row is read; PostgreSQL scans `post_search_idx` on the scope
 * and the words at once. Relevance is BM25 on SQLite (a title match weighs ten body matches) and `ts_rank` on
 * PostgreSQL.
 */
export function postSearch(sql: Sql, scope: PostSearchScope, terms: readonly SearchTerm[]): PostSearch {
  const scopeId = 'boardId' in scope ? scope.boardId : scope.organizationId;
  if (sql.dialect.name === 'sqlite') {
    return {
      from: 'post_search s JOIN post_search_key k ON k.rowid = s.rowid JOIN post p ON p.id = k.post_id',
      fromParams: [],
      where: 'post_search MATCH ?',
      whereParams: [`scope : "${scopeToken(scopeId)}" AND ${fts5Query(terms, ['title', 'body'])}`],
      rank: '(-bm25(post_search, 0.0, 10.0, 1.0))',
      rankParams: [],
    };
  }
  const query = tsQuery(terms);
  return {
    from: 'post p',
    fromParams: [],
    where: `${'boardId' in scope ? 'p.board_id' : 'p.organization_id'} = ? AND ${PG_DOCUMENT} @@ to_tsquery('simple', ?)`,
    whereParams: [scopeId, query],
    rank: `(ts_rank(${PG_DOCUMENT}, to_tsquery('simple', ?))::float8)`,
    rankParams: [query],
  };
}
