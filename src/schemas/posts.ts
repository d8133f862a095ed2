import { z } from 'zod';
import { cursorSchema, jsonSchemaRefinement, pageLimitSchema, pageSchema, timestampSchema } from './common.js';

export const POST_STATUSES = [
  'open',
  'under_review',
  'planned',
  'in_progress',
  'shipped',
  'declined',
  'duplicate',
] as const;
export type PostStatus = (typeof POST_STATUSES)[number];
export const postStatusSchema = z.enum(POST_STATUSES);
/** A status as people read it (the portal's pages, notification mail). */
export const POST_STATUS_LABELS: Record<PostStatus, string> = {
  open: 'Open',
  under_review: 'Under review',
  planned: 'Planned',
  in_progress: 'In progress',
  shipped: 'Shipped',
  declined: 'Declined',
  duplicate: 'Duplicate',
};

export const MODERATION_STATUSES = ['approved', 'pending', 'spam'] as const;
export type ModerationStatus = (typeof MODERATION_STATUSES)[number];

/** A post, field for field as the spec's table. */
export const postSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  boardId: z.string(),
  contactId: z.string().nullable(),
  authorUserId: z.string().nullable(),
  title: z.string(),
  slug: z.string(),
  body: z.string(),
  bodyText: z.string(),
  status: postStatusSchema,
  moderationStatus: z.enum(MODERATION_STATUSES),
  hideFromRoadmap: z.boolean(),
  roadmapOrder: z.number().int().nullable(),
  mergedIntoId: z.string().nullable(),
  commentCount: z.number().int(),
  voteCount: z.number().int(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  deletedAt: timestampSchema.nullable(),
});
export type Post = z.infer<typeof postSchema>;

/** A board, as `GET /v1/boards` lists it. */
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

export const POST_TITLE_MAX = 200;
export const POST_BODY_TEXT_MAX = 50_000;
export const POST_SLUG_MAX = 80;
export const MAX_TAGS_PER_POST = 3;
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const postTitleSchema = z.string().min(1).max(POST_TITLE_MAX);
/** `{ json, text }`: `json` is any JSON nesting at most 32 levels (the rich document), `text` its plain text, at most 50,000 characters. */
export const postBodySchema = z.strictObject({
  json: z
    .unknown()
    .refine((v) => v !== undefined, { message: 'body.json is required' })
    .superRefine(jsonSchemaRefinement),
  text: z.string().max(POST_BODY_TEXT_MAX),
});
export const postSlugSchema = z
  .string()
  .min(1)
  .max(POST_SLUG_MAX)
  .regex(SLUG_PATTERN, 'slug must be lower-case letters and digits joined by single hyphens');
const referenceIdSchema = z.string().min(1).max(255);
export const tagIdsSchema = z
  .array(referenceIdSchema)
  .max(MAX_TAGS_PER_POST, `at most ${MAX_TAGS_PER_POST} tags per post`);

/** Body of `POST /v1/boards/{boardId}/posts`. */
export const createPostBodySchema = z.strictObject({
  title: postTitleSchema,
  body: postBodySchema.optional(),
  contactId: referenceIdSchema.optional(),
  tagIds: tagIdsSchema.optional(),
});
export type CreatePostBody = z.infer<typeof createPostBodySchema>;

/** Body of `PATCH /v1/posts/{postId}`. */
export const updatePostBodySchema = z.strictObject({
  body: postBodySchema.optional(),
  contactId: referenceIdSchema.nullable().optional(),
  hideFromRoadmap: z.boolean().optional(),
  slug: postSlugSchema.optional(),
  status: postStatusSchema.optional(),
  tagIds: tagIdsSchema.optional(),
  title: postTitleSchema.optional(),
});
export type UpdatePostBody = z.infer<typeof updatePostBodySchema>;

/** Query of `GET /v1/contacts/{contactId}/posts` and `GET /v1/boards`. */
export const pageQuerySchema = z.strictObject({ cursor: cursorSchema.optional(), limit: pageLimitSchema });
export type PageQuery = z.infer<typeof pageQuerySchema>;
export type PageQueryInput = z.input<typeof pageQuerySchema>;

export const postPageSchema = pageSchema(postSchema);
export const boardPageSchema = pageSchema(boardSchema);
