import { z } from 'zod';
import { timestampSchema } from './common.js';

export const POST_STATUSES = ['open', 'under_review', 'planned', 'in_progress', 'shipped', 'declined', 'duplicate'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];
export const postStatusSchema = z.enum(POST_STATUSES);

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
  slug: z.string(),
  isPublic: z.boolean(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type Board = z.infer<typeof boardSchema>;
