// Full-text search over posts and contacts, on each database's own engine (docs/search.md): SQLite's FTS5 tables,
// kept in step by the triggers of the search migration, and PostgreSQL's GIN index over `to_tsvector('simple', ...)`
// and its trigram indexes. The syntax is shared/search.ts's; what differs between the databases is here.
import { fts5Query, scopeToken, tsQuery, type SearchTerm } from '../shared/index.js';
import type { Database, Sql } from './sql.js';

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

/** SQLite: the statements that bring the search tables up to date with the rows marked in `search_pending`. */
const FLUSH = [
  "INSERT OR IGNORE INTO post_search_key (post_id) SELECT id FROM search_pending WHERE kind = 'post'",
  "DELETE FROM post_search WHERE rowid IN (SELECT k.rowid FROM search_pending q JOIN post_search_key k ON k.post_id = q.id WHERE q.kind = 'post')",
  `INSERT INTO post_search (rowid, scope, title, body)
   SELECT k.rowid, replace(p.organization_id, '_', '') || ' ' || replace(p.board_id, '_', ''), p.title, p.body_text
   FROM search_pending q JOIN post_search_key k ON k.post_id = q.id JOIN post p ON p.id = q.id WHERE q.kind = 'post'`,
  "INSERT OR IGNORE INTO contact_search_key (contact_id) SELECT id FROM search_pending WHERE kind = 'contact'",
  "DELETE FROM contact_search WHERE rowid IN (SELECT k.rowid FROM search_pending q JOIN contact_search_key k ON k.contact_id = q.id WHERE q.kind = 'contact')",
  `INSERT INTO contact_search (rowid, email, name)
   SELECT k.rowid, c.email, c.name FROM search_pending q JOIN contact_search_key k ON k.contact_id = q.id JOIN contact c ON c.id = q.id WHERE q.kind = 'contact'`,
  'DELETE FROM search_pending',
];

/**
 * Bring SQLite's search tables up to date before a search reads them: the rows written since the last time (marked in
 * `search_pending` by the triggers, in their writes' transactions) are indexed in one transaction. A search therefore
 * sees every committed write, and the writes pay for one small row each instead of an FTS5 write each. Nothing to do
 * on PostgreSQL, whose indexes are updated by every write. Also a scheduler chore, so little waits for a search.
 */
export async function indexPending(db: Database): Promise<void> {
  if (db.dialect.name !== 'sqlite') return;
  if (!(await db.one('SELECT 1 AS pending FROM search_pending LIMIT 1'))) return;
  await db.transaction(async (tx) => {
    for (const statement of FLUSH) await tx.run(statement);
  });
}
