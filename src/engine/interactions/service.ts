import type { PublicCommentInput, PublicPostInput, PublicVoteInput } from '../../schemas/interactions.js';
import type { WorkspaceContext } from '../store/index.js';
import { comment } from './comment.js';
import { filePost } from './post.js';
import { castVote } from './vote.js';

/**
 * What end-users do on a workspace's public boards: file a post, vote, comment. Each runs in one transaction with its
 * events (and the contact's, with the opt-in), its subscription (with the opt-in) and the mail it causes (a comment).
 * Built once per workspace.
 */
export function createInteractionsService(ctx: WorkspaceContext) {
  return {
    /** File a post on a public board; `held` keeps it `pending` (and unannounced) until it is approved. */
    post: (input: PublicPostInput, options?: { held?: boolean }) => filePost(ctx, input, options),
    /** Vote on a post: one vote per voter (user id, or email for anonymous voters) and post. */
    vote: async (input: PublicVoteInput) => (await castVote(ctx, input)).vote,
    /** Comment on a post, or reply to one of its comments. */
    comment: (input: PublicCommentInput) => comment(ctx, input),
  };
}
export type InteractionsService = ReturnType<typeof createInteractionsService>;
