// A search that forgives (docs/search.md): each word a person types also finds its stem's words, a word one typo
// away, and the team's synonyms; what they typed is still ranked first. Quoted words and phrases are taken as typed.
import snowball from 'snowball-stemmers';
import { type SearchGroup, type SearchTerm, type Sql, search } from '../store/index.js';
import { wordsOf } from './syntax.js';

/** The languages a search's words may be stemmed in (Snowball's), and `none`. */
export const STEM_LANGUAGES = [
  'none',
  'arabic',
  'armenian',
  'basque',
  'catalan',
  'czech',
  'danish',
  'dutch',
  'english',
  'finnish',
  'french',
  'german',
  'hungarian',
  'irish',
  'italian',
  'norwegian',
  'portuguese',
  'romanian',
  'russian',
  'slovene',
  'spanish',
  'swedish',
  'tamil',
  'turkish',
] as const;
export type StemLanguage = (typeof STEM_LANGUAGES)[number];

/** A word this long or longer is forgiven one typo (one letter added, left out, changed, or two swapped). */
export const TYPO_MIN_LENGTH = 5;
/** At most this many words one typo away stand in for a word. */
const TYPO_WORDS = 8;

const stemmers = new Map<string, { stem(word: string): string }>();
export function stemOf(language: string, word: string): string {
  if (language === 'none') return word;
  let stemmer = stemmers.get(language);
  if (!stemmer) stemmers.set(language, (stemmer = snowball.newStemmer(language)));
  return stemmer.stem(word);
}

/** How a workspace's searches forgive: the language of its stems, and its synonyms. */
export interface Forgiveness {
  stems: string;
  synonyms: readonly (readonly string[])[];
}

const term = (words: string[], prefix: boolean): SearchTerm => ({ words, prefix });
const same = (a: SearchTerm, b: SearchTerm) => a.prefix === b.prefix && a.words.join(' ') === b.words.join(' ');

/**
 * The typed terms as groups, each the term typed and what forgives it, in the order they rank: the typed term, the
 * team's synonyms, the stem, then words one typo away. Undefined when nothing forgives any term: the search is then
 * exactly what was typed.
 */
export async function forgive(
  sql: Sql,
  organizationId: string,
  terms: readonly SearchTerm[],
  how: Forgiveness,
): Promise<SearchGroup[] | undefined> {
  const groups = withSynonyms(terms, how.synonyms);
  const typed = groups.map((g) => g[0]!);
  // A word typed (not quoted) may be stemmed, and, when no word of the posts starts with it or its stem, forgiven a typo.
  const loose = typed.filter((t) => t.prefix && t.words.length === 1);
  const stems = loose.map((t) => stemOf(how.stems, t.words[0]!));
  const long = loose.filter((t, i) => t.words[0]!.length >= TYPO_MIN_LENGTH && stems[i]!.length >= 2);
  const starting = long.length
    ? await search.startingWords(sql, organizationId, [...long.map((t) => t.words[0]!), ...stems])
    : new Set<string>();
  const unknown = long.filter((t) => !starting.has(t.words[0]!) && !starting.has(stems[loose.indexOf(t)]!));
  // One typo from the word, or from its stem ("dashbords" is "dashbord", one letter from "dashboard").
  const candidates = new Map(
    unknown.map((t) => {
      const stem = stems[loose.indexOf(t)]!;
      const near = oneTypoAway(t.words[0]!);
      return [t, stem !== t.words[0] && stem.length >= TYPO_MIN_LENGTH ? [...near, ...oneTypoAway(stem)] : near];
    }),
  );
  const known = candidates.size
    ? await search.knownWords(sql, organizationId, [...new Set([...candidates.values()].flat())])
    : new Set<string>();
  let forgiven = false;
  const out = groups.map((group) => {
    const alternatives = [...group];
    const first = group[0]!;
    const i = loose.indexOf(first);
    if (i >= 0) {
      const stem = stems[i]!;
      if (stem !== first.words[0] && stem.length >= 2) alternatives.push(term([stem], true));
      const near = (candidates.get(first) ?? []).filter((w) => known.has(w)).slice(0, TYPO_WORDS);
      alternatives.push(...near.map((w) => term([w], false)));
    }
    const kept = alternatives.filter((t, k) => alternatives.findIndex((u) => same(t, u)) === k);
    if (kept.length > 1) forgiven = true;
    return kept;
  });
  return forgiven ? out : undefined;
}

/**
 * The terms in groups, the team's synonyms joined to the words they name: where the typed words (unquoted) are one of
 * a synonym group's words or phrases, the group's others stand beside them, each as a phrase of whole words.
 */
function withSynonyms(terms: readonly SearchTerm[], synonyms: Forgiveness['synonyms']): SearchTerm[][] {
  const sets = synonyms.map((group) => group.map(wordsOf).filter((w) => w.length > 0));
  const groups: SearchTerm[][] = [];
  for (let i = 0; i < terms.length; ) {
    // The longest member of any group that the words of the terms from here spell, term by term.
    let matched: { terms: number; set: string[][]; member: number } | undefined;
    for (let j = i + 1; j <= terms.length; j++) {
      const spelled = terms
        .slice(i, j)
        .flatMap((t) => t.words)
        .join(' ');
      for (const set of sets) {
        const member = set.findIndex((m) => m.join(' ') === spelled);
        if (member >= 0) matched = { terms: j - i, set, member };
      }
    }
    if (!matched) {
      groups.push([terms[i]!]);
      i++;
      continue;
    }
    const { set, member } = matched;
    const typed = matched.terms === 1 ? terms[i]! : term(set[member]!, false);
    groups.push([typed, ...set.filter((_, m) => m !== member).map((w) => term(w, false))]);
    i += matched.terms;
  }
  return groups;
}

/** The words one typo away from `word`: a letter left out, two swapped, one changed, one added (its script's letters). */
export function oneTypoAway(word: string): string[] {
  const letters = [...word];
  // Latin letters and the word's own (its script's, as typed); digits only in a word that has some.
  const alphabet = new Set([...'abcdefghijklmnopqrstuvwxyz', ...(/\d/.test(word) ? '0123456789' : ''), ...letters]);
  const out = new Set<string>();
  for (let i = 0; i <= letters.length; i++) {
    const before = letters.slice(0, i).join('');
    const after = letters.slice(i).join('');
    if (i < letters.length) out.add(before + letters.slice(i + 1).join(''));
    if (i < letters.length - 1) out.add(before + letters[i + 1] + letters[i] + letters.slice(i + 2).join(''));
    for (const c of alphabet) {
      if (i < letters.length) out.add(before + c + letters.slice(i + 1).join(''));
      out.add(before + c + after);
    }
  }
  out.delete(word);
  return [...out];
}
