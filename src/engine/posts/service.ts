import type { Page } from '../../schemas/common.js';
import { type PageQueryInput, type Post, pageQuerySchema } from '../../schemas/posts.js';
import { answer, type Bindings, FeedbackError, parseInput, readCursor, toPage } from '../shared/index.js';
import { contacts, posts, type WorkspaceContext } from '../store/index.js';
import { create } from './create.js';
import { merge, moderate } from './moderation.js';
import { move } from './move.js';
import { requireLivePost } from './references.js';
import { update } from './update.js';

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

/** Soft-delete a post: it leaves every listing and count; its row and slug stay. */
export async function remove(
  { db, organizationId, clock }: WorkspaceContext,
  postId: string,
): Promise<{ id: string; deleted: true }> {
  if (!(await posts.softDelete(db, organizationId, postId, clock())))
    throw new FeedbackError('ERR_NOT_FOUND', `No post with id ${postId}.`);
  return { id: postId, deleted: true };
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
    listForContact: (contactId: string, query?: PageQueryInput) => listForContact(ctx, contactId, query),
  };
}
export type PostsService = ReturnType<typeof createPostsService>;

/** The contract's post operations, on this service. */
export const POST_OPERATIONS = {
  listContactPosts: (posts, { params, input }) => answer(posts.listForContact(params.contactId!, input)),
  createPost: (posts, { params, input }) => answer(posts.create(params.boardId!, input)),
  updatePost: (posts, { params, input }) => answer(posts.update(params.postId!, input)),
} satisfies Bindings<PostsService>;
