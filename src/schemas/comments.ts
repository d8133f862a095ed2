import { z } from 'zod';
import { pageSchema, timestampSchema } from './common.js';
import { emailSchema } from './contacts.js';
import { COMMENT_BODY_TEXT_MAX } from './interactions.js';

/** A comment on a post: an end-user's (their contact, or the name they gave) or the team's official one. */
export const postCommentSchema = z.object({
  id: z.string(),
  postId: z.string(),
  /** The comment this one replies to; null for a top-level comment. */
  parentId: z.string().nullable(),
  contactId: z.string().nullable(),
  authorUserId: z.string().nullable(),
  /** The name shown: the end-user's as given, or the team member's an official comment is signed with. */
  authorName: z.string().nullable(),
  /** Written by the team: the portal shows it as the team's. */
  official: z.boolean(),
  bodyText: z.string(),
  createdAt: timestampSchema,
  /** When the text was last edited; null when never. */
  updatedAt: timestampSchema.nullable(),
});
export type PostComment = z.infer<typeof postCommentSchema>;
export const postCommentPageSchema = pageSchema(postCommentSchema);

const commentTextSchema = z.string().trim().min(1, 'bodyText must not be empty').max(COMMENT_BODY_TEXT_MAX);

/**
 * Body of `POST /v1/posts/{postId}/comments`: a comment on behalf of a contact (`contactId`), or the team's
 * (`official: true`, signed with `authorName` if given); one or the other.
 */
export const createCommentBodySchema = z
  .strictObject({
    bodyText: commentTextSchema,
    parentId: z.string().min(1).max(255).optional().describe('The comment this one replies to, on the same post.'),
    contactId: z.string().min(1).max(255).optional().describe('The contact who writes it (identify them first).'),
    official: z.boolean().optional().describe('true: the team writes it (the portal shows it as the team’s).'),
    authorName: z.string().trim().min(1).max(200).optional().describe('The name an official comment is signed with.'),
  })
  .superRefine((v, ctx) => {
    if ((v.contactId === undefined) === (v.official !== true))
      ctx.addIssue({
        code: 'custom',
        path: ['contactId'],
        message: 'give contactId (a contact writes it) or official: true (the team writes it), not both',
      });
    if (v.authorName !== undefined && v.official !== true)
      ctx.addIssue({ code: 'custom', path: ['authorName'], message: 'authorName signs official comments only' });
  });

/** Body of `PATCH /v1/comments/{commentId}`. */
export const updateCommentBodySchema = z.strictObject({ bodyText: commentTextSchema });

/** An internal note of the team on a post: never on the portal, never in a public read. */
export const postNoteSchema = z.object({
  id: z.string(),
  postId: z.string(),
  /** The team member who wrote it. */
  authorEmail: z.string(),
  bodyText: z.string(),
  createdAt: timestampSchema,
});
export const postNotePageSchema = pageSchema(postNoteSchema);

/** Body of `POST /v1/posts/{postId}/notes`. */
export const createNoteBodySchema = z.strictObject({
  bodyText: commentTextSchema,
  authorEmail: emailSchema.describe('The address of the team member who writes it.'),
});
