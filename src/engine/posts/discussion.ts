import {
  createCommentBodySchema,
  createNoteBodySchema,
  type PostComment,
  updateCommentBodySchema,
} from '../../schemas/comments.js';
import type { Deleted, Page } from '../../schemas/common.js';
import { type PageQueryInput, pageQuerySchema } from '../../schemas/posts.js';
import { changeTime, FeedbackError, newId, pageByCreation, parseInput, validationError } from '../shared/index.js';
import { comments, contacts, emit, postNotes, type WorkspaceContext } from '../store/index.js';
import { writeComment } from './comments.js';
import { requireLivePost } from './references.js';

// A post's discussion over the API: its comments (an end-user's on their behalf, or the team's official ones), and the
// team's internal notes, which no public read shows.

const toComment = ({ deletedAt: _d, ...c }: comments.CommentRecord): PostComment => c;

/** `GET /v1/posts/{postId}/comments`: its live comments, oldest first (replies name their parent). */
export async function listComments(
  { db, organizationId }: WorkspaceContext,
  postId: string,
  query: PageQueryInput = {},
): Promise<Page<PostComment>> {
  const page = pageByCreation('comments', parseInput(pageQuerySchema, query));
  const post = await requireLivePost(db, organizationId, postId);
  const { data, nextCursor } = await page((limit, after) => comments.listForPost(db, post.id, limit, after));
  return { data: data.map(toComment), nextCursor };
}

/**
 * `POST /v1/posts/{postId}/comments`: a contact's comment, or the team's official one; a reply names a live comment of
 * the same post. Counted on the post, `comment.created`, and the post's author (and the replied-to) hear of it through
 * the consent rule, as on the portal.
 */
export async function createComment(
  { db, organizationId, clock }: WorkspaceContext,
  postId: string,
  body: unknown,
): Promise<PostComment> {
  const input = parseInput(createCommentBodySchema, body);
  return db.transaction(async (tx) => {
    const post = await requireLivePost(tx, organizationId, postId, true);
    const parent = input.parentId ? await comments.findOnPost(tx, input.parentId, post.id) : null;
    if (input.parentId && !parent)
      throw validationError([
        { path: 'parentId', code: 'not_found', message: `No comment with id ${input.parentId} on this post.` },
      ]);
    const contact = input.contactId ? await contacts.find(tx, organizationId, input.contactId) : undefined;
    if (input.contactId && !contact)
      throw validationError([
        { path: 'contactId', code: 'not_found', message: `No contact with id ${input.contactId} in this workspace.` },
      ]);
    const written = await writeComment(
      tx,
      organizationId,
      post,
      {
        parentId: input.parentId ?? null,
        authorUserId: contact?.externalUserId ?? null,
        contactId: contact?.id ?? null,
        authorName: contact ? contact.name : (input.authorName ?? null),
        email: contact?.email ?? null,
        official: input.official === true,
        bodyText: input.bodyText,
      },
      clock(),
      { parent: parent ?? null },
    );
    return toComment((await comments.find(tx, organizationId, written.id))!);
  });
}

/** `PATCH /v1/comments/{commentId}`: a new text; `comment.updated` with `changes.bodyText` when it differs. */
export async function updateComment(
  { db, organizationId, clock }: WorkspaceContext,
  commentId: string,
  body: unknown,
): Promise<PostComment> {
  const { bodyText } = parseInput(updateCommentBodySchema, body);
  return db.transaction(async (tx) => {
    const current = await requireComment(tx, organizationId, commentId);
    if (current.bodyText === bodyText) return toComment(current);
    const post = await requireLivePost(tx, organizationId, current.postId);
    const now = changeTime(clock, new Date(current.updatedAt ?? current.createdAt));
    await comments.updateText(tx, current.id, bodyText, now);
    const next = { ...current, bodyText, updatedAt: now.toISOString() };
    await emit(
      tx,
      {
        event: 'comment.updated',
        organizationId,
        boardId: post.boardId,
        comment: eventComment(next),
        changes: { bodyText: { from: current.bodyText, to: bodyText } },
      },
      now,
    );
    return toComment(next);
  });
}

/** `DELETE /v1/comments/{commentId}`: soft; it leaves the post's comments and count (`comment.deleted`). */
export async function deleteComment(
  { db, organizationId, clock }: WorkspaceContext,
  commentId: string,
): Promise<Deleted> {
  return db.transaction(async (tx) => {
    const current = await requireComment(tx, organizationId, commentId);
    const post = await requireLivePost(tx, organizationId, current.postId);
    const now = changeTime(clock, new Date(current.updatedAt ?? current.createdAt));
    await comments.softDelete(tx, current.id, current.postId, now);
    await emit(
      tx,
      { event: 'comment.deleted', organizationId, boardId: post.boardId, comment: eventComment(current) },
      now,
    );
    return { id: current.id, deleted: true as const };
  });
}

/** The comment as `comment.*` events carry it. */
const eventComment = (c: comments.CommentRecord) => ({
  id: c.id,
  postId: c.postId,
  parentId: c.parentId,
  authorUserId: c.authorUserId,
  bodyText: c.bodyText,
  createdAt: c.createdAt,
});

async function requireComment(tx: Parameters<typeof comments.find>[0], organizationId: string, id: string) {
  const found = await comments.find(tx, organizationId, id, true);
  if (!found) throw new FeedbackError('ERR_NOT_FOUND', `No comment with id ${id}.`);
  return found;
}

/** `GET /v1/posts/{postId}/notes`: the team's internal notes on the post, oldest first. */
export async function listNotes({ db, organizationId }: WorkspaceContext, postId: string, query: PageQueryInput = {}) {
  const page = pageByCreation('notes', parseInput(pageQuerySchema, query));
  const post = await requireLivePost(db, organizationId, postId);
  return page((limit, after) => postNotes.pageForPost(db, post.id, limit, after));
}

/** `POST /v1/posts/{postId}/notes`: an internal note of the team (no event: notes are never public). */
export async function createNote({ db, organizationId, clock }: WorkspaceContext, postId: string, body: unknown) {
  const input = parseInput(createNoteBodySchema, body);
  const post = await requireLivePost(db, organizationId, postId);
  const now = clock();
  const note = {
    id: newId('note', now.getTime()),
    postId: post.id,
    authorEmail: input.authorEmail,
    bodyText: input.bodyText,
    createdAt: now.toISOString(),
  };
  await postNotes.insert(db, { ...note, organizationId });
  return note;
}
