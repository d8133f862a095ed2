// The one search syntax of the portal, the console and the engine (docs/search.md), and how it reads on each
// database's full-text engine: SQLite's FTS5 and PostgreSQL's tsquery.
//
//   dark mode          both words (each also as the start of a longer word: "export" finds "exports")
//   "dark mode"        the phrase, word for word
//   dark "editor"      a quoted word matches only itself
//
// Words are letters and digits; anything else separates them (a hyphenated word is a phrase of its parts). Case and,
// on SQLite, accents do not matter.

/** One term of a query: a word, or a phrase of words; `prefix` also matches longer words that start with it. */
export interface SearchTerm {
  words: string[];
  prefix: boolean;
}

/** At most this many words take part: a query longer than any title is not a search. */
export const SEARCH_MAX_WORDS = 16;

/** A word this short is matched whole: a one-letter prefix would match nearly everything. */
const PREFIX_MIN_LENGTH = 2;

const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** The terms of a query as people type it; none when it holds no word. */
export function parseSearch(input: string): SearchTerm[] {
  const terms: SearchTerm[] = [];
  let count = 0;
  // Quoted parts are phrases (an unclosed quote runs to the end); the rest are words.
  for (const [, quoted, plain] of input.matchAll(/"([^"]*)"?|([^"]+)/g)) {
    const parts = quoted !== undefined ? [wordsOf(quoted)] : (plain ?? '').split(/\s+/).map(wordsOf);
    for (const words of parts) {
      if (words.length === 0 || count >= SEARCH_MAX_WORDS) continue;
      const kept = words.slice(0, SEARCH_MAX_WORDS - count);
      count += kept.length;
      terms.push({
        words: kept,
        prefix: quoted === undefined && kept.length === 1 && kept[0]!.length >= PREFIX_MIN_LENGTH,
      });
    }
  }
  return terms;
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

/**
 * The languages a workspace's posts may be read in on PostgreSQL: its built-in text search configurations. `simple`
 * (the default) splits words and folds case, for any language; the others also stem words (`exports` is `export`).
 * These are in every PostgreSQL from 13 on.
 */
export const SEARCH_LANGUAGES = [
  'simple',
  'arabic',
  'danish',
  'dutch',
  'english',
  'finnish',
  'french',
  'german',
  'greek',
  'hungarian',
  'indonesian',
  'irish',
  'italian',
  'lithuanian',
  'nepali',
  'norwegian',
  'portuguese',
  'romanian',
  'russian',
  'spanish',
  'swedish',
  'tamil',
  'turkish',
] as const;
export type SearchLanguage = (typeof SEARCH_LANGUAGES)[number];
