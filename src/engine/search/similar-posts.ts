import { type Database, organizations, type PostSearchScope, type SearchTerm, search } from '../store/index.js';
import { DUPLICATE_THRESHOLD, similarity, titleWords } from './similar.js';

/** How many of a title's words are looked up (the longest), and how many posts each brings as candidates. */
const LOOKED_UP = 4;
const PER_WORD = 20;
/** A word's weight is ln(1 + SCALE / posts with it, up to PER_WORD); a word not looked up weighs as one in 5 posts. */
const SCALE = 100;
const UNSEEN = Math.log(1 + SCALE / 5);

/**
 * The posts of `scope` most alike `title` (engine/search/similar.ts), at least DUPLICATE_THRESHOLD alike, most alike
 * first: each of the title's longest words (by its stem, or its synonym group) brings the index's best matches, which
 * also say how common the word is; the candidates' titles are then scored. `titleOf` reads the candidates' titles
 * (the caller's: only the posts it may show).
 */
export async function similarPosts(
  db: Database,
  scope: PostSearchScope,
  title: string,
  titlesOf: (ids: string[]) => Promise<Map<string, string>>,
  limit = 5,
): Promise<Array<{ postId: string; score: number }>> {
  await search.indexPending(db);
  const org = await organizations.find(db, scope.organizationId);
  const stems = org?.searchStems ?? 'english';
  const synonyms = org?.searchSynonyms ?? [];
  const asked = titleWords(title, stems, synonyms);
  const lookedUp = asked.filter((w) => !w.startsWith('=') && w.length >= 2).sort((a, b) => b.length - a.length);
  const found = await Promise.all(
    lookedUp.slice(0, LOOKED_UP).map(async (w) => {
      const term: SearchTerm = { words: [w], prefix: true };
      return { w, matches: await search.rankedPosts(db, scope, [term], PER_WORD) };
    }),
  );
  const df = new Map(found.map(({ w, matches }) => [w, Math.max(1, matches.length)]));
  const weight = (w: string) => (df.has(w) ? Math.log(1 + SCALE / df.get(w)!) : UNSEEN);
  const candidates = [...new Set(found.flatMap(({ matches }) => matches.map((m) => m.postId)))];
  if (candidates.length === 0) return [];
  const titles = await titlesOf(candidates);
  return [...titles]
    .map(([postId, t]) => ({ postId, score: similarity(asked, titleWords(t, stems, synonyms), weight) }))
    .filter((c) => c.score >= DUPLICATE_THRESHOLD)
    .sort((a, b) => b.score - a.score || (a.postId < b.postId ? 1 : -1))
    .slice(0, limit);
}
