import { z } from 'zod';
import { pageSchema, timestampSchema } from './common.js';
import { tagIdsSchema } from './posts.js';

/** A workspace's tag; a post carries at most three. Its slug derives from its name, unique in the workspace. */
export const tagSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  name: z.string(),
  slug: z.string(),
  createdAt: timestampSchema,
});
export type Tag = z.infer<typeof tagSchema>;
export const tagPageSchema = pageSchema(tagSchema);

const tagNameSchema = z
  .string()
  .trim()
  .min(1, 'name must be 1 to 100 characters')
  .max(100, 'name must be 1 to 100 characters');

/** Body of `POST /v1/tags` and `PATCH /v1/tags/{tagId}`: its name (its slug follows; another tag's is 409). */
export const tagBodySchema = z.strictObject({ name: tagNameSchema });

/** Body of `PUT /v1/posts/{postId}/tags`: the post's tags, exactly (`[]` takes them all off). */
export const setPostTagsBodySchema = z.strictObject({ tagIds: tagIdsSchema });
