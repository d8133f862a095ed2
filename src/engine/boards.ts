import type { Page } from '../schemas/common.js';
import { SLUG_PATTERN, pageQuerySchema, type Board, type PageQueryInput } from '../schemas/posts.js';
import { FeedbackError, parseInput } from './errors.js';
import { newId } from './shared/ids.js';
import { readCursor, toPage } from './shared/pages.js';
import { firstFreeSlug, slugify } from './shared/slugs.js';
import * as boards from './store/boards.js';
import * as organizations from './store/organizations.js';
import type { Database } from './store/sql.js';

export interface CreateBoardInput {
  name: string;
  slug?: string;
  isPublic?: boolean;
}

/** Workspace-scoped boards. */
export function createBoardsService(db: Database, organizationId: string, clock: () => Date) {
  return {
    async create(input: CreateBoardInput): Promise<Board> {
      if (typeof input.name !== 'string' || input.name.length < 1 || input.name.length > 200) throw new FeedbackError('ERR_VALIDATION', 'name must be 1 to 200 characters');
      if (!(await organizations.exists(db, organizationId))) throw new FeedbackError('ERR_NOT_FOUND', `No organization with id ${organizationId}.`);
      const base = input.slug ?? slugify(input.name);
      if (!SLUG_PATTERN.test(base) || base.length > 80)
        throw new FeedbackError('ERR_VALIDATION', 'slug must match ^[a-z0-9]+(?:-[a-z0-9]+)*$ and be at most 80 characters');
      const now = clock().toISOString();
      const board: Board = {
        id: newId('brd', Date.parse(now)),
        organizationId,
        name: input.name,
        slug: firstFreeSlug(base, await boards.slugsLike(db, organizationId, base)),
        isPublic: input.isPublic ?? true,
        createdAt: now,
        updatedAt: now,
      };
      await boards.insert(db, board);
      return board;
    },

    /** `GET /v1/boards`: the workspace's boards, oldest first, keyset pages on (createdAt, id). */
    async list(query: PageQueryInput = {}): Promise<Page<Board>> {
      const q = parseInput(pageQuerySchema, query);
      const key = readCursor(q.cursor, 'boards');
      const rows = await boards.list(db, organizationId, q.limit + 1, key && { at: key[0] as number, id: key[1] as string });
      return toPage(rows, q.limit, 'boards', (last) => [Date.parse(last.createdAt), last.id]);
    },
  };
}
export type BoardsService = ReturnType<typeof createBoardsService>;
