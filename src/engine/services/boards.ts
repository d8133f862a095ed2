import type { Page } from '../../schemas/common.js';
import { pageQuerySchema, type Board as BoardShape, type PageQueryInput } from '../../schemas/posts.js';
import { FeedbackError, parseInput } from '../errors.js';
import { decodeCursor, encodeCursor, isFiniteNumber, isId } from '../internal/cursor.js';
import { newId } from '../internal/ids.js';
import { toBool, toIso, ts, type Database } from '../internal/sql.js';

/** Lower-case ASCII words joined by `-`, at most `max` characters. */
export function slugify(text: string, max = 80): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/g, '');
  return slug || 'untitled';
}

export interface CreateBoardInput {
  name: string;
  slug?: string;
  isPublic?: boolean;
}

export function toBoard(row: Record<string, unknown>): BoardShape {
  return {
    id: row.id as string,
    organizationId: row.organization_id as string,
    name: row.name as string,
    slug: row.slug as string,
    isPublic: toBool(row.is_public),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

/** Workspace-scoped boards. */
export function createBoardsService(db: Database, organizationId: string, clock: () => Date) {
  return {
    async create(input: CreateBoardInput): Promise<BoardShape> {
      if (typeof input.name !== 'string' || input.name.length < 1 || input.name.length > 200)
        throw new FeedbackError('ERR_VALIDATION', 'name must be 1 to 200 characters');
      if (!(await db.one('SELECT id FROM organization WHERE id = ?', [organizationId])))
        throw new FeedbackError('ERR_NOT_FOUND', `No organization with id ${organizationId}.`);
      const base = input.slug ?? slugify(input.name);
      if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(base) || base.length > 80)
        throw new FeedbackError('ERR_VALIDATION', 'slug must match ^[a-z0-9]+(?:-[a-z0-9]+)*$ and be at most 80 characters');
      const taken = new Set(
        (await db.all<{ slug: string }>('SELECT slug FROM board WHERE organization_id = ? AND (slug = ? OR slug LIKE ?)', [
          organizationId,
          base,
          `${base}-%`,
        ])).map((r) => r.slug),
      );
      let slug = base;
      for (let n = 2; taken.has(slug); n++) slug = `${base.slice(0, 80 - String(n).length - 1)}-${n}`;
      const now = clock();
      const id = newId('brd', now.getTime());
      const isPublic = input.isPublic ?? true;
      await db.all(
        'INSERT INTO board (id, organization_id, name, slug, is_public, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [id, organizationId, input.name, slug, isPublic, ts(db, now), ts(db, now)],
      );
      return { id, organizationId, name: input.name, slug, isPublic, createdAt: now.toISOString(), updatedAt: now.toISOString() };
    },

    /** `GET /v1/boards`: the workspace's boards, oldest first, keyset pages on (createdAt, id). */
    async list(query: PageQueryInput = {}): Promise<Page<BoardShape>> {
      const q = parseInput(pageQuerySchema, query);
      const key = q.cursor === undefined ? undefined : decodeCursor(q.cursor, 'boards', (k) => k.length === 2 && isFiniteNumber(k[0]) && isId(k[1]));
      const rows = await db.all<Record<string, unknown>>(
        `SELECT id, organization_id, name, slug, is_public, created_at, updated_at FROM board
         WHERE organization_id = ?${key ? ' AND (created_at, id) > (?, ?)' : ''} ORDER BY created_at, id LIMIT ?`,
        [organizationId, ...(key ? [ts(db, new Date(key[0] as number)), key[1]] : []), q.limit + 1],
      );
      const page = rows.slice(0, q.limit).map(toBoard);
      const last = page[page.length - 1];
      return { data: page, nextCursor: rows.length > q.limit && last ? encodeCursor('boards', [Date.parse(last.createdAt), last.id]) : null };
    },
  };
}
export type BoardsService = ReturnType<typeof createBoardsService>;
