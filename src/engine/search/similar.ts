// How alike two titles are (docs/search.md#possible-duplicates): the words they share, the rarer ones weighing more,
// each word by its stem, a word of 5 letters or more also by a word one typo away, and phrases that mean the same
// (the team's synonyms, and a few of software's own) as one word. Lexical: no model, nothing to download.
import { stemOf } from './forgive.js';
import { wordsOf } from './syntax.js';

/** Words that say little of what a title asks for: function words, and the words every request uses. */
const STOPWORDS = new Set(
  (
    'a an the to for of in on at by with without and or but as is are be been it its this that these those my our your ' +
    'their we i you me us they them from into when while should would could can cannot not no do does dont doesnt ' +
    'add allow allowing please support supporting feature request option ability able want need needs make making ' +
    'enable let have has more some all any new improve improved better way use using get also so just very only ' +
    'there here which what how via per s t'
  ).split(' '),
);

/**
 * Phrases that mean the same in software requests, as groups (a title's phrase becomes its group's one word): used
 * by the similarity alone, beside the workspace's synonyms. English.
 */
export const BUILT_IN_SYNONYMS: readonly (readonly string[])[] = [
  ['sso', 'single sign on', 'saml'],
  ['2fa', 'two factor', 'mfa', 'multi factor'],
  ['dark mode', 'dark theme', 'night mode'],
  ['ios', 'iphone'],
  ['macos', 'mac'],
  ['csv', 'spreadsheet'],
  ['ms teams', 'microsoft teams'],
  ['login', 'log in', 'sign in', 'signin'],
  ['rtl', 'right to left'],
  ['white label', 'remove branding'],
  ['mrr', 'revenue'],
  ['annual', 'yearly'],
  ['gdpr', 'personal data'],
  ['wysiwyg', 'rich text'],
  ['ics', 'ical'],
];

/**
 * How the similarity reads titles, in a stem language with a workspace's synonyms (the groups read once): each title
 * as its words stemmed, and a phrase of a synonym group also as the group's word.
 */
export function titleReader(stems: string, synonyms: readonly (readonly string[])[] = []): (title: string) => string[] {
  const groups = [...synonyms, ...BUILT_IN_SYNONYMS].map((g) => g.map(wordsOf).filter((m) => m.length > 0));
  return (title) => {
    const words = wordsOf(title);
    const out: string[] = [];
    for (let i = 0; i < words.length; ) {
      let best: { length: number; group: number } | undefined;
      groups.forEach((group, g) => {
        for (const member of group)
          if (member.length > (best?.length ?? 0) && member.every((w, k) => words[i + k] === w))
            best = { length: member.length, group: g };
      });
      // A phrase of a group is the group's word, and its own words too ("dark mode" is also "dark" and "mode").
      if (best) out.push(`=${best.group}`);
      const word = words[i++]!;
      if (!STOPWORDS.has(word)) out.push(stemOf(stems, word));
    }
    return [...new Set(out)];
  };
}

/** Whether two words are one typo apart (both of 5 letters or more): one left out, added, changed, or two swapped. */
export function oneTypoApart(a: string, b: string): boolean {
  if (a === b || a.length < 5 || b.length < 5 || Math.abs(a.length - b.length) > 1) return false;
  if (a.length === b.length) {
    const diff = [...a].flatMap((c, i) => (c === b[i] ? [] : [i]));
    return (
      diff.length === 1 ||
      (diff.length === 2 && diff[1] === diff[0]! + 1 && a[diff[0]!] === b[diff[1]!] && a[diff[1]!] === b[diff[0]!])
    );
  }
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  let i = 0;
  while (i < short.length && short[i] === long[i]) i++;
  return long.slice(i + 1) === short.slice(i);
}

/** How much a word says: rarer words more (`ln(1 + posts / posts with it)`); a word no post has, the most. */
export type WordWeight = (word: string) => number;

/** A word one typo away, or the start of the other (4 letters or more: "dark" of "darker"), counts this much. */
const NEAR_SHARE = 0.8;

/** Whether two words are near: one typo apart, or one the start of the other (the shorter of 4 letters or more). */
const near = (a: string, b: string) =>
  oneTypoApart(a, b) || (Math.min(a.length, b.length) >= 4 && (a.startsWith(b) || b.startsWith(a)));

/**
 * How alike two titles' words are, from 0 to 1: the weight of the words they share (a near word, one typo away or
 * its start, counting NEAR_SHARE), over the weight of all their words (Dice's coefficient, weighted).
 */
export function similarity(a: readonly string[], b: readonly string[], weight: WordWeight): number {
  const shared = (from: readonly string[], to: readonly string[]) =>
    from.reduce((sum, w) => {
      if (to.includes(w)) return sum + weight(w);
      return to.some((u) => near(w, u)) ? sum + NEAR_SHARE * weight(w) : sum;
    }, 0);
  const total = [...a, ...b].reduce((sum, w) => sum + weight(w), 0);
  return total === 0 ? 0 : (shared(a, b) + shared(b, a)) / total;
}

/** The score from which two titles are taken for the same request (chosen on the labelled set, docs/search.md). */
export const DUPLICATE_THRESHOLD = 0.45;
