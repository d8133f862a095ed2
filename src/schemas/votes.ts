import { z } from 'zod';
import { cursorSchema, pageLimitSchema, pageSchema, timestampSchema } from './common.js';
import { companyRefSchema } from './companies.js';
import { contactSchema } from './contacts.js';

/** The voter as a post's votes name them: their contact's identity and revenue. */
export const voterSchema = contactSchema.pick({
  id: true,
  externalUserId: true,
  email: true,
  name: true,
  plan: true,
  mrrCents: true,
  currency: true,
});

/** A vote on a post, with its voter (null for a vote no contact is linked to) and the companies they belong to. */
export const postVoteSchema = z.object({
  id: z.string(),
  postId: z.string(),
  contactId: z.string().nullable(),
  /** The workspace's user id the vote was cast with; null for anonymous email-verified voters. */
  userId: z.string().nullable(),
  createdAt: timestampSchema,
  voter: voterSchema.nullable(),
  companies: z.array(companyRefSchema),
});
export type PostVote = z.infer<typeof postVoteSchema>;
export const postVotePageSchema = pageSchema(postVoteSchema);

/** Query of `GET /v1/posts/{postId}/votes`. */
export const listPostVotesQuerySchema = z
  .strictObject({
    cursor: cursorSchema.optional(),
    limit: pageLimitSchema,
    sort: z
      .enum(['newest', 'mrr'])
      .optional()
      .describe(
        "newest (the default), or mrr: the voters who pay in currency, the voter's own mrrCents highest first.",
      ),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, 'currency must be three uppercase letters')
      .optional()
      .describe('The currency sort=mrr ranks by; required with it.'),
  })
  .superRefine((v, ctx) => {
    if (v.sort === 'mrr' && v.currency === undefined)
      ctx.addIssue({ code: 'custom', path: ['currency'], message: 'currency is required with sort=mrr' });
    if (v.currency !== undefined && v.sort !== 'mrr')
      ctx.addIssue({ code: 'custom', path: ['currency'], message: 'currency is only used with sort=mrr' });
  });
export type ListPostVotesQuery = z.input<typeof listPostVotesQuerySchema>;

/** Body of `POST /v1/posts/{postId}/votes`: vote on behalf of the workspace's contact (your signed-in user). */
export const createVoteBodySchema = z.strictObject({
  contactId: z.string().min(1).max(255).describe('The contact who votes: identify them first.'),
});
