import type { Post, PostDetail } from '../../schemas/posts.js';
import { postImpacts, postTags, type Sql } from '../store/index.js';

/** The posts as the API gives them: each with its tags (by name) and its impact per currency (most revenue first). */
export async function withDetails(sql: Sql, list: readonly Post[]): Promise<PostDetail[]> {
  const ids = list.map((p) => p.id);
  const [tags, impact] = await Promise.all([postTags.refsForPosts(sql, ids), postImpacts.forPosts(sql, ids)]);
  return list.map((post) => ({
    ...post,
    tags: tags.get(post.id) ?? [],
    impact: (impact.get(post.id) ?? []).map((i) => ({
      currency: i.currency,
      mrrCents: i.mrrCents,
      companies: i.payingCompanies,
      people: i.payingPeople,
    })),
  }));
}

/** One post as the API gives it. */
export const withDetail = async (sql: Sql, post: Post): Promise<PostDetail> => (await withDetails(sql, [post]))[0]!;
