import { FeedbackError } from './errors.js';
import { newId } from './shared/ids.js';
import { slugify } from './shared/slugs.js';
import * as tags from './store/tags.js';
import type { Database } from './store/sql.js';

export type Tag = tags.TagRow;

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
      if (!(await tags.insert(db, tag))) throw new FeedbackError('ERR_CONFLICT', `A tag with slug ${tag.slug} already exists.`);
      return tag;
    },

    /** Every tag of the workspace, by name. */
    list: (): Promise<Tag[]> => tags.list(db, organizationId),
  };
}
export type TagsService = ReturnType<typeof createTagsService>;
