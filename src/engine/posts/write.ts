import type { ModerationStatus, Post, PostStatus } from '../../schemas/posts.js';
import { firstFreeSlug, newId, postSummary, slugify } from '../shared/index.js';
import { emit, posts, postTags, type Sql } from '../store/index.js';

export interface NewPost {
  boardId: string;
  title: string;
  body?: { json: unknown; text: string };
  contactId: string | null;
  authorUserId?: string | null;
  /** The name an end-user gave on the portal. */
  authorName?: string | null;
  tagIds?: string[];
  moderationStatus: ModerationStatus;
  /** `open` unless said (an import keeps the status a post had). */
  status?: PostStatus;
}

/**
 * Insert a post (slug derived from the title and made unique in the board), its tags and, unless it is held for
 * moderation, its `post.created` event, in the caller's transaction. The board must be in the workspace.
 */
export async function insertPost(tx: Sql, organizationId: string, input: NewPost, now: Date): Promise<Post> {
  const post = await writePost(tx, organizationId, input, now);
  // A post held for moderation is announced when it is approved: until then nobody outside the workspace sees it.
  if (post.moderationStatus === 'approved')
    await emit(tx, { event: 'post.created', organizationId, boardId: post.boardId, post: postSummary(post) }, now);
  return post;
}

/** A post's row and tags as made `at`, without an event: insertPost's, and an import's (history, not news). */
export async function writePost(tx: Sql, organizationId: string, input: NewPost, at: Date): Promise<Post> {
  const base = slugify(input.title);
  const post: Post = {
    id: newId('post', at.getTime()),
    organizationId,
    boardId: input.boardId,
    contactId: input.contactId,
    authorUserId: input.authorUserId ?? null,
    title: input.title,
    slug: firstFreeSlug(base, await posts.slugsLike(tx, input.boardId, base)),
    body: input.body === undefined ? '' : JSON.stringify(input.body.json),
    bodyText: input.body?.text ?? '',
    status: input.status ?? 'open',
    moderationStatus: input.moderationStatus,
    hideFromRoadmap: false,
    roadmapOrder: null,
    mergedIntoId: null,
    commentCount: 0,
    voteCount: 0,
    createdAt: at.toISOString(),
    updatedAt: at.toISOString(),
    deletedAt: null,
  };
  await posts.insert(tx, post, input.authorName ?? null);
  if (input.tagIds?.length) await postTags.setForPost(tx, post.id, new Set(input.tagIds));
  return post;
}
