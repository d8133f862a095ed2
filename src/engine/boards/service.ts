import type { Page } from '../../schemas/common.js';
import { type Board, type PageQueryInput, pageQuerySchema, SLUG_PATTERN } from '../../schemas/posts.js';
import {
  answer,
  type Bindings,
  FeedbackError,
  firstFreeSlug,
  newId,
  parseInput,
  readCursor,
  slugify,
  toPage,
} from '../shared/index.js';
import { boards, organizations, type WorkspaceContext } from '../store/index.js';

/** The longest description a board takes (a sentence or two, shown under its name on the portal). */
export const BOARD_DESCRIPTION_MAX = 500;

export interface CreateBoardInput {
  name: string;
  /** What the board is for; blank is none. */
  description?: string | null;
  slug?: string;
  isPublic?: boolean;
}

/** A board; its slug derives from the name (or is given) and is made unique in the workspace. */
export async function create({ db, organizationId, clock }: WorkspaceContext, input: CreateBoardInput): Promise<Board> {
  if (typeof input.name !== 'string' || input.name.length < 1 || input.name.length > 200)
    throw new FeedbackError('ERR_VALIDATION', 'name must be 1 to 200 characters');
  if (!(await organizations.exists(db, organizationId)))
    throw new FeedbackError('ERR_NOT_FOUND', `No organization with id ${organizationId}.`);
  const description = input.description?.trim() || null;
  if (description && description.length > BOARD_DESCRIPTION_MAX)
    throw new FeedbackError('ERR_VALIDATION', `description must be at most ${BOARD_DESCRIPTION_MAX} characters`);
  const base = input.slug ?? slugify(input.name);
  if (!SLUG_PATTERN.test(base) || base.length > 80)
    throw new FeedbackError(
      'ERR_VALIDATION',
      'slug must match ^[a-z0-9]+(?:-[a-z0-9]+)*$ and be at most 80 characters',
    );
  const now = clock().toISOString();
  const board: Board = {
    id: newId('brd', Date.parse(now)),
    organizationId,
    name: input.name,
    description,
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
  const q = parseInput(pageQuerySchema, query);
  const key = readCursor(q.cursor, 'boards');
  const rows = await boards.list(
    db,
    organizationId,
    q.limit + 1,
    key && { at: key[0] as number, id: key[1] as string },
  );
  return toPage(rows, q.limit, 'boards', (last) => [Date.parse(last.createdAt), last.id]);
}

/** A workspace's boards. Built once per workspace. */
export function createBoardsService(ctx: WorkspaceContext) {
  return {
    create: (input: CreateBoardInput) => create(ctx, input),
    list: (query?: PageQueryInput) => list(ctx, query),
  };
}
export type BoardsService = ReturnType<typeof createBoardsService>;

/** The contract's board operations, on this service. */
export const BOARD_OPERATIONS = {
  listBoards: (boards, { input }) => answer(boards.list(input)),
} satisfies Bindings<BoardsService>;
