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

/** Query of a plain list: `GET /v1/contacts/{contactId}/posts`, `GET /v1/boards`, ... */
export const pageQuerySchema = z.strictObject({ cursor: cursorSchema.optional(), limit: pageLimitSchema });
export type PageQuery = z.infer<typeof pageQuerySchema>;
export type PageQueryInput = z.input<typeof pageQuerySchema>;

export const postPageSchema = pageSchema(postSchema);

/** A tag as a post names it. */
export const tagRefSchema = z.object({ id: z.string(), name: z.string(), slug: z.string() });
export type TagRef = z.infer<typeof tagRefSchema>;

/**
 * A post's impact in one currency: the monthly revenue of the distinct paying accounts among its voters (each paying
 * company once, and each paying voter in no company), and how many of each.
 */
export const postImpactSchema = z.object({
  currency: z.string(),
  mrrCents: z.number().int(),
  companies: z.number().int().describe('Paying companies among the voters, each counted once.'),
  people: z.number().int().describe('Paying voters who belong to no company.'),
});
export type PostImpact = z.infer<typeof postImpactSchema>;

/** A post as the posts list and `GET /v1/posts/{postId}` give it: with its tags and its impact per currency. */
export const postDetailSchema = postSchema.extend({
  tags: z.array(tagRefSchema),
  impact: z.array(postImpactSchema),
});
export type PostDetail = z.infer<typeof postDetailSchema>;
export const postDetailPageSchema = pageSchema(postDetailSchema);

export const POST_SORTS = ['newest', 'votes', 'trending', 'impact'] as const;

/** Query of `GET /v1/posts`. */
export const listPostsQuerySchema = z
  .strictObject({
    cursor: cursorSchema.optional(),
    limit: pageLimitSchema,
    boardId: z.string().min(1).max(255).optional().describe('Only the posts of this board.'),
    status: postStatusSchema.optional(),
    tagId: z.string().min(1).max(255).optional().describe('Only the posts carrying this tag.'),
    contactId: z.string().min(1).max(255).optional().describe('Only the posts this contact wrote.'),
    q: z
      .string()
      .max(200)
      .optional()
      .describe('Words to search titles and bodies for, as on the portal: "a phrase", prefix*; most relevant first.'),
    createdAfter: timestampSchema.optional().describe('Only the posts created after this time.'),
    sort: z
      .enum(POST_SORTS)
      .optional()
      .describe(
        'newest (the default), votes (most first), trending (most votes in the last 7 days) or impact (the most revenue in currency first). Not with q.',
      ),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, 'currency must be three uppercase letters')
      .optional()
      .describe('The currency sort=impact ranks by; required with it.'),
  })
  .superRefine((v, ctx) => {
    if (v.q !== undefined && v.sort !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['sort'],
        message: 'sort cannot be used with q: matches come most relevant first',
      });
    if (v.sort === 'impact' && v.currency === undefined)
      ctx.addIssue({ code: 'custom', path: ['currency'], message: 'currency is required with sort=impact' });
    if (v.currency !== undefined && v.sort !== 'impact')
      ctx.addIssue({ code: 'custom', path: ['currency'], message: 'currency is only used with sort=impact' });
  });
export type ListPostsQuery = z.input<typeof listPostsQuerySchema>;

/** Body of `POST /v1/posts/{postId}/merge`. */
export const mergePostBodySchema = z.strictObject({
  intoPostId: z.string().min(1).max(255).describe('The post the duplicate is merged into; its votes move there.'),
});
