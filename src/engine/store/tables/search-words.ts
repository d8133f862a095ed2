// The words a workspace's posts hold, as a search that forgives asks them (engine/search/forgive.ts): SQLite's from
// FTS5's own vocabulary (`post_search_vocab`, an fts5vocab table over the index: every workspace's words, folded as the
// index folds them), PostgreSQL's from `post_search_word` (the workspace's words, listed by the search chore).
import { type Sql, toStringOrNull } from '../sql.js';

/** Beyond this many posts whose words are not listed yet (a bulk load), a search does not read their words: its prefixes stay prefixes. */
export const PENDING_WORDS_READ = 200;

/**
 * PostgreSQL: the words of the workspace's posts not listed yet (written since the search chore last ran), as a
 * subquery `n(word)` taking the workspace id, unless a bulk load left more than PENDING_WORDS_READ of them.
 */
const PENDING_WORDS = `SELECT n.word FROM post_search_word_pending p JOIN post_search s ON s.post_id = p.post_id,
  unnest(tsvector_to_array(s.document)) n(word)
  WHERE p.organization_id = ? AND (SELECT count(*) FROM (SELECT 1 FROM post_search_word_pending WHERE organization_id = p.organization_id LIMIT ${PENDING_WORDS_READ + 1}) b) <= ${PENDING_WORDS_READ}`;

/** A word as SQLite's index holds it: lower case, without accents (`unicode61 remove_diacritics 2`). */
const folded = (word: string) => word.normalize('NFD').replace(/\p{M}/gu, '');

/** Of these words, those that some word of the workspace's posts starts with (or is). */
export async function startingWords(sql: Sql, organizationId: string, words: readonly string[]): Promise<Set<string>> {
  if (words.length === 0) return new Set();
  const rows =
    sql.dialect.name === 'sqlite'
      ? await sql.all<{ w: unknown }>(
          `SELECT j.value ->> 'w' AS w FROM json_each(?) j
           WHERE EXISTS (SELECT 1 FROM post_search_vocab v WHERE v.term >= j.value ->> 'f' AND v.term < (j.value ->> 'f') || char(1114111))`,
          [JSON.stringify(words.map((w) => ({ w, f: folded(w) })))],
        )
      : await sql.all<{ w: unknown }>(
          `SELECT w FROM unnest(?::text[]) w WHERE EXISTS (SELECT 1 FROM post_search_word p
             WHERE p.organization_id = ? AND p.word >= w COLLATE "C" AND p.word < (w || chr(1114111)) COLLATE "C")
           OR EXISTS (SELECT 1 FROM (${PENDING_WORDS}) n WHERE n.word COLLATE "C" >= w COLLATE "C" AND n.word COLLATE "C" < (w || chr(1114111)) COLLATE "C")`,
          [words, organizationId, organizationId],
        );
  return new Set(rows.map((r) => toStringOrNull(r.w)!));
}

/** Of these words, those that are words of the workspace's posts: one index probe each. */
export async function knownWords(sql: Sql, organizationId: string, words: readonly string[]): Promise<Set<string>> {
  if (words.length === 0) return new Set();
  if (sql.dialect.name === 'sqlite') {
    const byFold = new Map<string, string[]>();
    for (const w of words) byFold.set(folded(w), [...(byFold.get(folded(w)) ?? []), w]);
    // CROSS JOIN keeps the words outer: each is one equality probe into the vocabulary.
    const rows = await sql.all<{ term: string }>(
      'SELECT v.term FROM json_each(?) j CROSS JOIN post_search_vocab v ON v.term = j.value',
      [JSON.stringify([...byFold.keys()])],
    );
    return new Set(rows.flatMap((r) => byFold.get(r.term) ?? []));
  }
  const rows = await sql.all<{ word: string }>(
    `SELECT word FROM post_search_word WHERE organization_id = ? AND word = ANY(?::text[])
     UNION SELECT n.word FROM (${PENDING_WORDS}) n WHERE n.word = ANY(?::text[])`,
    [organizationId, words, organizationId, words],
  );
  return new Set(rows.map((r) => r.word));
}
