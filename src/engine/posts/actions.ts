// What the team does to a post from the console: edit it, change its status (with a public note), moderate, merge,
// move, tag, reply officially, keep internal notes, order the roadmap, and all of these in bulk. Each is the engine's
// own change (the same events, webhooks and mail as through REST), refused to a role that may not triage, and recorded
// in the audit log in its transaction (`actAs`).
import { COMMENT_BODY_TEXT_MAX } from '../../schemas/interactions.js';
import type { Post, PostStatus } from '../../schemas/posts.js';
import { type Actor, type AuditInput, actAs } from '../members/index.js';
import { FeedbackError, newId, plainBody } from '../shared/index.js';
import {
  duplicateDismissals,
  postNotes,
  posts,
  postTags,
  type Sql,
  triage,
  type WorkspaceContext,
} from '../store/index.js';
import { writeComment } from './comments.js';
import { requireLivePost } from './references.js';
import { createPostsService, type PostsService } from './service.js';

/** What a bulk action does to each post chosen. */
export type BulkAction =
  | { kind: 'status'; status: PostStatus }
  | { kind: 'tag'; tagId: string }
  | { kind: 'move'; boardId: string }
  | { kind: 'approve' }
  | { kind: 'reject' };

/** At most this many posts in one bulk action. */
export const BULK_LIMIT = 100;

/** A workspace and the team member acting on it. */
interface As {
  ctx: WorkspaceContext;
  actor: Actor;
}

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
) {
  const reply = {
    parentId: null,
    authorUserId: null,
    contactId: null,
    authorName,
    email: null,
    official: true,
    bodyText: text,
  };
  const written = await writeComment(tx, ctx.organizationId, post, reply, ctx.clock(), notify && { parent: null });
  return written.id;
}

/**
 * Set a roadmap column's order, in one transaction with its audit entry: `order` gets the column as it is now (its
 * post ids, in order) and answers the ids in their new order; every one must be in the column (409 otherwise).
 */
const ordered = ({ ctx, actor }: As, status: PostStatus, order: (column: string[]) => string[]) =>
  actAs(ctx, actor, 'triage', async (_inner, tx) => {
    const column = (await triage.roadmapColumn(tx, ctx.organizationId, status, triage.ROADMAP_LIMIT)).map((p) => p.id);
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

/** The column with `postId` moved to `position` (0 is the top), the others keeping their order around it. */
function placed(column: string[], postId: string, position: number): string[] {
  if (!column.includes(postId)) return [postId];
  const rest = column.filter((id) => id !== postId);
  rest.splice(Math.max(0, Math.min(rest.length, Math.trunc(position) || 0)), 0, postId);
  return rest;
}

/**
 * Set the status; a `note` (optional) is posted as an official reply and goes in the status mail to the post's people
 * (those the consent rule lets through). The same status with a note is just the reply.
 */
const setStatus = ({ ctx, actor }: As, postId: string, status: PostStatus, note?: string | null) =>
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
        audit: { action: 'comment.official_reply', resourceType: 'comment', resourceId: replyId, detail: { postId } },
      };
    // The note's reply is named, so the member's data request finds what they signed.
    const detail = { from: before.status, to: post.status, note: replyId !== null, ...(replyId ? { replyId } : {}) };
    return { result: post, audit: { action: 'post.status_changed', resourceType: 'post', resourceId: postId, detail } };
  });

/** Move the post to another board of the workspace. */
const move = ({ ctx, actor }: As, postId: string, boardId: string) =>
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
  });

/** The post's tags with `tagId` added (a post carries at most three: the engine's PATCH refuses a fourth). */
async function withTag(tx: Sql, postId: string, tagId: string): Promise<string[]> {
  const current = (await postTags.forPosts(tx, [postId])).get(postId) ?? [];
  return current.includes(tagId) ? current : [...current, tagId];
}

/** One post's part of a bulk action: its change, and its audit entry if it changed. */
async function bulkOne(
  tx: Sql,
  ctx: WorkspaceContext,
  service: PostsService,
  id: string,
  action: BulkAction,
): Promise<AuditInput | null> {
  const entry = (what: string, detail: Record<string, unknown>) => ({
    action: what,
    resourceType: 'post',
    resourceId: id,
    detail: { ...detail, bulk: true },
  });
  if (action.kind === 'status') {
    const before = await requireLivePost(tx, ctx.organizationId, id, true);
    await service.update(id, { status: action.status });
    return before.status === action.status
      ? null
      : entry('post.status_changed', { from: before.status, to: action.status });
  }
  if (action.kind === 'move') {
    const before = await requireLivePost(tx, ctx.organizationId, id, true);
    await service.move(id, action.boardId);
    return before.boardId === action.boardId ? null : entry('post.moved', { from: before.boardId, to: action.boardId });
  }
  if (action.kind === 'tag') {
    await service.update(id, { tagIds: await withTag(tx, id, action.tagId) });
    return entry('post.tagged', { added: action.tagId });
  }
  await service.moderate(id, action.kind === 'approve' ? 'approved' : 'spam');
  return entry(action.kind === 'approve' ? 'post.approved' : 'post.rejected', {});
}

/**
 * One action on up to BULK_LIMIT posts, all or none: each post changes as its own action would (its events, its
 * mail), in one transaction; one refusal (a post not held, a fifth tag, an unknown id) changes nothing and names the
 * post. One audit entry per post changed, marked `bulk`.
 */
