import {
  type Board,
  createBoardBodySchema,
  type DeletedBoard,
  deleteBoardQuerySchema,
  updateBoardBodySchema,
} from '../../schemas/boards.js';
import type { Page } from '../../schemas/common.js';
import { type PageQueryInput, pageQuerySchema } from '../../schemas/posts.js';
import {
  answer,
  type Bindings,
  changeTime,
  FeedbackError,
  firstFreeSlug,
  isUniqueViolation,
  newId,
  pageByCreation,
  parseInput,
  postSummary,
  slugify,
} from '../shared/index.js';
import { boards, emit, organizations, posts, type WorkspaceContext } from '../store/index.js';
import { requireBoard } from './require.js';

export type CreateBoardInput = { name: string; description?: string | null; slug?: string; isPublic?: boolean };

/** `POST /v1/boards`: a board; its slug derives from the name (or is given) and is made unique in the workspace. */
export async function create({ db, organizationId, clock }: WorkspaceContext, body: unknown): Promise<Board> {
  const input = parseInput(createBoardBodySchema, body);
  if (!(await organizations.exists(db, organizationId)))
    throw new FeedbackError('ERR_NOT_FOUND', `No organization with id ${organizationId}.`);
  const base = input.slug ?? (slugify(input.name).slice(0, 80).replace(/-+$/, '') || 'board');
  const now = clock().toISOString();
  const board: Board = {
    id: newId('brd', Date.parse(now)),
    organizationId,
    name: input.name,
    description: input.description ?? null,
    slug: firstFreeSlug(base, await boards.slugsLike(db, organizationId, base)),
    isPublic: input.isPublic ?? true,
    createdAt: now,
    updatedAt: now,
  };
  await boards.insert(db, board);
  return board;
}

/** `GET /v1/boards`: the workspace's boards, oldest first, keyset pages on (createdAt, id). */
export async function list({ db, organizationId }: WorkspaceContext, query: PageQueryInput = {}): Promise<Page<Board>> {
  const page = pageByCreation('boards', parseInput(pageQuerySchema, query));
  return page((limit, after) => boards.list(db, organizationId, limit, after));
}

/** `PATCH /v1/boards/{boardId}`: fields not given keep their values; a slug another board has is 409. */
export async function update(
  { db, organizationId, clock }: WorkspaceContext,
  boardId: string,
  body: unknown,
): Promise<Board> {
  const input = parseInput(updateBoardBodySchema, body);
  const current = await requireBoard(db, organizationId, boardId);
  const next: Board = {
    ...current,
    ...(input.name !== undefined && { name: input.name }),
    ...(input.description !== undefined && { description: input.description }),
    ...(input.slug !== undefined && { slug: input.slug }),
    ...(input.isPublic !== undefined && { isPublic: input.isPublic }),
  };
  if ((['name', 'description', 'slug', 'isPublic'] as const).every((f) => next[f] === current[f])) return current;
  next.updatedAt = changeTime(clock, new Date(current.updatedAt)).toISOString();
  const taken = () => new FeedbackError('ERR_CONFLICT', `slug ${next.slug} is already taken by another board`);
  try {
    await boards.update(db, next);
  } catch (err) {
    if (isUniqueViolation(err)) throw taken();
    throw err;
  }
  return next;
}

/**
 * `DELETE /v1/boards/{boardId}`: a board with live posts or changelog entries is kept (409) unless `force=true`; then
 * they go with it, each announced post with its `post.deleted`, in one transaction.
 */
export async function remove(
  { db, organizationId, clock }: WorkspaceContext,
  boardId: string,
  query: unknown = {},
): Promise<DeletedBoard> {
  const { force } = parseInput(deleteBoardQuerySchema, query);
  return db.transaction(async (tx) => {
    const board = await requireBoard(tx, organizationId, boardId, true);
    const held = await boards.contents(tx, board.id);
    if (force !== 'true' && (held.posts > 0 || held.changelogEntries > 0))
      throw new FeedbackError(
        'ERR_CONFLICT',
        `Board ${board.id} has ${held.posts} posts and ${held.changelogEntries} changelog entries; delete with force=true to delete them with it.`,
      );
    const now = clock();
    for (const post of await posts.announcedOnBoard(tx, board.id))
      await emit(tx, { event: 'post.deleted', organizationId, boardId: board.id, post: postSummary(post) }, now);
    await boards.remove(tx, board.id);
    return {
      id: board.id,
      deleted: true as const,
      deletedPosts: held.posts,
      deletedChangelogEntries: held.changelogEntries,
    };
  });
}

/** A workspace's boards. Built once per workspace. */
export function createBoardsService(ctx: WorkspaceContext) {
  return {
    create: (input: CreateBoardInput | Record<string, unknown>) => create(ctx, input),
    list: (query?: PageQueryInput) => list(ctx, query),
    retrieve: (boardId: string): Promise<Board> => requireBoard(ctx.db, ctx.organizationId, boardId),
    update: (boardId: string, body: unknown) => update(ctx, boardId, body),
    delete: (boardId: string, query?: { force?: 'true' | 'false' }) => remove(ctx, boardId, query),
  };
}
export type BoardsService = ReturnType<typeof createBoardsService>;

/** The contract's board operations, on this service. */
export const BOARD_OPERATIONS = {
  listBoards: (boards, { input }) => answer(boards.list(input)),
  createBoard: (boards, { input }) => answer(boards.create(input)),
  retrieveBoard: (boards, { params }) => answer(boards.retrieve(params.boardId!)),
  updateBoard: (boards, { params, input }) => answer(boards.update(params.boardId!, input)),
  deleteBoard: (boards, { params, input }) => answer(boards.delete(params.boardId!, input)),
} satisfies Bindings<BoardsService>;
