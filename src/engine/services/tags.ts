import { FeedbackError } from '../errors.js';
import { newId } from '../internal/ids.js';
import { toIso, ts, type Database } from '../internal/sql.js';
import { slugify } from './boards.js';

export interface Tag {
  id: string;
  organizationId: string;
  name: string;
  slug: string;
  createdAt: string;
}

/** Workspace-scoped tags (a post carries at most three). */
export function createTagsService(db: Database, organizationId: string, clock: () => Date) {
  return {
    /** A tag; its slug derives from the name and is unique in the workspace (409 when taken). */
    async create(input: { name: string }): Promise<Tag> {
      if (typeof input?.name !== 'string' || input.name.length < 1 || input.name.length > 100) {
        throw new FeedbackError('ERR_VALIDATION', 'name must be 1 to 100 characters', {
          issues: [{ path: 'name', code: 'invalid', message: 'name must be 1 to 100 characters' }],
        });
      }
      const now = clock();
      const tag: Tag = { id: newId('tag', now.getTime()), organizationId, name: input.name, slug: slugify(input.name), createdAt: now.toISOString() };
      const rows = await db.all(
        'INSERT INTO tag (id, organization_id, name, slug, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (organization_id, slug) DO NOTHING RETURNING id',
        [tag.id, organizationId, tag.name, tag.slug, ts(db, now)],
      );
      if (rows.length === 0) throw new FeedbackError('ERR_CONFLICT', `A tag with slug ${tag.slug} already exists.`);
      return tag;
    },

    /** Every tag of the workspace, by name. */
    async list(): Promise<Tag[]> {
      const rows = await db.all<Record<string, unknown>>('SELECT id, organization_id, name, slug, created_at FROM tag WHERE organization_id = ? ORDER BY name, id', [
        organizationId,
      ]);
      return rows.map((r) => ({
        id: r.id as string,
        organizationId: r.organization_id as string,
        name: r.name as string,
        slug: r.slug as string,
        createdAt: toIso(r.created_at),
      }));
    },
  };
}
export type TagsService = ReturnType<typeof createTagsService>;
