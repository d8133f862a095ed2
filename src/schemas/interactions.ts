import { z } from 'zod';
import { timestampSchema } from './common.js';
import { contactNameSchema, emailSchema } from './contacts.js';
import { postBodySchema, postTitleSchema } from './posts.js';

const idSchema = z.string().min(1).max(255);
const userIdSchema = z.string().min(1).max(255);
/** Whether the end-user ticked the notify-me box: only then is a contact created or used, and the post subscribed to. */
const notifyMeSchema = z.boolean();
/**
 * The workspace vouched for this person (the portal's sign-in token, after identify made their contact): the row is
 * linked to their contact though they ticked nothing. It creates no contact and is not an opt-in.
 */
const vouchedSchema = z.boolean().optional();

/** An end-user files a post on a public board. */
export const publicPostInputSchema = z.strictObject({
  boardId: idSchema,
  email: emailSchema,
  name: contactNameSchema.optional(),
  authorUserId: userIdSchema.optional(),
  title: postTitleSchema,
  body: postBodySchema.optional(),
  notifyMe: notifyMeSchema,
  vouched: vouchedSchema,
});
export type PublicPostInput = z.input<typeof publicPostInputSchema>;

/** An end-user votes on a post of a public board; `userId` absent for anonymous email-verified voters. */
export const publicVoteInputSchema = z.strictObject({
  postId: idSchema,
  email: emailSchema,
  name: contactNameSchema.optional(),
  userId: userIdSchema.optional(),
  notifyMe: notifyMeSchema,
  vouched: vouchedSchema,
});
export type PublicVoteInput = z.input<typeof publicVoteInputSchema>;

export const COMMENT_BODY_TEXT_MAX = 10_000;

/** An end-user comments on a post of a public board, or replies to a comment (`parentId`). */
export const publicCommentInputSchema = z.strictObject({
  postId: idSchema,
  email: emailSchema,
  name: contactNameSchema.optional(),
  authorUserId: userIdSchema.optional(),
  parentId: idSchema.optional(),
  bodyText: z.string().min(1).max(COMMENT_BODY_TEXT_MAX),
  notifyMe: notifyMeSchema,
  vouched: vouchedSchema,
});
export type PublicCommentInput = z.input<typeof publicCommentInputSchema>;

export const voteSchema = z.object({
  id: z.string(),
  postId: z.string(),
  userId: z.string().nullable(),
  contactId: z.string().nullable(),
  createdAt: timestampSchema,
});
export type Vote = z.infer<typeof voteSchema>;

export const commentSchema = z.object({
  id: z.string(),
  postId: z.string(),
  parentId: z.string().nullable(),
  authorUserId: z.string().nullable(),
  contactId: z.string().nullable(),
  bodyText: z.string(),
  createdAt: timestampSchema,
});
export type Comment = z.infer<typeof commentSchema>;

/** A historical end-user to import as a contact with consentBasis `legacy_inferred`. */
export const backfillUserSchema = z.strictObject({
  email: emailSchema,
  name: contactNameSchema.nullable().optional(),
  /** How the user originally interacted; default `admin`. */
  source: z.enum(['identify', 'admin', 'public_post', 'public_vote', 'public_comment']).optional(),
  firstSeenAt: timestampSchema,
  lastSeenAt: timestampSchema,
});
export const backfillInputSchema = z.array(backfillUserSchema).max(10_000);
export type BackfillUser = z.input<typeof backfillUserSchema>;

/** A changelog entry of a board. */
export const changelogEntrySchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  boardId: z.string(),
  title: z.string(),
  slug: z.string(),
  body: z.string(),
  status: z.enum(['draft', 'published']),
  publishedAt: timestampSchema.nullable(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type ChangelogEntry = z.infer<typeof changelogEntrySchema>;
export const createChangelogInputSchema = z.strictObject({
  boardId: idSchema,
  title: postTitleSchema,
  body: z.string().max(50_000).optional(),
});
export type CreateChangelogInput = z.input<typeof createChangelogInputSchema>;
