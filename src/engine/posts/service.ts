import type { Deleted, Page } from '../../schemas/common.js';
import {
  mergePostBodySchema,
  type PageQueryInput,
  type Post,
  type PostDetail,
  pageQuerySchema,
} from '../../schemas/posts.js';
import type { ListPostVotesQuery } from '../../schemas/votes.js';
import {
  answer,
  type Bindings,
  changeTime,
  FeedbackError,
  parseInput,
  postSummary,
  readCursor,
  toPage,
} from '../shared/index.js';
import { contacts, emit, posts, type WorkspaceContext } from '../store/index.js';
import { create } from './create.js';
import { withDetail } from './details.js';
import { createComment, createNote, deleteComment, listComments, listNotes, updateComment } from './discussion.js';
import { merge, moderate } from './moderation.js';
import { move } from './move.js';
import { requireLivePost } from './references.js';
import { update } from './update.js';
import { createVote, deleteVote, listVotes } from './votes.js';

/**
 * `GET /v1/contacts/{contactId}/posts`: every live post attached to the contact, across boards, newest first; keyset on
 * (createdAt, id). An unknown contact is 404.
 */
export async function listForContact(
  { db, organizationId }: WorkspaceContext,
  contactId: string,
  query: PageQueryInput = {},
): Promise<Page<Post>> {
  const q = parseInput(pageQuerySchema, query);
  const key = readCursor(q.cursor, 'contact-posts');
  if (!(await contacts.exists(db, organizationId, contactId)))
    throw new FeedbackError('ERR_NOT_FOUND', `No contact with id ${contactId}.`);
  const rows = await posts.listForContact(
    db,
    organizationId,
    contactId,
    q.limit + 1,
    key && { at: key[0] as number, id: key[1] as string },
  );
  return toPage(rows, q.limit, 'contact-posts', (last) => [Date.parse(last.createdAt), last.id]);
}

/**
 * `DELETE /v1/posts/{postId}`: soft-delete a post; it leaves every listing and count, its row and slug stay
 * (`deletedAt`). A post that was announced (`post.created`) is announced gone with `post.deleted`, in the same
 * transaction.
 */
export async function remove({ db, organizationId, clock }: WorkspaceContext, postId: string): Promise<Deleted> {
  return db.transaction(async (tx) => {
    const post = await requireLivePost(tx, organizationId, postId, true);
    const now = changeTime(clock, post.updatedAt);
    await posts.softDelete(tx, organizationId, postId, now);
    if (post.moderationStatus === 'approved')
      await emit(tx, { event: 'post.deleted', organizationId, boardId: post.boardId, post: postSummary(post) }, now);
    return { id: postId, deleted: true as const };
  });
}

/** `POST /v1/posts/{postId}/merge`: the duplicate merged into `intoPostId`, as the console merges. */
async function mergeBody(ctx: WorkspaceContext, postId: string, body: unknown): Promise<PostDetail> {
  const { intoPostId } = parseInput(mergePostBodySchema, body);
  return withDetail(ctx.db, await merge(ctx, postId, intoPostId));
}

/** A workspace's posts. Built once per workspace. */
export function createPostsService(ctx: WorkspaceContext) {
  return {
    /** `POST /v1/boards/{boardId}/posts`. */
    create: (boardId: string, body: unknown) => create(ctx, boardId, body),
    /** `PATCH /v1/posts/{postId}`; `note`: the console's public note, carried by the status change's mail. */
    update: (postId: string, body: unknown, options?: { note?: string | null; mail?: boolean }) =>
      update(ctx, postId, body, options),
    /** Merge a duplicate into another post (its status becomes `duplicate`). */
    merge: (postId: string, intoId: string) => merge(ctx, postId, intoId),
    /** Move the post to another board of the workspace (its old portal address sends on). */
    move: (postId: string, boardId: string) => move(ctx, postId, boardId),
    /** Approve (`post.created` then) or mark as spam a post held for moderation. */
    moderate: (postId: string, decision: 'approved' | 'spam') => moderate(ctx, postId, decision),
    /** The posts waiting for moderation, oldest first (at most 100). */
    pending: (): Promise<Post[]> => posts.listPending(ctx.db, ctx.organizationId, 100),
    delete: (postId: string) => remove(ctx, postId),
    /** A live post of the workspace. */
    retrieve: (postId: string): Promise<Post> => requireLivePost(ctx.db, ctx.organizationId, postId),
    /** `GET /v1/posts/{postId}`: a live post with its tags and impact. */
    detail: async (postId: string): Promise<PostDetail> =>
      withDetail(ctx.db, await requireLivePost(ctx.db, ctx.organizationId, postId)),
    /** `POST /v1/posts/{postId}/merge`. */
    mergeBody: (postId: string, body: unknown) => mergeBody(ctx, postId, body),
    listForContact: (contactId: string, query?: PageQueryInput) => listForContact(ctx, contactId, query),
    /** `GET /v1/posts/{postId}/votes`. */
    listVotes: (postId: string, query?: ListPostVotesQuery) => listVotes(ctx, postId, query),
    /** `POST /v1/posts/{postId}/votes`: a contact's vote (the existing one when they have voted). */
    vote: (postId: string, body: unknown) => createVote(ctx, postId, body),
    listComments: (postId: string, query?: PageQueryInput) => listComments(ctx, postId, query),
    comment: (postId: string, body: unknown) => createComment(ctx, postId, body),
    updateComment: (commentId: string, body: unknown) => updateComment(ctx, commentId, body),
    deleteComment: (commentId: string) => deleteComment(ctx, commentId),
    listNotes: (postId: string, query?: PageQueryInput) => listNotes(ctx, postId, query),
    note: (postId: string, body: unknown) => createNote(ctx, postId, body),
    /** `DELETE /v1/posts/{postId}/votes/{contactId}`. */
    unvote: (postId: string, contactId: string) => deleteVote(ctx, postId, contactId),
  };
}
export type PostsService = ReturnType<typeof createPostsService>;

/** The contract's post operations, on this service. */
export const POST_OPERATIONS = {
  listContactPosts: (posts, { params, input }) => answer(posts.listForContact(params.contactId!, input)),
  createPost: (posts, { params, input }) => answer(posts.create(params.boardId!, input)),
  updatePost: (posts, { params, input }) => answer(posts.update(params.postId!, input)),
  retrievePost: (posts, { params }) => answer(posts.detail(params.postId!)),
  deletePost: (posts, { params }) => answer(posts.delete(params.postId!)),
  mergePost: (posts, { params, input }) => answer(posts.mergeBody(params.postId!, input)),
  listPostVotes: (posts, { params, input }) => answer(posts.listVotes(params.postId!, input)),
  createVote: async (posts, { params, input }) => {
    const { vote, created } = await posts.vote(params.postId!, input);
    return { value: vote, created };
  },
  deleteVote: (posts, { params }) => answer(posts.unvote(params.postId!, params.contactId!)),
  listPostComments: (posts, { params, input }) => answer(posts.listComments(params.postId!, input)),
  createComment: (posts, { params, input }) => answer(posts.comment(params.postId!, input)),
  updateComment: (posts, { params, input }) => answer(posts.updateComment(params.commentId!, input)),
  deleteComment: (posts, { params }) => answer(posts.deleteComment(params.commentId!)),
  listPostNotes: (posts, { params, input }) => answer(posts.listNotes(params.postId!, input)),
  createNote: (posts, { params, input }) => answer(posts.note(params.postId!, input)),
} satisfies Bindings<PostsService>;
