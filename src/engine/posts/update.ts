import { type Post, updatePostBodySchema } from '../../schemas/posts.js';
import { notifyPostStatus } from '../notifications/index.js';
import {
  changeTime,
  FeedbackError,
  type FieldChange,
  isUniqueViolation,
  parseInput,
  postSummary,
} from '../shared/index.js';
import { emit, posts, postTags, type Sql, type WorkspaceContext } from '../store/index.js';
import { assertReferences, requireLivePost } from './references.js';

const EDITABLE = ['title', 'body', 'bodyText', 'contactId', 'hideFromRoadmap', 'slug', 'status'] as const;

/** The post with what the body changes; the current post when nothing changes. */
function applied(current: Post, input: ReturnType<typeof updatePostBodySchema.parse>): Post {
  const next: Post = { ...current };
  if (input.title !== undefined) next.title = input.title;
  if (input.body !== undefined) {
    next.body = JSON.stringify(input.body.json);
    next.bodyText = input.body.text;
  }
  if (input.contactId !== undefined) next.contactId = input.contactId;
  if (input.hideFromRoadmap !== undefined) next.hideFromRoadmap = input.hideFromRoadmap;
  if (input.slug !== undefined) next.slug = input.slug;
  if (input.status !== undefined) next.status = input.status;
  return next;
}

/** What an update changes, as `post.updated` carries it: the body as its text, the tags as their ids (sorted). */
function changesOf(current: Post, next: Post, hadTags: string[], tagIds: string[]): Record<string, FieldChange> {
  const changes: Record<string, FieldChange> = {};
  for (const field of EDITABLE) {
    if (field === 'body' || next[field] === current[field]) continue;
    changes[field === 'bodyText' ? 'body' : field] = { from: current[field], to: next[field] };
  }
  if (!changes.body && next.body !== current.body) changes.body = { from: current.bodyText, to: next.bodyText };
  if (hadTags.join() !== tagIds.join()) changes.tagIds = { from: hadTags, to: tagIds };
  return changes;
}

/** Write the post's new fields; an explicit slug taken in the board is 409. */
async function write(tx: Sql, current: Post, next: Post): Promise<void> {
  const slugConflict = () => new FeedbackError('ERR_CONFLICT', `slug ${next.slug} is already taken in this board`);
  if (next.slug !== current.slug && (await posts.slugTaken(tx, current.boardId, next.slug, current.id)))
    throw slugConflict();
  try {
    await posts.update(tx, next);
  } catch (err) {
    if (isUniqueViolation(err)) throw slugConflict();
    throw err;
  }
}

/**
 * `PATCH /v1/posts/{postId}`: changes what is sent; `post.status_changed` (with `previousStatus`) only when the status
 * really changes, and then, in the same transaction, one mail to each participant the consent rule lets through
 * (carrying the console's public `note`, when the team wrote one); none with `mail: false` (a published changelog
 * entry that ships the post carries the news instead).
 */
export async function update(
  { db, organizationId, clock }: WorkspaceContext,
  postId: string,
  body: unknown,
  options: { note?: string | null; mail?: boolean } = {},
): Promise<Post> {
  const input = parseInput(updatePostBodySchema, body);
  return db.transaction(async (tx) => {
    const current = await requireLivePost(tx, organizationId, postId, true);
    await assertReferences(tx, organizationId, { contactId: input.contactId, tagIds: input.tagIds });
    const next = applied(current, input);
    const hadTags =
      input.tagIds === undefined ? [] : ((await postTags.forPosts(tx, [current.id])).get(current.id) ?? []);
    const tagIds = input.tagIds === undefined ? hadTags : [...new Set(input.tagIds)].sort();
    const changes = changesOf(current, next, hadTags, tagIds);
    if (Object.keys(changes).length === 0) return current;
    const now = changeTime(clock, current.updatedAt);
    next.updatedAt = now.toISOString();
    await write(tx, current, next);
    if (changes.tagIds) await postTags.setForPost(tx, current.id, new Set(tagIds));
    // A post held for moderation is not announced yet: neither are its changes.
    if (current.moderationStatus === 'approved')
      await emit(
        tx,
        { event: 'post.updated', organizationId, boardId: next.boardId, post: postSummary(next), changes },
        now,
      );
    if (next.status !== current.status) {
      const changeId = await emit(
        tx,
        {
          event: 'post.status_changed',
          organizationId,
          boardId: next.boardId,
          post: postSummary(next),
          previousStatus: current.status,
        },
        now,
      );
      if (options.mail !== false)
        await notifyPostStatus(tx, { organizationId, changeId, now }, next, current.status, null, options.note ?? null);
    }
    return next;
  });
}