const bulk = ({ ctx, actor }: As, postIds: string[], action: BulkAction) =>
  actAs(ctx, actor, 'triage', async (inner, tx) => {
    const ids = [...new Set(postIds)];
    if (ids.length === 0) throw new FeedbackError('ERR_VALIDATION', 'Choose at least one post.');
    if (ids.length > BULK_LIMIT)
      throw new FeedbackError('ERR_VALIDATION', `Choose at most ${BULK_LIMIT} posts at a time.`);
    const service = createPostsService(inner);
    const audit: AuditInput[] = [];
    for (const id of ids) {
      try {
        const entry = await bulkOne(tx, ctx, service, id, action);
        if (entry) audit.push(entry);
      } catch (err) {
        if (!(err instanceof FeedbackError)) throw err;
        const post = await posts.findLive(tx, ctx.organizationId, id);
        throw new FeedbackError(err.code, `${post ? `“${post.title}”` : id}: ${err.message} Nothing was changed.`);
      }
    }
    return { result: { changed: audit.length }, audit };
  });

/** Reply as the team: shown on the portal as the team's; the post's author hears of it. */
const reply = ({ ctx, actor }: As, postId: string, text: string) =>
  actAs(ctx, actor, 'triage', async (_inner, tx, acting) => {
    const body = teamText('reply', text);
    const post = await requireLivePost(tx, ctx.organizationId, postId, true);
    const id = await officialReply(tx, ctx, post, acting.name, body, true);
    return {
      result: { id },
      audit: { action: 'comment.official_reply', resourceType: 'comment', resourceId: id, detail: { postId } },
    };
  });

/** An internal note: read by the team in the console only, never on the portal, in an event or in a mail. */
const addNote = ({ ctx, actor }: As, postId: string, text: string) =>
  actAs(ctx, actor, 'triage', async (_inner, tx, acting) => {
    const body = teamText('note', text);
    const post = await requireLivePost(tx, ctx.organizationId, postId, true);
    const now = ctx.clock();
    const id = newId('note', now.getTime());
    const note = {
      id,
      organizationId: ctx.organizationId,
      postId: post.id,
      authorEmail: acting.email,
      bodyText: body,
      createdAt: now.toISOString(),
    };
    await postNotes.insert(tx, note);
    return {
      result: { id },
      audit: { action: 'post.note_added', resourceType: 'post', resourceId: postId, detail: { noteId: id } },
    };
  });

/** A workspace's post actions, as one team member (or the command line). */
export function createPostActions(ctx: WorkspaceContext, actor: Actor) {
  const as: As = { ctx, actor };
  const change = <T>(
    postId: string,
    action: string,
    run: (service: PostsService) => Promise<T>,
    detail?: Record<string, unknown>,
  ) =>
    actAs(ctx, actor, 'triage', async (inner) => ({
      result: await run(createPostsService(inner)),
      audit: { action, resourceType: 'post', resourceId: postId, ...(detail ? { detail } : {}) },
    }));
  return {
    /**
     * Order a roadmap column: `postIds` are the column's posts (of `status`) in their new order, each given its
     * position (1, 2, 3...); the portal's roadmap shows them so. Posts of the column not named keep theirs and follow.
     */
    reorder: (status: PostStatus, postIds: string[]) => ordered(as, status, () => [...new Set(postIds)]),
    /** Move one post of a roadmap column to `position` (0 is the top), the others keeping their order around it. */
    place: (status: PostStatus, postId: string, position: number) =>
      ordered(as, status, (column) => placed(column, postId, position)),
    /** Change the title and the text of the body (the body becomes plain paragraphs). */
    edit: (postId: string, edit: { title?: string; bodyText?: string }) => {
      const body = {
        ...(edit.title !== undefined ? { title: edit.title.trim() } : {}),
        ...(edit.bodyText !== undefined ? { body: plainBody(edit.bodyText.trim()) } : {}),
      };
      return change(postId, 'post.edited', (s) => s.update(postId, body), { fields: Object.keys(body) });
    },
    setStatus: (postId: string, status: PostStatus, note?: string | null) => setStatus(as, postId, status, note),
    /** Approve (it goes on the portal, with `post.created`) or mark as spam a post held for moderation. */
    moderate: (postId: string, decision: 'approved' | 'spam') =>
      change(postId, decision === 'approved' ? 'post.approved' : 'post.rejected', (s) => s.moderate(postId, decision)),
    /** Merge the post into another: its votes, subscribers and notes move there, its page sends there. */
    merge: (postId: string, intoId: string) =>
      change(postId, 'post.merged', (s) => s.merge(postId, intoId), { into: intoId }),
    move: (postId: string, boardId: string) => move(as, postId, boardId),
    /** Set the tags the post carries (at most three, of the workspace). */
    setTags: (postId: string, tagIds: string[]) =>
      change(postId, 'post.tagged', (s) => s.update(postId, { tagIds: [...new Set(tagIds)] }), {
        tagIds: [...new Set(tagIds)],
      }),
    /** Say two posts are not duplicates: never suggested together again. */
    dismissDuplicate: (postId: string, otherId: string) =>
      actAs(ctx, actor, 'triage', async (inner) => {
        const [a, b] = await Promise.all(
          [postId, otherId].map((id) => posts.findLive(inner.db, ctx.organizationId, id)),
        );
        if (!a || !b || a.id === b.id)
          throw new FeedbackError('ERR_NOT_FOUND', 'No such pair of posts in this workspace.');
        await duplicateDismissals.dismiss(inner.db, ctx.organizationId, a.id, b.id, ctx.clock());
        return {
          result: { dismissed: true },
          audit: {
            action: 'post.duplicate_dismissed',
            resourceType: 'post',
            resourceId: a.id,
            detail: { other: b.id },
          },
        };
      }),
    bulk: (postIds: string[], action: BulkAction) => bulk(as, postIds, action),
    reply: (postId: string, text: string) => reply(as, postId, text),
    addNote: (postId: string, text: string) => addNote(as, postId, text),
  };
}
export type PostActions = ReturnType<typeof createPostActions>;
