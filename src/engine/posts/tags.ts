import { FeedbackError, newId, slugify } from '../shared/index.js';
import { tags, type WorkspaceContext } from '../store/index.js';

export type Tag = tags.TagRow;

/** A tag; its slug derives from the name and is unique in the workspace (409 when taken). */
export async function createTag(
  { db, organizationId, clock }: WorkspaceContext,
  input: { name: string },
): Promise<Tag> {
  if (typeof input?.name !== 'string' || input.name.length < 1 || input.name.length > 100) {
    throw new FeedbackError('ERR_VALIDATION', 'name must be 1 to 100 characters', {
      issues: [{ path: 'name', code: 'invalid', message: 'name must be 1 to 100 characters' }],
    });
  }
  const now = clock();
  const tag: Tag = {
    id: newId('tag', now.getTime()),
    organizationId,
    name: input.name,
    slug: slugify(input.name),
    createdAt: now.toISOString(),
  };
  if (!(await tags.insert(db, tag)))
    throw new FeedbackError('ERR_CONFLICT', `A tag with slug ${tag.slug} already exists.`);
  return tag;
}

/** Workspace-scoped tags (a post carries at most three). Built once per workspace. */
export function createTagsService(ctx: WorkspaceContext) {
  return {
    create: (input: { name: string }) => createTag(ctx, input),
    /** Every tag of the workspace, by name. */
    list: (): Promise<Tag[]> => tags.list(ctx.db, ctx.organizationId),
  };
}
export type TagsService = ReturnType<typeof createTagsService>;
