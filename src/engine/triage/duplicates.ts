// Possible duplicates in the console (docs/search.md#possible-duplicates): a post's, and the queue of merge
// suggestions among the newest posts, with the pairs the team dismissed left out.
import { type Embeddings, similarPosts } from '../search/index.js';
import { FeedbackError } from '../shared/index.js';
import { duplicateDismissals, posts, triage, type WorkspaceContext } from '../store/index.js';

/** A workspace's context, with the embeddings endpoint when the engine has one. */
type Context = WorkspaceContext & { embeddings?: Embeddings };

/** A possible duplicate of a post: the other post, and how alike their titles are (0 to 1). */
export interface PossibleDuplicate {
  post: triage.TriagePost;
  score: number;
}

/** How many of the newest posts the queue looks at, and how many suggestions it shows. */
export const QUEUE_POSTS = 25;
const QUEUE_LIMIT = 20;

/** The workspace's live, unmerged posts most alike this one's title, but those dismissed with it. */
export async function possibleDuplicates(ctx: Context, postId: string): Promise<PossibleDuplicate[]> {
  const post = await posts.findLive(ctx.db, ctx.organizationId, postId);
  if (!post) throw new FeedbackError('ERR_NOT_FOUND', `No post with id ${postId}.`);
  return alike(ctx, post.id, post.title);
}

async function alike(ctx: Context, postId: string, title: string): Promise<PossibleDuplicate[]> {
  const read = new Map<string, triage.TriagePost>();
  const found = await similarPosts(
    ctx.db,
    { organizationId: ctx.organizationId },
    title,
    async (ids) => {
      for (const p of await triage.byIds(ctx.db, ids, {})) if (p.id !== postId) read.set(p.id, p);
      return new Map([...read].map(([id, p]) => [id, p.title]));
    },
    6,
    ctx.embeddings,
  );
  const dismissed = await duplicateDismissals.dismissedAmong(ctx.db, [postId]);
  return found
    .filter((f) => !duplicateDismissals.isDismissed(dismissed, postId, f.postId))
    .slice(0, 5)
    .map((f) => ({ post: read.get(f.postId)!, score: f.score }));
}

/** A merge suggestion: the post to merge (the newer, or the one with fewer votes) and the post to keep. */
export interface MergeSuggestion {
  merge: triage.TriagePost;
  into: triage.TriagePost;
  score: number;
}

/**
 * The queue of merge suggestions: among the workspace's QUEUE_POSTS newest live posts, each one's possible duplicates
 * (one suggestion a pair, dismissed pairs left out), most alike first. The post with more votes is the one kept
 * (the older on a tie).
 */
export async function mergeSuggestions(ctx: Context): Promise<MergeSuggestion[]> {
  const ids = await posts.newestLiveIds(ctx.db, ctx.organizationId, QUEUE_POSTS);
  const byId = new Map((await triage.byIds(ctx.db, ids, {})).map((p) => [p.id, p]));
  const newest = ids.flatMap((id) => byId.get(id) ?? []);
  const seen = new Set<string>();
  const out: MergeSuggestion[] = [];
  for (const post of newest)
    for (const { post: other, score } of await alike(ctx, post.id, post.title)) {
      const key = [post.id, other.id].sort().join(' ');
      if (seen.has(key)) continue;
      seen.add(key);
      const keepOther =
        other.voteCount > post.voteCount || (other.voteCount === post.voteCount && other.createdAt <= post.createdAt);
      out.push({ merge: keepOther ? post : other, into: keepOther ? other : post, score });
    }
  return out.sort((a, b) => b.score - a.score).slice(0, QUEUE_LIMIT);
}
