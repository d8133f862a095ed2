import { z } from 'zod';
import { cursorSchema, pageLimitSchema, pageSchema } from './common.js';
import { changelogEntrySchema, createChangelogInputSchema } from './interactions.js';
import { postTitleSchema } from './posts.js';

/** A changelog entry links at most this many posts (those it ships). */
export const CHANGELOG_POSTS_MAX = 50;

/** A changelog entry as the API gives it: with the posts it ships (ids). */
export const changelogEntryDetailSchema = changelogEntrySchema.extend({
  postIds: z.array(z.string()).describe('The posts the entry ships: told of by mail when it is published.'),
});
export type ChangelogEntryDetail = z.infer<typeof changelogEntryDetailSchema>;
export const changelogEntryPageSchema = pageSchema(changelogEntryDetailSchema);

const postIdsSchema = z
  .array(z.string().min(1).max(255))
  .max(CHANGELOG_POSTS_MAX, `a changelog entry links at most ${CHANGELOG_POSTS_MAX} posts`)
  .describe('The posts the entry ships (replacing the list): live posts of the workspace.');

/** Body of `POST /v1/changelog`: a draft on a board. */
export const createChangelogEntryBodySchema = createChangelogInputSchema.extend({ postIds: postIdsSchema.optional() });

/** Body of `PATCH /v1/changelog/{entryId}`: a draft's title, Markdown body or linked posts. */
export const updateChangelogEntryBodySchema = z.strictObject({
  title: postTitleSchema.optional(),
  body: z.string().max(50_000).optional(),
  postIds: postIdsSchema.optional(),
});

/** Body of `POST /v1/changelog/{entryId}/publish`. */
export const publishChangelogEntryBodySchema = z.strictObject({
  shipPosts: z
    .boolean()
    .optional()
    .describe('true: each linked post not yet shipped moves to shipped (the entry’s mail carries the news).'),
});

/** Query of `GET /v1/changelog`. */
export const listChangelogQuerySchema = z.strictObject({
  cursor: cursorSchema.optional(),
  limit: pageLimitSchema,
  boardId: z.string().min(1).max(255).optional().describe('Only the entries of this board.'),
  status: z.enum(['draft', 'published']).optional(),
});
