// Full-text search over posts and contacts, on each database's own engine (docs/search.md): SQLite's FTS5 tables and
// PostgreSQL's `post_search` table of tsvectors, both kept in step by the triggers of the search migrations, and the
// contacts' trigram indexes. The syntax is engine/search/'s; how its terms read on each database, and what else differs, is here.
import type { Database, Sql } from '../sql.js';

/** One term of a query: a word, or a phrase of words; `prefix` also matches longer words that start with it. */
export interface SearchTerm {
  words: string[];
  prefix: boolean;
}

/**
 * The terms as an FTS5 query on the given columns: every term must match (AND), a phrase word for word, a prefix
 * term as `"word"*`. The words are letters and digits only, so quoting them is all the escaping there is.
 */
export function fts5Query(terms: readonly SearchTerm[], columns: readonly string[]): string {
  const text = terms.map((t) => `"${t.words.join(' ')}"${t.prefix ? '*' : ''}`).join(' AND ');
  return `{${columns.join(' ')}} : (${text})`;
}

/** The terms as a PostgreSQL tsquery (for `to_tsquery('simple', ...)`): `'word':*`, `'a' <-> 'b'`, joined by `&`. */
export function tsQuery(terms: readonly SearchTerm[]): string {
  return terms
    .map((t) =>
      t.words.length > 1 ? `(${t.words.map((w) => `'${w}'`).join(' <-> ')})` : `'${t.words[0]}'${t.prefix ? ':*' : ''}`,
    )
    .join(' & ');
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

// SQLite's FTS5 rowids place each post in its workspace and board, so a scope is one rowid range, which FTS5 seeks
// to in every word's posting list: (workspace number << 41) | (board slot << 27) | sequence. That allows 4 million
// workspaces of 16,384 boards, each board numbering 134 million posts (a post is numbered again when its words or
// board change).
const SLOT_SHIFT = 27;
const WORKSPACE_SHIFT = 41;
const SLOT_MASK = (1 << (WORKSPACE_SHIFT - SLOT_SHIFT)) - 1;

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
 * weighs ten body matches), PostgreSQL's `post_search` with `ts_rank`. The caller reads the posts themselves.
 */
export function rankedPosts(
  sql: Sql,
  scope: PostSearchScope,
  terms: readonly SearchTerm[],
  count: number,
  atMost?: number,
): Promise<PostMatch[]> {
  return rankerOf(sql, scope, terms)(count, atMost);
}

/** `rankedPosts` of one search, for as many counts as its pages ask: on PostgreSQL, its match is worked out once. */
function rankerOf(
  sql: Sql,
  scope: PostSearchScope,
  terms: readonly SearchTerm[],
): (count: number, atMost?: number) => Promise<PostMatch[]> {
  if (sql.dialect.name === 'sqlite') {
    const range = sqliteRange(scope);
    return async (count, atMost) => {
      const rows = await sql.all<{ post_id: string; relevance: number }>(
        `SELECT k.post_id, s.relevance FROM (
           SELECT rowid, ${SQLITE_RELEVANCE} AS relevance FROM post_search
           WHERE post_search MATCH ? AND rowid >= (${range.lower}) AND rowid < (${range.upper})${atMost === undefined ? '' : ` AND ${SQLITE_RELEVANCE} <= ?`}
           ORDER BY relevance DESC LIMIT ?) s
         JOIN post_search_key k ON k.rowid = s.rowid`,
        [
          fts5Query(terms, ['title', 'body']),
          range.param,
          range.param,
          ...(atMost === undefined ? [] : [atMost]),
          count,
        ],
      );
      return rows.map((r) => ({ postId: r.post_id, relevance: Number(r.relevance) }));
    };
  }
  // Normalised by the document's length (1: divided by 1 + its log), as BM25 is: without it, most matches of a short
  // query tie, and a page must then read every tied post to order them by votes. Ranked by the terms as typed; only
  // the match goes through the workspace's words.
  const rank = `ts_rank(s.document, ${PG_QUERY}, 1)::float8`;
  const query = [scope.organizationId, tsQuery(terms)];
  let matching: Promise<PgMatch | undefined> | undefined;
  return async (count, atMost) => {
    const match = await (matching ??= pgMatch(sql, scope.organizationId, terms));
    if (match === undefined) return [];
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
}

/** A prefix that stands for more of a workspace's words than this stays a prefix match in the index. */
const PREFIX_WORDS = 64;
/** Beyond this many posts whose words are not listed yet, a search does not read their words: its prefixes stay prefixes. */
export const PENDING_WORDS_READ = 200;

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
  const whole = { where: `s.document @@ ${PG_QUERY}`, params: [organizationId, tsQuery(terms)] };
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
  return { where: where.join(' AND '), params };
}

