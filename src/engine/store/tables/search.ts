// Full-text search over posts and contacts, on each database's own engine (docs/search.md): SQLite's FTS5 tables and
// PostgreSQL's `post_search` table of tsvectors, both kept in step by the triggers of the search migrations, and the
// contacts' trigram indexes. The syntax is engine/search/'s; how its terms read on each database, and what else differs, is here.
import type { Sql } from '../sql.js';
import { BAND_POSTS, SLOT_SHIFT, WORKSPACE_SHIFT } from './search-index.js';
import { PENDING_WORDS_READ } from './search-words.js';

/** One term of a query: a word, or a phrase of words; `prefix` also matches longer words that start with it. */
export interface SearchTerm {
  words: string[];
  prefix: boolean;
}

/**
 * A query as a search that forgives asks it (engine/search/forgive.ts): every group must match, a group when any of
 * its terms does; each group's first term is the one typed.
 */
export type SearchGroup = readonly SearchTerm[];

/** What a post search asks: the terms typed, and, when something forgives them, the groups that stand for them. */
export interface PostQuery {
  terms: readonly SearchTerm[];
  groups?: readonly SearchGroup[];
}

/** A relevance that puts the posts matching what was typed above those found only by what forgives it. */
const TYPED_FIRST = 1000;

const fts5Term = (t: SearchTerm) => `"${t.words.join(' ')}"${t.prefix ? '*' : ''}`;
const tsTerm = (t: SearchTerm) =>
  t.words.length > 1 ? `(${t.words.map((w) => `'${w}'`).join(' <-> ')})` : `'${t.words[0]}'${t.prefix ? ':*' : ''}`;

/** Groups as an FTS5 query on the given columns: `("a"* OR "b") AND ...`. */
export function fts5Groups(groups: readonly SearchGroup[], columns: readonly string[]): string {
  return `{${columns.join(' ')}} : (${groups.map((g) => `(${g.map(fts5Term).join(' OR ')})`).join(' AND ')})`;
}

/** Groups as a PostgreSQL tsquery: `('a':* | 'b') & ...`. */
export const tsGroups = (groups: readonly SearchGroup[]) =>
  groups.map((g) => `(${g.map(tsTerm).join(' | ')})`).join(' & ');

/**
 * The terms as an FTS5 query on the given columns: every term must match (AND), a phrase word for word, a prefix
 * term as `"word"*`. The words are letters and digits only, so quoting them is all the escaping there is.
 */
export function fts5Query(terms: readonly SearchTerm[], columns: readonly string[]): string {
  return `{${columns.join(' ')}} : (${terms.map(fts5Term).join(' AND ')})`;
}

/** The terms as a PostgreSQL tsquery (for `to_tsquery('simple', ...)`): `'word':*`, `'a' <-> 'b'`, joined by `&`. */
export function tsQuery(terms: readonly SearchTerm[]): string {
  return terms.map(tsTerm).join(' & ');
}

/** Where a post search looks: every board of a workspace, or one of them. */
export interface PostSearchScope {
  organizationId: string;
  boardId?: string;
}

/** A matching post and its relevance: higher is more relevant (a float8 on both databases, exact in a cursor). */
export interface PostMatch {
  postId: string;
  relevance: number;
}

/** The rowid range of a scope: a statement's two parameters, the first rowid and the one past the last. */
function sqliteRange(scope: PostSearchScope): { lower: string; upper: string; param: string } {
  return scope.boardId !== undefined
    ? {
        lower: 'SELECT base FROM post_search_board WHERE board_id = ?',
        upper: `SELECT base + ${1 << SLOT_SHIFT} FROM post_search_board WHERE board_id = ?`,
        param: scope.boardId,
      }
    : {
        lower: `SELECT n << ${WORKSPACE_SHIFT} FROM post_search_workspace WHERE organization_id = ?`,
        upper: `SELECT (n + 1) << ${WORKSPACE_SHIFT} FROM post_search_workspace WHERE organization_id = ?`,
        param: scope.organizationId,
      };
}

/**
 * SQLite's relevance: BM25 with a title match worth ten body matches, negated so that higher is better. (FTS5's own
 * `ORDER BY rank` sorts every match before the LIMIT applies; SQLite's sorter keeps only the best: 3 ms against 10.)
 */
