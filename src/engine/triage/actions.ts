// What the team does to a post from the console: edit it, change its status (with a public note), moderate, merge,
// reply officially, and keep internal notes. Each is the engine's own change (the same events, webhooks and mail as
// through REST), refused to a role that may not triage, and recorded in the audit log in its transaction.
import { COMMENT_BODY_TEXT_MAX } from '../../schemas/interactions.js';
import type { Post, PostStatus } from '../../schemas/posts.js';
import { notifyReply } from '../notifications/index.js';
import { createPostsService, requireLivePost } from '../posts/index.js';
import { FeedbackError, newId, plainBody } from '../shared/index.js';
import { comments, emit, postNotes, posts, postTags, type Sql, triage, type WorkspaceContext } from '../store/index.js';
import { type Actor, actAs } from '../team/index.js';

/** A team text (an official reply, an internal note, a status note): trimmed, not empty, at most 10,000 characters. */
function teamText(field: string, value: string): string {
  const text = value.trim();
  if (!text) throw new FeedbackError('ERR_VALIDATION', `Write the ${field} first.`);
  if (text.length > COMMENT_BODY_TEXT_MAX)
    throw new FeedbackError(
      'ERR_VALIDATION',
      `The ${field} must be at most ${COMMENT_BODY_TEXT_MAX.toLocaleString('en')} characters.`,
    );
  return text;
}

/**
 * An official reply: a comment of the team (signed with the member's name, shown as the team's on the portal), with
 * `comment.created` as any comment. The post's author hears of it, unless the reply goes with a status change, whose
 * mail already carries it.
 */
async function officialReply(
  tx: Sql,
  ctx: WorkspaceContext,
  post: Post,
  authorName: string | null,
  text: string,
  notify: boolean,
): Promise<string> {
  const now = ctx.clock();
  const id = newId('cmt', now.getTime());
  const written = {
    id,
    postId: post.id,
    parentId: null,
    authorUserId: null,
    bodyText: text,
    createdAt: now.toISOString(),
  };
  await comments.insert(tx, {
    ...written,
    organizationId: ctx.organizationId,
    authorName,
    emailHash: null,
    contactId: null,
    official: true,
    createdAt: now,
  });
  const changeId = await emit(
    tx,
    { event: 'comment.created', organizationId: ctx.organizationId, boardId: post.boardId, comment: written },
    now,
  );
  if (notify)
    await notifyReply(
      tx,
      { organizationId: ctx.organizationId, changeId, now },
      post,
      { id, bodyText: text, authorName, email: null },
      null,
    );
  return id;
}

/** What a bulk action does to each post chosen. */
export type BulkAction =
  | { kind: 'status'; status: PostStatus }
  | { kind: 'tag'; tagId: string }
  | { kind: 'move'; boardId: string }
  | { kind: 'approve' }
  | { kind: 'reject' };

/** At most this many posts in one bulk action. */
export const BULK_LIMIT = 100;

/** The post's tags with `tagId` added (a post carries at most three: the engine's PATCH refuses a fourth). */
async function withTag(tx: Sql, postId: string, tagId: string): Promise<string[]> {
  const current = (await postTags.forPosts(tx, [postId])).get(postId) ?? [];
  return current.includes(tagId) ? current : [...current, tagId];
}

