import { type Database, organizations, type PostSearchScope, type SearchTerm, search } from '../store/index.js';
import { forgive } from './forgive.js';

/** A relevance page's position: the last post's relevance, votes, creation time (ms) and id. */
export type RelevancePosition = readonly [number, number, number, string];

/** What a post search reads of each match: its own fields, and what the search order needs. */
interface Searched {
  id: string;
  voteCount: number;
  createdAt: string;
}

/**
 * The one post search of the portal and the console (docs/search.md): up to `limit` posts of `scope` matching
 * `terms`, forgiven as the workspace forgives (its stems, typos, its synonyms: forgive.ts), most relevant first (what
 * was typed before what forgives it), ties by votes then newest, after `after`. The index ranks the matches; `read` reads the
 * posts of the best few by id, as the caller shows them and with the caller's filters (a post it leaves out is not
 * shown), and each comes back with its position for the next page's cursor.
 */
export async function searchPosts<T extends Searched>(
  db: Database,
  scope: PostSearchScope,
  terms: readonly SearchTerm[],
  limit: number,
  after: RelevancePosition | undefined,
  read: (ids: string[]) => Promise<T[]>,
): Promise<Array<T & { position: RelevancePosition }>> {
  if (terms.length === 0) return [];
  await search.indexPending(db);
  const org = await organizations.find(db, scope.organizationId);
  const how = { stems: org?.searchStems ?? 'none', synonyms: org?.searchSynonyms ?? [] };
  const groups = await forgive(db, scope.organizationId, terms, how);
  const cursor = after && { relevance: after[0], voteCount: after[1], createdAt: after[2], id: after[3] };
  const query = groups ? { terms, groups } : { terms };
  const rows = await search.searchPage(db, scope, query, limit, cursor, async (matches) => {
    const relevance = new Map(matches.map((m) => [m.postId, m.relevance]));
    const posts = await read([...relevance.keys()]);
    return posts.map((post) => ({
      id: post.id,
      voteCount: post.voteCount,
      createdAt: Date.parse(post.createdAt),
      relevance: relevance.get(post.id)!,
      post,
    }));
  });
  return rows.map((r) => ({ ...r.post, position: [r.relevance, r.voteCount, r.createdAt, r.id] as const }));
}
