import { z } from 'zod';
import { pageSchema, timestampSchema } from './common.js';
import { SLUG_PATTERN } from './posts.js';

/** The longest description a board takes (a sentence or two, shown under its name on the portal). */
export const BOARD_DESCRIPTION_MAX = 500;
export const BOARD_NAME_MAX = 200;
export const BOARD_SLUG_MAX = 80;

/** A board: where posts are filed. Public ones are on the portal. */
export const boardSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  name: z.string(),
  /** What the board is for (the portal's boards page shows it under the name); null when none was given. */
  description: z.string().nullable(),
  slug: z.string(),
  isPublic: z.boolean(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type Board = z.infer<typeof boardSchema>;
export const boardPageSchema = pageSchema(boardSchema);

const boardNameSchema = z.string().trim().min(1, 'name must be 1 to 200 characters').max(BOARD_NAME_MAX);
/** Blank is none (null). */
const boardDescriptionSchema = z
  .string()
  .trim()
  .max(BOARD_DESCRIPTION_MAX, `description must be at most ${BOARD_DESCRIPTION_MAX} characters`)
  .transform((d) => (d === '' ? null : d))
  .nullable();
const boardSlugSchema = z
  .string()
  .min(1)
  .max(BOARD_SLUG_MAX, `slug must be at most ${BOARD_SLUG_MAX} characters`)
  .regex(SLUG_PATTERN, 'slug must be lower-case letters and digits joined by single hyphens');

/** Body of `POST /v1/boards`: the slug derives from the name unless given; a taken one gets a number. */
export const createBoardBodySchema = z.strictObject({
  name: boardNameSchema,
  description: boardDescriptionSchema.optional(),
  slug: boardSlugSchema.optional(),
  isPublic: z.boolean().optional().describe('Whether the portal shows the board (default true).'),
});
export type CreateBoardBody = z.input<typeof createBoardBodySchema>;

/** Body of `PATCH /v1/boards/{boardId}`: fields not given keep their values; a taken slug is 409. */
export const updateBoardBodySchema = z.strictObject({
  name: boardNameSchema.optional(),
  description: boardDescriptionSchema.optional(),
  slug: boardSlugSchema.optional(),
  isPublic: z.boolean().optional(),
});
export type UpdateBoardBody = z.input<typeof updateBoardBodySchema>;

/** Query of `DELETE /v1/boards/{boardId}`. */
export const deleteBoardQuerySchema = z.strictObject({
  force: z
    .enum(['true', 'false'])
    .optional()
    .describe(
      'true deletes the board with its posts and changelog entries; without it a board that has any is kept (409).',
    ),
});

/** What deleting a board answers: its id, and how many posts and changelog entries went with it. */
export const deletedBoardSchema = z.object({
  id: z.string(),
  deleted: z.literal(true),
  deletedPosts: z.number().int(),
  deletedChangelogEntries: z.number().int(),
});
export type DeletedBoard = z.infer<typeof deletedBoardSchema>;