const SQLITE_RELEVANCE = '(-bm25(post_search, 10.0, 1.0))';

/** PostgreSQL's query of the terms, in the workspace's language, as its `post_search.document`s were made. */
const PG_QUERY = 'to_tsquery((SELECT o.search_language::regconfig FROM organization o WHERE o.id = ?), ?)';

/**
 * Up to `count` posts of `scope` matching every term (in the title or the body), the most relevant first, only those
 * at most `atMost` relevant when given. Only the search index is read: SQLite's FTS5 table with BM25 (a title match
 * weighs ten body matches), PostgreSQL's `post_search` with `ts_rank`. The caller reads the posts themselves. With
 * groups (a search that forgives), the posts matching what was typed come first, then those only the groups find.
 */
export function rankedPosts(
  sql: Sql,
  scope: PostSearchScope,
  query: readonly SearchTerm[] | PostQuery,
  count: number,
  atMost?: number,
): Promise<PostMatch[]> {
  return rankerOf(sql, scope, query)(count, atMost);
}

const asQuery = (query: readonly SearchTerm[] | PostQuery): PostQuery =>
  Array.isArray(query) ? { terms: query as readonly SearchTerm[] } : (query as PostQuery);

/** `rankedPosts` of one search, for as many counts as its pages ask: on PostgreSQL, its match is worked out once. */
function rankerOf(
  sql: Sql,
  scope: PostSearchScope,
  asked: readonly SearchTerm[] | PostQuery,
): (count: number, atMost?: number) => Promise<PostMatch[]> {
  const { terms, groups } = asQuery(asked);
  if (sql.dialect.name === 'sqlite') {
    const range = sqliteRange(scope);
    const inRange = `rowid >= (${range.lower}) AND rowid < (${range.upper})`;
    // Forgiven: BM25 of the groups, and TYPED_FIRST more for the posts that match what was typed.
    const relevance = groups
      ? {
          sql: `(${SQLITE_RELEVANCE} + CASE WHEN rowid IN (SELECT rowid FROM post_search WHERE post_search MATCH ? AND ${inRange}) THEN ${TYPED_FIRST}.0 ELSE 0.0 END)`,
          params: [fts5Query(terms, ['title', 'body']), range.param, range.param],
        }
      : { sql: SQLITE_RELEVANCE, params: [] };
    const match = groups ? fts5Groups(groups, ['title', 'body']) : fts5Query(terms, ['title', 'body']);
    return async (count, atMost) => {
      const rows = await sql.all<{ post_id: string; relevance: number }>(
        `SELECT k.post_id, s.relevance FROM (
           SELECT rowid, ${relevance.sql} AS relevance FROM post_search
           WHERE post_search MATCH ? AND ${inRange}${atMost === undefined ? '' : ` AND ${relevance.sql} <= ?`}
           ORDER BY relevance DESC LIMIT ?) s
         JOIN post_search_key k ON k.rowid = s.rowid`,
        [
          ...relevance.params,
          match,
          range.param,
          range.param,
          ...(atMost === undefined ? [] : [...relevance.params, atMost]),
          count,
        ],
      );
      return rows.map((r) => ({ postId: r.post_id, relevance: Number(r.relevance) }));
    };
  }
  // Normalised by the document's length (1: divided by 1 + its log), as BM25 is: without it, most matches of a short
  // query tie, and a page must then read every tied post to order them by votes. Ranked by the terms as typed; only
  // the match goes through the workspace's words. Forgiven: ranked by the groups, the posts matching what was typed
  // TYPED_FIRST higher, and matched by the groups as they are.
  const rank = groups
    ? `(ts_rank(s.document, ${PG_QUERY}, 1)::float8 + CASE WHEN s.document @@ ${PG_QUERY} THEN ${TYPED_FIRST} ELSE 0 END)`
    : `ts_rank(s.document, ${PG_QUERY}, 1)::float8`;
  const query = groups
    ? [scope.organizationId, tsGroups(groups), scope.organizationId, tsQuery(terms)]
    : [scope.organizationId, tsQuery(terms)];
  let matching: Promise<PgMatch | undefined> | undefined;
  let banding: Promise<number[]> | undefined;
  return async (count, atMost) => {
    const match = await (matching ??= groups
      ? Promise.resolve<PgMatch>({
          where: `s.document @@ ${PG_QUERY}`,
          params: [scope.organizationId, tsGroups(groups)],
        })
      : pgMatch(sql, scope.organizationId, terms));
    if (match === undefined) return [];
    // One word in a workspace: the matches of its band first, when they hold the best `count` (bandOf).
    const band =
      match.words && match.words.length <= BAND_WORDS && scope.boardId === undefined
        ? bandFor(await (banding ??= bandOf(sql, scope.organizationId)), count)
        : undefined;
    if (band !== undefined) {
      const best = await bandMatches(sql, scope.organizationId, { query, match, band }, count, atMost);
      if (best.length === count) return best;
    }
    const rows = await sql.all<{ post_id: string; relevance: number }>(
      `SELECT s.post_id, ${rank} AS relevance FROM post_search s
       WHERE s.${scope.boardId !== undefined ? 'board_id' : 'organization_id'} = ? AND ${match.where}${atMost === undefined ? '' : ` AND ${rank} <= ?`}
       ORDER BY relevance DESC LIMIT ?`,
      [
        ...query,
        scope.boardId ?? scope.organizationId,
        ...match.params,
        ...(atMost === undefined ? [] : [...query, atMost]),
        count,
      ],
    );
    return rows.map((r) => ({ postId: r.post_id, relevance: Number(r.relevance) }));
  };
}