/** A lexeme as a tsquery operand, taken as it is: quoted, its quotes doubled and its backslashes escaped. */
const tsLexeme = (word: string) => `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

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

/** PostgreSQL: how many named posts one run of `listPendingWords` takes at most per statement. */
const PENDING_WORDS_BATCH = 2000;

/**
 * PostgreSQL: add the words of the posts named in `post_search_word_pending` (by the trigger on `post_search`, in
 * their writes' transactions) to `post_search_word`, and drop their names, in one statement per batch. Until then a
 * search reads their words from their documents. Rows another run has locked are skipped: several servers may run
 * this at once. Words are inserted in order, so two runs adding the same new words cannot deadlock. A name whose post
 * is gone (a deleted workspace) just goes.
 */
async function listPendingWords(db: Database): Promise<void> {
  let taken = 0;
  let posts: number;
  do {
    const done = await db.one<{ posts: number }>(
      `WITH taken AS (
         DELETE FROM post_search_word_pending d
         USING (SELECT organization_id, post_id FROM post_search_word_pending LIMIT ${PENDING_WORDS_BATCH} FOR UPDATE SKIP LOCKED) t
         WHERE d.organization_id = t.organization_id AND d.post_id = t.post_id
         RETURNING d.post_id),
       added AS (
         INSERT INTO post_search_word (organization_id, word)
         SELECT DISTINCT s.organization_id, w FROM taken JOIN post_search s ON s.post_id = taken.post_id, unnest(tsvector_to_array(s.document)) w
         ORDER BY 1, 2 ON CONFLICT DO NOTHING)
       SELECT count(*)::int AS posts FROM taken`,
    );
    posts = done?.posts ?? 0;
    taken += posts;
  } while (posts === PENDING_WORDS_BATCH);
  // Every search looks into this table: the rows just deleted are taken out of its pages now, not whenever autovacuum
  // comes (after a bulk load of 100,000 posts their dead index entries cost every search 10 to 15 ms).
  if (taken > 0) await db.run('VACUUM (SKIP_LOCKED) post_search_word_pending');
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
  terms: readonly SearchTerm[],
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

/**
 * SQLite: the statements that bring the search tables up to date with the rows marked in `search_pending`, in order.
 * Posts: their workspace gets a number and their board a slot on first sight; then each marked post is taken out and
 * numbered again at the end of its board's range (it may have moved board), and its words indexed under that rowid.
 * Also run by the migration that made this layout, over every post.
 */
export const SQLITE_POST_FLUSH = [
  `INSERT OR IGNORE INTO post_search_workspace (organization_id)
   SELECT DISTINCT p.organization_id FROM search_pending q JOIN post p ON p.id = q.id WHERE q.kind = 'post'`,
  `INSERT INTO post_search_board (board_id, base)
   SELECT board_id, (n << ${WORKSPACE_SHIFT}) + ((coalesce(last_slot, -1) + row_number() OVER (PARTITION BY n ORDER BY board_id)) << ${SLOT_SHIFT}) FROM (
     SELECT DISTINCT p.board_id, w.n,
       (SELECT (max(x.base) >> ${SLOT_SHIFT}) & ${SLOT_MASK} FROM post_search_board x WHERE x.base >= w.n << ${WORKSPACE_SHIFT} AND x.base < (w.n + 1) << ${WORKSPACE_SHIFT}) AS last_slot
     FROM search_pending q JOIN post p ON p.id = q.id JOIN post_search_workspace w ON w.organization_id = p.organization_id
     WHERE q.kind = 'post' AND NOT EXISTS (SELECT 1 FROM post_search_board b WHERE b.board_id = p.board_id))`,
  `DELETE FROM post_search WHERE rowid IN (SELECT k.rowid FROM search_pending q JOIN post_search_key k ON k.post_id = q.id WHERE q.kind = 'post')`,
  `DELETE FROM post_search_key WHERE post_id IN (SELECT id FROM search_pending WHERE kind = 'post')`,
  `INSERT INTO post_search_key (rowid, post_id)
   SELECT b.base + coalesce((SELECT max(k.rowid) - b.base FROM post_search_key k WHERE k.rowid >= b.base AND k.rowid < b.base + ${1 << SLOT_SHIFT}), 0)
          + row_number() OVER (PARTITION BY b.board_id ORDER BY p.created_at, p.id), p.id
   FROM search_pending q JOIN post p ON p.id = q.id JOIN post_search_board b ON b.board_id = p.board_id WHERE q.kind = 'post'`,
  `INSERT INTO post_search (rowid, title, body)
   SELECT k.rowid, p.title, p.body_text FROM search_pending q JOIN post_search_key k ON k.post_id = q.id JOIN post p ON p.id = q.id WHERE q.kind = 'post'`,
];

/** SQLite: the same for contacts, whose rowids need no place. */
const SQLITE_CONTACT_FLUSH = [
  "INSERT OR IGNORE INTO contact_search_key (contact_id) SELECT id FROM search_pending WHERE kind = 'contact'",
  "DELETE FROM contact_search WHERE rowid IN (SELECT k.rowid FROM search_pending q JOIN contact_search_key k ON k.contact_id = q.id WHERE q.kind = 'contact')",
  `INSERT INTO contact_search (rowid, email, name)
   SELECT k.rowid, c.email, c.name FROM search_pending q JOIN contact_search_key k ON k.contact_id = q.id JOIN contact c ON c.id = q.id WHERE q.kind = 'contact'`,
];

/** SQLite: the tables whose rows are searched, each with the table that keys its rows in the index. */
const SQLITE_SEARCHED = [
  { kind: 'post', key: 'post_search_key', column: 'post_id' },
  { kind: 'contact', key: 'contact_search_key', column: 'contact_id' },
] as const;

/** SQLite: the rows of a table above its watermark (written since the index last took its rows in). */
const aboveWatermark = (kind: string) => `rowid > (SELECT through FROM search_watermark WHERE kind = '${kind}')`;

/** SQLite: whether a table's rows were numbered again since its watermark was set (its row holds another rowid, or is gone). */
const renumbered = (kind: string) =>
  `(SELECT through <> coalesce((SELECT rowid FROM ${kind} WHERE id = w.id), 0) FROM search_watermark w WHERE kind = '${kind}')`;

/** SQLite: whether anything waits to be indexed: a marked row, a row above its table's watermark, rows numbered again. */
const SQLITE_WAITING = `SELECT EXISTS (SELECT 1 FROM search_pending) ${SQLITE_SEARCHED.map(
  ({ kind }) => `OR EXISTS (SELECT 1 FROM ${kind} WHERE ${aboveWatermark(kind)}) OR ${renumbered(kind)}`,
).join(' ')} AS waiting`;

/**
 * SQLite: mark the rows a flush takes in that no trigger marked: every row above its table's watermark (an insert is
 * not marked, migrations/sqlite/Migration20261204000000SearchWatermark.ts), then raise the watermark to the last row.
 * Where the rows were numbered again, every row without a search key instead.
 */
const sqliteTakeIn = ({ kind, key, column }: (typeof SQLITE_SEARCHED)[number], all: boolean) => [
  all
    ? `INSERT OR IGNORE INTO search_pending (kind, id) SELECT '${kind}', t.id FROM ${kind} t WHERE NOT EXISTS (SELECT 1 FROM ${key} k WHERE k.${column} = t.id)`
    : `INSERT OR IGNORE INTO search_pending (kind, id) SELECT '${kind}', id FROM ${kind} WHERE ${aboveWatermark(kind)}`,
  `UPDATE search_watermark SET (through, id) = (SELECT coalesce(max(rowid), 0), id FROM ${kind}) WHERE kind = '${kind}'`,
];

/**
 * Bring SQLite's search tables up to date before a search reads them: the rows written since the last time (new rows
 * above the watermark, and rows marked in `search_pending` by the triggers, in their writes' transactions) are indexed
 * in one transaction. A search therefore sees every committed write, and a new row costs its write nothing, a change of
 * its words one small row, instead of an FTS5 write each. Nothing to do on PostgreSQL, whose triggers index every write
 * as it happens. Also a scheduler chore, so little waits for a search.
 */
export async function indexPending(db: Database): Promise<void> {
  if (db.dialect.name !== 'sqlite') return;
  if (!(await db.one<{ waiting: number }>(SQLITE_WAITING))?.waiting) return;
  await db.transaction(async (tx) => {
    // Asked again inside the transaction, which no other write can enter.
    const again = await tx.one<Record<string, number>>(
      `SELECT ${SQLITE_SEARCHED.map(({ kind }) => `${renumbered(kind)} AS ${kind}`).join(', ')}`,
    );
    const take = SQLITE_SEARCHED.flatMap((table) => sqliteTakeIn(table, Boolean(again?.[table.kind])));
    for (const statement of [...take, ...SQLITE_POST_FLUSH, ...SQLITE_CONTACT_FLUSH, 'DELETE FROM search_pending'])
      await tx.run(statement);
  });
}

/**
 * The search's chore, run by the scheduler every minute: SQLite indexes what waits (`indexPending`, which every search
 * also runs first); PostgreSQL lists the words of the posts written since (`listPendingWords`), which no search waits
 * for.
 */
export function searchChore(db: Database): Promise<void> {
  return db.dialect.name === 'sqlite' ? indexPending(db) : listPendingWords(db);
}
