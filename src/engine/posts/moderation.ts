import type { Post } from '../../schemas/posts.js';
import { notifyPostStatus, postTopic } from '../notifications/index.js';
import { changeTime, FeedbackError, postSummary, validationError } from '../shared/index.js';
import { emit, mailSubscriptions, postNotes, posts, votes, type WorkspaceContext } from '../store/index.js';
import { requireLivePost } from './references.js';

/**
 * Merge a duplicate into another post of the workspace: it leaves the portal's lists, its page sends to the target,
 * the target's page lists it, and its status becomes `duplicate` (with `post.status_changed`, whose mail reaches the
 * duplicate's people first). Then its votes (but a voter's second), its subscribers and the team's notes move to the
 * target. `post.merged` names both (for a post that was announced).
 */
export async function merge(
  { db, organizationId, clock }: WorkspaceContext,
  postId: string,
  intoId: string,
): Promise<Post> {
  return db.transaction(async (tx) => {
    const current = await requireLivePost(tx, organizationId, postId, true);
    const target = await requireLivePost(tx, organizationId, intoId, true);
    if (target.id === current.id)
      throw validationError([{ path: 'intoPostId', code: 'invalid', message: 'A post cannot be merged into itself.' }]);
    if (current.mergedIntoId)
      throw new FeedbackError('ERR_CONFLICT', `Post ${current.id} is already merged into ${current.mergedIntoId}.`);
    if (target.mergedIntoId)
      throw validationError([
        {
          path: 'intoPostId',
          code: 'invalid',
          message: `Post ${intoId} is itself merged into ${target.mergedIntoId}.`,
        },
      ]);
    const now = changeTime(clock, current.updatedAt);
    await posts.merge(tx, current.id, target.id, now);
    const next: Post = { ...current, mergedIntoId: target.id, status: 'duplicate', updatedAt: now.toISOString() };
    if (current.status !== 'duplicate') {
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
      await notifyPostStatus(tx, { organizationId, changeId, now }, next, current.status, target);
    }
    if (current.moderationStatus === 'approved')
      await emit(
        tx,
        {
          event: 'post.merged',
          organizationId,
          boardId: next.boardId,
          post: postSummary(next),
          into: postSummary(target),
        },
        now,
      );
    await votes.moveToPost(tx, current.id, target.id);
    await mailSubscriptions.moveTopic(tx, organizationId, postTopic(current.id), postTopic(target.id));
    await postNotes.move(tx, current.id, target.id);
    return requireLivePost(tx, organizationId, current.id);
  });
}

/**
 * Moderate a post held as `pending` (an anonymous portal post in a workspace that moderates): `approved` puts it on
 * the portal and emits the `post.created` it was held without; `spam` keeps it off. A post that is not pending is
 * refused with ERR_CONFLICT, so a post is announced once.
 */
export async function moderate(
  { db, organizationId, clock }: WorkspaceContext,
  postId: string,
  decision: 'approved' | 'spam',
): Promise<Post> {
  return db.transaction(async (tx) => {
    const current = await requireLivePost(tx, organizationId, postId, true);
    if (current.moderationStatus !== 'pending')
      throw new FeedbackError(
        'ERR_CONFLICT',
        `Post ${postId} is not waiting for moderation (it is ${current.moderationStatus}).`,
      );
    const now = changeTime(clock, current.updatedAt);
    await posts.setModeration(tx, current.id, decision, now);
    const next: Post = { ...current, moderationStatus: decision, updatedAt: now.toISOString() };
    if (decision === 'approved')
      await emit(tx, { event: 'post.created', organizationId, boardId: next.boardId, post: postSummary(next) }, now);
    return next;
  });
}