/** PostgreSQL: a search's match, as conditions on `s.document` and their parameters. */
interface PgMatch {
  where: string;
  params: unknown[];
  /** A search of one word, or of one prefix asked as the workspace's words it stands for: those words. */
  words?: readonly string[];
}

/** A prefix that stands for more of a workspace's words than this stays a prefix match in the index. */
const PREFIX_WORDS = 64;

/**
 * PostgreSQL: the conditions that find the posts matching `terms` in a workspace, or undefined when none can. A prefix
 * term that stands for at most PREFIX_WORDS of the workspace's words (`post_search_word`) is asked of the index as
 * those words, whole: the index skips through whole words' lists, while a prefix match first gathers every post of
 * every word with the prefix (docs/search.md). The same posts match either way; the rank is still the terms' own.
 * A prefix is read in the workspace's language first, as `to_tsquery` reads it (`exporting` is `export` in english).
 * The words taken are those from the prefix up to the prefix followed by U+10FFFF, in byte order: every word that
 * starts with it (a word can hold U+10FFFF only where PostgreSQL's parser reads it as a letter, which it does not).
 */
async function pgMatch(sql: Sql, organizationId: string, terms: readonly SearchTerm[]): Promise<PgMatch | undefined> {
  const only = terms.length === 1 && terms[0]!.words.length === 1 ? terms[0]! : undefined;
  const whole: PgMatch = {
    where: `s.document @@ ${PG_QUERY}`,
    params: [organizationId, tsQuery(terms)],
    ...(only && !only.prefix && { words: only.words }),
  };
  const prefixes = terms.filter((t) => t.prefix).map((t) => t.words[0]!);
  if (prefixes.length === 0) return whole;
  // The words of the list, and those of the posts written since the list was last brought up to date (the scheduler's
  // chore lists them every minute). More of those than PENDING_WORDS_READ (a bulk load), and every term is asked as
  // typed: the same posts, without reading that many documents first.
  const from = `>= l.lexemes[1] COLLATE "C"`;
  const below = `< (l.lexemes[1] || chr(1114111)) COLLATE "C"`;
  const found = await sql.all<{ backlog: number; lexemes: string[]; words: string[] }>(
    `WITH backlog AS (SELECT count(*)::int AS n FROM (SELECT 1 FROM post_search_word_pending WHERE organization_id = ? LIMIT ${PENDING_WORDS_READ + 1}) b)
     SELECT (SELECT n FROM backlog) AS backlog, l.lexemes, array(
       SELECT u.word FROM (
         (SELECT w.word FROM post_search_word w WHERE w.organization_id = ? AND w.word ${from} AND w.word ${below} ORDER BY w.word LIMIT ${PREFIX_WORDS + 1})
         UNION
         SELECT n.word COLLATE "C" FROM post_search_word_pending p JOIN post_search s ON s.post_id = p.post_id,
           unnest(tsvector_to_array(s.document)) n(word)
         WHERE p.organization_id = ? AND (SELECT n FROM backlog) <= ${PENDING_WORDS_READ}
           AND n.word COLLATE "C" ${from} AND n.word COLLATE "C" ${below}) u
       ORDER BY u.word LIMIT ${PREFIX_WORDS + 1}) AS words
     FROM json_array_elements_text(?::json) WITH ORDINALITY x(prefix, i)
     CROSS JOIN LATERAL (SELECT array(SELECT unnest(tsvector_to_array(to_tsvector(
       (SELECT o.search_language::regconfig FROM organization o WHERE o.id = ?), x.prefix)))) AS lexemes) l
     ORDER BY x.i`,
    [organizationId, organizationId, organizationId, JSON.stringify(prefixes), organizationId],
  );
  if ((found[0]?.backlog ?? 0) > PENDING_WORDS_READ) return whole;
  const asTyped: SearchTerm[] = [];
  const anyOf: string[] = [];
  let next = 0;
  for (const term of terms) {
    const { lexemes, words } = term.prefix ? found[next++]! : { lexemes: [], words: [] };
    // A whole word, a prefix that is not one lexeme in the workspace's language, or one that stands for too many
    // words: asked as typed.
    if (lexemes.length !== 1 || words.length > PREFIX_WORDS) asTyped.push(term);
    else if (words.length === 0) return undefined;
    else anyOf.push(`(${words.map(tsLexeme).join(' | ')})`);
  }
  if (anyOf.length === 0) return whole;
  const where = ['s.document @@ ?::tsquery'];
  const params: unknown[] = [anyOf.join(' & ')];
  if (asTyped.length > 0) {
    where.unshift(`s.document @@ ${PG_QUERY}`);
    params.unshift(organizationId, tsQuery(asTyped));
  }
  return { where: where.join(' AND '), params, ...(only && asTyped.length === 0 && { words: found[0]!.words }) };
}