/** A workspace's triage actions, as one team member (or the command line). */
export function createTriageActions(ctx: WorkspaceContext, actor: Actor) {
  /**
   * Set a roadmap column's order, in one transaction with its audit entry: `order` gets the column as it is now (its
   * post ids, in order) and answers the ids in their new order; every one must be in the column (409 otherwise).
   */
  const ordered = (status: PostStatus, order: (column: string[]) => string[]) =>
    actAs(ctx, actor, 'triage', async (_inner, tx) => {
      const column = (await triage.roadmapColumn(tx, ctx.organizationId, status, triage.ROADMAP_LIMIT)).map(
        (p) => p.id,
      );
      const ids = order(column);
      if (ids.length === 0 || ids.length > triage.ROADMAP_LIMIT)
        throw new FeedbackError(
          'ERR_VALIDATION',
          `Name 1 to ${triage.ROADMAP_LIMIT} posts of the column, in their new order.`,
        );
      const stranger = ids.find((id) => !column.includes(id));
      if (stranger)
        throw new FeedbackError(
          'ERR_CONFLICT',
          `The post ${stranger} is not in the roadmap’s column; reload the roadmap and try again.`,
        );
      await posts.setRoadmapOrder(tx, ctx.organizationId, ids);
      return {
        result: ids,
        audit: { action: 'roadmap.ordered', resourceType: 'roadmap', resourceId: status, detail: { posts: ids } },
      };
    });
  return {
    /**
     * Order a roadmap column: `postIds` are the column's posts (of `status`) in their new order, each given its
     * position (1, 2, 3...); the portal's roadmap shows them so. Posts of the column not named keep theirs and follow.
     */
    reorder: (status: PostStatus, postIds: string[]) => ordered(status, () => [...new Set(postIds)]),

    /** Move one post of a roadmap column to `position` (0 is the top), the others keeping their order around it. */
    place: (status: PostStatus, postId: string, position: number) =>
      ordered(status, (column) => {
        if (!column.includes(postId)) return [postId];
        const rest = column.filter((id) => id !== postId);
        rest.splice(Math.max(0, Math.min(rest.length, Math.trunc(position) || 0)), 0, postId);
        return rest;
      }),

    /** Change the title and the text of the body (the body becomes plain paragraphs). */
    edit: (postId: string, change: { title?: string; bodyText?: string }) =>
      actAs(ctx, actor, 'triage', async (inner) => {
        const body = {
          ...(change.title !== undefined ? { title: change.title.trim() } : {}),
          ...(change.bodyText !== undefined ? { body: plainBody(change.bodyText.trim()) } : {}),
        };
        const post = await createPostsService(inner).update(postId, body);
        return {
          result: post,
          audit: {
            action: 'post.edited',
            resourceType: 'post',
            resourceId: postId,
            detail: { fields: Object.keys(body) },
          },
        };
      }),

    /**
     * Set the status; a `note` (optional) is posted as an official reply and goes in the status mail to the post's
     * people (those the consent rule lets through). The same status with a note is just the reply.
     */
    setStatus: (postId: string, status: PostStatus, note?: string | null) =>
      actAs(ctx, actor, 'triage', async (inner, tx, acting) => {
        const text = note?.trim() ? teamText('note', note) : null;
        const before = await requireLivePost(tx, ctx.organizationId, postId, true);
        const post = await createPostsService(inner).update(postId, { status }, { note: text });
        const changed = post.status !== before.status;
        const replyId = text ? await officialReply(tx, ctx, post, acting.name, text, !changed) : null;
        if (!changed && !replyId) return { result: post, audit: null };
        if (!changed)
          return {
            result: post,
            audit: {
              action: 'comment.official_reply',
              resourceType: 'comment',
              resourceId: replyId,
              detail: { postId },
            },
          };
        // The note's reply is named, so the member's data request finds what they signed.
        const detail = {
          from: before.status,
          to: post.status,
          note: replyId !== null,
          ...(replyId ? { replyId } : {}),
        };
        return {
          result: post,
          audit: { action: 'post.status_changed', resourceType: 'post', resourceId: postId, detail },
        };
      }),

    /** Approve (it goes on the portal, with `post.created`) or mark as spam a post held for moderation. */
    moderate: (postId: string, decision: 'approved' | 'spam') =>
      actAs(ctx, actor, 'triage', async (inner) => ({
        result: await createPostsService(inner).moderate(postId, decision),
        audit: {
          action: decision === 'approved' ? 'post.approved' : 'post.rejected',
          resourceType: 'post',
          resourceId: postId,
        },
      })),

    /** Merge the post into another: its votes, subscribers and notes move there, its page sends there. */
    merge: (postId: string, intoId: string) =>
      actAs(ctx, actor, 'triage', async (inner) => ({
        result: await createPostsService(inner).merge(postId, intoId),
        audit: { action: 'post.merged', resourceType: 'post', resourceId: postId, detail: { into: intoId } },
      })),

    /** Move the post to another board of the workspace. */
    move: (postId: string, boardId: string) =>
      actAs(ctx, actor, 'triage', async (inner, tx) => {
        const before = await requireLivePost(tx, ctx.organizationId, postId, true);
        const post = await createPostsService(inner).move(postId, boardId);
        const audit =
          before.boardId === boardId
            ? null
            : {
                action: 'post.moved',
                resourceType: 'post',
                resourceId: postId,
                detail: { from: before.boardId, to: boardId },
              };
        return { result: post, audit };
      }),

    /** Set the tags the post carries (at most three, of the workspace). */
    setTags: (postId: string, tagIds: string[]) =>
      actAs(ctx, actor, 'triage', async (inner) => ({
        result: await createPostsService(inner).update(postId, { tagIds: [...new Set(tagIds)] }),
        audit: {
          action: 'post.tagged',
          resourceType: 'post',
          resourceId: postId,
          detail: { tagIds: [...new Set(tagIds)] },
        },
      })),

    /**
     * One action on up to BULK_LIMIT posts, all or none: each post changes as its own action would (its events, its
     * mail), in one transaction; one refusal (a post not held, a fifth tag, an unknown id) changes nothing and names
     * the post. One audit entry per post changed, marked `bulk`.
     */
    bulk: (postIds: string[], action: BulkAction) =>
      actAs(ctx, actor, 'triage', async (inner, tx) => {
        const ids = [...new Set(postIds)];
        if (ids.length === 0) throw new FeedbackError('ERR_VALIDATION', 'Choose at least one post.');
        if (ids.length > BULK_LIMIT)
          throw new FeedbackError('ERR_VALIDATION', `Choose at most ${BULK_LIMIT} posts at a time.`);
        const service = createPostsService(inner);
        const audit = [];
        for (const id of ids) {
          try {
            if (action.kind === 'status') {
              const before = await requireLivePost(tx, ctx.organizationId, id, true);
              await service.update(id, { status: action.status });
              if (before.status !== action.status)
                audit.push({
                  action: 'post.status_changed',
                  resourceType: 'post',
                  resourceId: id,
                  detail: { from: before.status, to: action.status, bulk: true },
                });
            } else if (action.kind === 'move') {
              const before = await requireLivePost(tx, ctx.organizationId, id, true);
              await service.move(id, action.boardId);
              if (before.boardId !== action.boardId)
                audit.push({
                  action: 'post.moved',
                  resourceType: 'post',
                  resourceId: id,
                  detail: { from: before.boardId, to: action.boardId, bulk: true },
                });
            } else if (action.kind === 'tag') {
              await service.update(id, { tagIds: await withTag(tx, id, action.tagId) });
              audit.push({
                action: 'post.tagged',
                resourceType: 'post',
                resourceId: id,
                detail: { added: action.tagId, bulk: true },
              });
            } else {
              await service.moderate(id, action.kind === 'approve' ? 'approved' : 'spam');
              audit.push({
                action: action.kind === 'approve' ? 'post.approved' : 'post.rejected',
                resourceType: 'post',
                resourceId: id,
                detail: { bulk: true },
              });
            }
          } catch (err) {
            if (!(err instanceof FeedbackError)) throw err;
            const post = await posts.findLive(tx, ctx.organizationId, id);
            throw new FeedbackError(err.code, `${post ? `“${post.title}”` : id}: ${err.message} Nothing was changed.`);
          }
        }
        return { result: { changed: audit.length }, audit };
      }),

    /** Reply as the team: shown on the portal as the team's; the post's author hears of it. */
    reply: (postId: string, text: string) =>
      actAs(ctx, actor, 'triage', async (_inner, tx, acting) => {
        const body = teamText('reply', text);
        const id = await officialReply(
          tx,
          ctx,
          await requireLivePost(tx, ctx.organizationId, postId, true),
          acting.name,
          body,
          true,
        );
        return {
          result: { id },
          audit: { action: 'comment.official_reply', resourceType: 'comment', resourceId: id, detail: { postId } },
        };
      }),

    /** An internal note: read by the team in the console only, never on the portal, in an event or in a mail. */
    addNote: (postId: string, text: string) =>
      actAs(ctx, actor, 'triage', async (_inner, tx, acting) => {
        const body = teamText('note', text);
        const post = await requireLivePost(tx, ctx.organizationId, postId, true);
        const now = ctx.clock();
        const id = newId('note', now.getTime());
        await postNotes.insert(tx, {
          id,
          organizationId: ctx.organizationId,
          postId: post.id,
          authorEmail: acting.email,
          bodyText: body,
          createdAt: now.toISOString(),
        });
        return {
          result: { id },
          audit: { action: 'post.note_added', resourceType: 'post', resourceId: postId, detail: { noteId: id } },
        };
      }),
  };
}
export type TriageActions = ReturnType<typeof createTriageActions>;
