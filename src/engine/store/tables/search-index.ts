// Keeping the search index in step with the writes (docs/search.md): SQLite indexes what waits before a search reads
// and as a chore; PostgreSQL's triggers index every write, and its chore lists the words of new posts.
import type { Database } from '../sql.js';

// SQLite's FTS5 rowids place each post in its workspace and board, so a scope is one rowid range, which FTS5 seeks
// to in every word's posting list: (workspace number << 41) | (board slot << 27) | sequence. That allows 4 million
// workspaces of 16,384 boards, each board numbering 134 million posts (a post is numbered again when its words or
// board change).
export const SLOT_SHIFT = 27;
export const WORKSPACE_SHIFT = 41;
export const SLOT_MASK = (1 << (WORKSPACE_SHIFT - SLOT_SHIFT)) - 1;

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
 * also runs first), then merges the index's segments (`mergeSegments`); PostgreSQL lists the words of the posts
 * written since (`listPendingWords`), which no search waits for, and keeps the large workspaces' bands (`keepBands`).
 */
export async function searchChore(db: Database, mergeBudgetMs = MERGE_BUDGET_MS): Promise<void> {
  if (db.dialect.name !== 'sqlite') {
    const listed = await listPendingWords(db);
    return keepBands(db, listed);
  }
  await indexPending(db);
  await mergeSegments(db, performance.now() + mergeBudgetMs);
}

/** SQLite: the pages of merged index one merge step writes (about 5 ms at 100,000 posts). */
const MERGE_PAGES = 100;
/** SQLite: the most time one run of the chore spends merging; what is left, the next run goes on with. */
const MERGE_BUDGET_MS = 1000;

/** SQLite: how many segments (b-trees) the posts' FTS5 index is made of. */
export async function segmentsOf(db: Database): Promise<number> {
  return (await db.one<{ n: number }>('SELECT count(DISTINCT segid) AS n FROM post_search_idx'))?.n ?? 0;
}

/**
 * SQLite: the posts' FTS5 index's structure record (id 10 of its data table: its segments, at which levels, and a
 * merge begun), as hex. It stays the same across a run of the chore that had nothing left to merge.
 */
export async function indexStructure(db: Database): Promise<string | undefined> {
  return (await db.one<{ s: string }>('SELECT hex(block) AS s FROM post_search_data WHERE id = 10'))?.s;
}

/**
 * SQLite: merge the posts' FTS5 index's segments, a few pages a step, until nothing is left to merge or `deadline`.
 * Each flush of `indexPending` adds a segment, and FTS5's automerge goes on with its merges only as fast as new
 * entries are written: 22 segments right after a bulk load of 100,000 posts. A term is looked up in each, so a typo's
 * 400-odd probes of the vocabulary cost 8.6 ms there against 1.0 in two. FTS5's incremental 'merge' merges every level
 * that holds `usermerge` segments (2 here: migration SearchSegments) or goes on with a merge begun, each step a short
 * write of its own so that other writes go between; a step that changes fewer than two rows found nothing to do. The
 * contacts' index is left to FTS5's automerge: new contacts (identify) flush far more often, and a contact search
 * probes no vocabulary.
 */
async function mergeSegments(db: Database, deadline: number): Promise<void> {
  const step = () =>
    db.batch!((tx) => {
      const changes = () => tx.all<{ n: number }>('SELECT total_changes() AS n')[0]!.n;
      const before = changes();
      tx.run(`INSERT INTO post_search (post_search, rank) VALUES ('merge', ${MERGE_PAGES})`);
      return changes() - before >= 2;
    });
  // At least one step a run, then more until the deadline.
  while ((await step()) && performance.now() < deadline);
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
async function listPendingWords(db: Database): Promise<number> {
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
  return taken;
}

/** PostgreSQL: a workspace's bands hold its this many posts of highest bound, then eight times as many, and so on. */
export const BAND_POSTS = 4000;
/** PostgreSQL: how many bands a workspace may have (4,000, 32,000 and 256,000 posts). */
const BAND_LEVELS = 3;
/** PostgreSQL: how often a process works the bands out again, unless many posts came meanwhile. */
const BAND_EVERY_MS = 10 * 60_000;
/** PostgreSQL: the posts listed by one run of the chore that call for the bands at once (a bulk load). */
const BAND_INTAKE = 1000;
const bandsKept = new WeakMap<Database, number>();

/**
 * PostgreSQL: for each workspace of more than twice BAND_POSTS posts, the bounds above which its BAND_POSTS posts of
 * highest bound lie, and eight times as many, up to half its posts (`post_search_band`, which store/tables/search.ts
 * reads), worked out every BAND_EVERY_MS, or at once after a run that listed the words of BAND_INTAKE posts or more.
 * It reads every post's row, so not every minute. Bands out of date cost a search time, never a match: a search
 * whose band holds too few of its matches ranks them all, as before.
 */
async function keepBands(db: Database, listed: number): Promise<void> {
  const last = bandsKept.get(db);
  if (last !== undefined && listed < BAND_INTAKE && performance.now() - last < BAND_EVERY_MS) return;
  bandsKept.set(db, performance.now());
  const sizes = Array.from({ length: BAND_LEVELS }, (_, k) => BAND_POSTS * 8 ** k);
  await db.run(
    `INSERT INTO post_search_band (organization_id, bounds)
     SELECT w.organization_id, array(SELECT x.bound FROM (
         SELECT s.bound, row_number() OVER (ORDER BY s.bound DESC) AS n FROM post_search s WHERE s.organization_id = w.organization_id) x
       WHERE x.n IN (${sizes.join(', ')}) AND x.n * 2 < w.posts ORDER BY x.n)
     FROM (SELECT organization_id, count(*) AS posts FROM post_search GROUP BY organization_id HAVING count(*) > ${2 * BAND_POSTS}) w
     ON CONFLICT (organization_id) DO UPDATE SET bounds = excluded.bounds`,
  );
}