/** A lexeme as a tsquery operand, taken as it is: quoted, its quotes doubled and its backslashes escaped. */
const tsLexeme = (word: string) => `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** A word of a workspace's search stands for at most this many words for its band to be asked (their pairs are). */
const BAND_WORDS = 8;

/** A band of this many posts for each match asked: 4,000 for a page's first 100 matches. */
const BAND_PER_MATCH = 32;

/**
 * PostgreSQL: the bounds above which a workspace's bands lie, of 4,000 posts and eight times more each (the search
 * chore's `post_search_band`), none for a small workspace.
 */
async function bandOf(sql: Sql, organizationId: string): Promise<number[]> {
  const row = await sql.one<{ bounds: unknown[] }>('SELECT bounds FROM post_search_band WHERE organization_id = ?', [
    organizationId,
  ]);
  return (row?.bounds ?? []).map(Number);
}

/** The bound of the band to ask for `count` matches: the smallest of BAND_PER_MATCH posts a match, if there is one. */
function bandFor(bounds: readonly number[], count: number): number | undefined {
  const level = Math.max(0, Math.ceil(Math.log((count * BAND_PER_MATCH) / BAND_POSTS) / Math.log(8)));
  return bounds[level];
}

/**
 * PostgreSQL: the best `count` matches of a search of one word in a workspace, without ranking every match, or fewer
 * when the band does not hold them (the caller then ranks every match). A post's `bound` is the highest rank one
 * word can give it (migration SearchBound). A post holding one of the words the search stands for ranks at most its
 * bound: those outside the band (bound below `band`) rank below `band`. So the matches in the band that rank at least
 * `band`, with the posts holding two of the words or more (a prefix's rank adds up each word it stands for, so these
 * are ranked whatever their bound), are every match that ranks at least `band`; if they are `count` or more, the best
 * `count` of them are the best of all. The GIN index holds the bound beside the words: one index scan, which reads
 * only the band's matches.
 */
async function bandMatches(
  sql: Sql,
  organizationId: string,
  search: { query: readonly unknown[]; match: PgMatch; band: number },
  count: number,
  atMost: number | undefined,
): Promise<PostMatch[]> {
  // The ranker's query (never forgiven here: only a search of one word has words), its rank compared as `real`, as the
  // bounds are.
  const { query, match, band } = search;
  const rank = `ts_rank(s.document, ${PG_QUERY}, 1)`;
  const select = (where: string, params: unknown[]) => ({
    sql: `SELECT s.post_id, ${rank}::float8 AS relevance FROM post_search s
      WHERE s.organization_id = ? AND ${where} AND ${rank} >= ?::real${atMost === undefined ? '' : ` AND ${rank}::float8 <= ?`}`,
    params: [...query, organizationId, ...params, ...query, band, ...(atMost === undefined ? [] : [...query, atMost])],
  });
  const words = match.words!;
  const parts = [select(`s.bound >= ?::real AND ${match.where}`, [band, ...match.params])];
  if (words.length > 1) {
    const pairs = words.flatMap((a, i) => words.slice(i + 1).map((b) => `(${tsLexeme(a)} & ${tsLexeme(b)})`));
    parts.push(select('s.document @@ ?::tsquery', [pairs.join(' | ')]));
  }
  const rows = await sql.all<{ post_id: string; relevance: number }>(
    `${parts.map((p) => p.sql).join(' UNION ')} ORDER BY relevance DESC LIMIT ?`,
    [...parts.flatMap((p) => p.params), count],
  );
  return rows.map((r) => ({ postId: r.post_id, relevance: Number(r.relevance) }));
}

/**
 * PostgreSQL: read the workspace's posts again in its `search_language` (after it changed), in the caller's
 * transaction. Nothing to do on SQLite, which reads every language alike.
 */
export async function reindexWorkspace(sql: Sql, organizationId: string): Promise<void> {
  if (sql.dialect.name === 'sqlite') return;
  await sql.run(
    `UPDATE post_search s SET document = to_tsvector(o.search_language::regconfig, p.title || ' ' || p.body_text)
     FROM post p JOIN organization o ON o.id = p.organization_id WHERE s.organization_id = ? AND p.id = s.post_id`,
    [organizationId],
  );
  // Every post is named for its new words now: list them at once, or each search would read every document for them.
  await sql.run(
    `INSERT INTO post_search_word (organization_id, word)
     SELECT DISTINCT s.organization_id, w FROM post_search s, unnest(tsvector_to_array(s.document)) w WHERE s.organization_id = ?
     ORDER BY 1, 2 ON CONFLICT DO NOTHING`,
    [organizationId],
  );
  await sql.run('DELETE FROM post_search_word_pending WHERE organization_id = ?', [organizationId]);
}

/** A post search's page, in order: relevance, then votes, then newest, then id, all descending. */
export interface RankedRow {
  relevance: number;
  voteCount: number;
  createdAt: number;
  id: string;
}

/** Negative when `a` comes before `b` in a search's order. */
export const searchOrder = (a: RankedRow, b: RankedRow) =>
  b.relevance - a.relevance ||
  b.voteCount - a.voteCount ||
  b.createdAt - a.createdAt ||
  (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * The first `limit` posts of a search after `after`, in search order, without ranking every match with its post: the
 * index's best `count` matches are read alone, the posts of those strictly above the last one's relevance are read
 * (by `read`, which applies the caller's filters), and if fewer than `limit` remain, `count` grows. Exact: a match left
 * out ranks at most as high as the last one read, below every match kept, ties included.
 */
export async function searchPage<T extends RankedRow>(
  sql: Sql,
  scope: PostSearchScope,
  terms: readonly SearchTerm[] | PostQuery,
  limit: number,
  after: RankedRow | undefined,
  read: (matches: PostMatch[]) => Promise<T[]>,
): Promise<T[]> {
  const ranked = rankerOf(sql, scope, terms);
  for (let count = Math.max(100, limit * 4); ; count *= 8) {
    const matches = await ranked(count, after?.relevance);
    const complete = matches.length < count;
    const floor = complete ? -Infinity : matches[matches.length - 1]!.relevance;
    const rows = (await read(matches.filter((m) => m.relevance > floor)))
      .filter((row) => !after || searchOrder(after, row) < 0)
      .sort(searchOrder);
    if (complete || rows.length >= limit) return rows.slice(0, limit);
  }
}

export { indexPending, indexStructure, SQLITE_POST_FLUSH, searchChore, segmentsOf } from './search-index.js';
export { knownWords, PENDING_WORDS_READ, startingWords } from './search-words.js';
