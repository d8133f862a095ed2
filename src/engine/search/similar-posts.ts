import {
  type Database,
  organizations,
  type PostSearchScope,
  postEmbeddings,
  type SearchTerm,
  search,
} from '../store/index.js';
import { cosine, type Embeddings } from './embeddings.js';
import { DUPLICATE_THRESHOLD, similarity, titleReader } from './similar.js';

/** With an embeddings endpoint: the newest posts of the scope whose vectors are compared, and the best kept. */
const SEMANTIC_POSTS = 5000;
const SEMANTIC_CANDIDATES = 10;
/** A cosine of 0.5 or less says nothing; 1 is the same meaning: mapped onto the similarity's 0 to 1. */
export const semanticScore = (cos: number) => Math.max(0, Math.min(1, (cos - 0.5) / 0.5));

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
 * (the caller's: only the posts it may show). With `embeddings`, the posts whose titles mean the most alike (a cosine
 * of the endpoint's vectors) are candidates too, and a post's score is the better of the two similarities; when the
 * endpoint does not answer in time, the lexical similarity answers alone.
 */
export async function similarPosts(
  db: Database,
  scope: PostSearchScope,
  title: string,
  titlesOf: (ids: string[]) => Promise<Map<string, string>>,
  limit = 5,
  embeddings?: Embeddings,
): Promise<Array<{ postId: string; score: number }>> {
  await search.indexPending(db);
  const org = await organizations.find(db, scope.organizationId);
  const stems = org?.searchStems ?? 'english';
  const synonyms = org?.searchSynonyms ?? [];
  const read = titleReader(stems, synonyms);
  const asked = read(title);
  const lookedUp = asked.filter((w) => !w.startsWith('=') && w.length >= 2).sort((a, b) => b.length - a.length);
  const [found, meaning] = await Promise.all([
    Promise.all(
      lookedUp.slice(0, LOOKED_UP).map(async (w) => {
        const term: SearchTerm = { words: [w], prefix: true };
        return { w, matches: await search.rankedPosts(db, scope, [term], PER_WORD) };
      }),
    ),
    embeddings ? semantic(db, scope, title, embeddings) : new Map<string, number>(),
  ]);
  const df = new Map(found.map(({ w, matches }) => [w, Math.max(1, matches.length)]));
  const weight = (w: string) => (df.has(w) ? Math.log(1 + SCALE / df.get(w)!) : UNSEEN);
  const candidates = [...new Set([...found.flatMap(({ matches }) => matches.map((m) => m.postId)), ...meaning.keys()])];
  if (candidates.length === 0) return [];
  const titles = await titlesOf(candidates);
  return [...titles]
    .map(([postId, t]) => ({
      postId,
      score: Math.max(similarity(asked, read(t), weight), meaning.get(postId) ?? 0),
    }))
    .filter((c) => c.score >= DUPLICATE_THRESHOLD)
    .sort((a, b) => b.score - a.score || (a.postId < b.postId ? 1 : -1))
    .slice(0, limit);
}

/** The scope's posts closest in meaning to the title, by their semantic score; none when the endpoint does not answer. */
async function semantic(
  db: Database,
  scope: PostSearchScope,
  title: string,
  embeddings: Embeddings,
): Promise<Map<string, number>> {
  const [asked, vectors] = await Promise.all([
    embeddings.embed([title]),
    postEmbeddings.vectorsOf(db, scope, embeddings.model, SEMANTIC_POSTS),
  ]);
  if (!asked) return new Map();
  return new Map(
    vectors
      .map((v) => [v.postId, semanticScore(cosine(asked[0]!, v.vector))] as const)
      .filter(([, score]) => score > 0)
      .sort((a, b) => b[1] - a[1])
      .slice(0, SEMANTIC_CANDIDATES),
  );
}
