// The one search syntax of the portal, the console and the engine (docs/search.md); how it reads on each database's
// full-text engine (SQLite's FTS5, PostgreSQL's tsquery) is the store's (store/tables/search.ts).
//
//   dark mode          both words (each also as the start of a longer word: "export" finds "exports")
//   "dark mode"        the phrase, word for word
//   dark "editor"      a quoted word matches only itself
//
// Words are letters and digits; anything else separates them (a hyphenated word is a phrase of its parts). Case and,
// on SQLite, accents do not matter.
import type { SearchTerm } from '../store/index.js';

/** At most this many words take part: a query longer than any title is not a search. */
export const SEARCH_MAX_WORDS = 16;

/** A word this short is matched whole: a one-letter prefix would match nearly everything. */
const PREFIX_MIN_LENGTH = 2;

/** A text's words, lower-cased: letters and digits, anything else separates them. */
export const wordsOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

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
