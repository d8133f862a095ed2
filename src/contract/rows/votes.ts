// The contract's rows for votes: a post's voters, and votes cast or taken back for a contact.
import type { OperationDefinition, OperationDocs } from '../definition.js';

export const VOTES = {
  listPostVotes: {
    method: 'GET',
    path: '/v1/posts/:postId/votes',
    scope: 'read',
    resource: 'votes',
    query: 'listPostVotesQuerySchema',
    answers: { page: 'postVotePageSchema' },
    tool: 'list_post_votes',
    client: 'votes.list',
  },
  createVote: {
    method: 'POST',
    path: '/v1/posts/:postId/votes',
    scope: 'read:write',
    resource: 'votes',
    body: 'createVoteBodySchema',
    answers: { data: 'postVoteSchema', statuses: [200, 201] },
    idempotency: 'natural',
    errors: [409],
    tool: 'create_vote',
    client: 'votes.create',
  },
  deleteVote: {
    method: 'DELETE',
    path: '/v1/posts/:postId/votes/:contactId',
    scope: 'read:write',
    resource: 'votes',
    answers: { data: 'deletedSchema' },
    tool: 'delete_vote',
    client: 'votes.delete',
  },
} as const satisfies Record<string, OperationDefinition>;

/** What people and agents read of these operations (the OpenAPI document, the tools); the client carries none of it. */
export const VOTE_DOCS = {
  listPostVotes: {
    summary: "List a post's votes",
    description:
      "A post's votes, each with its voter (contact, plan, revenue) and their companies: newest first, or sort=mrr with a currency for the voters paying in it, highest revenue first. Returns a page: follow nextCursor for more.",
    title: "List a post's votes",
  },
  createVote: {
    summary: 'Vote on a post for a contact',
    description:
      'Vote for the contact (your signed-in user: identify them first). One vote per voter: when they have voted, the answer is their vote (200) and nothing changes. Counts on the post and its impact; emits vote.created.',
    title: 'Vote on a post',
  },
  deleteVote: {
    summary: "Take back a contact's vote",
    description:
      "Take the contact's vote on the post back: it no longer counts on the post or its impact. Emits vote.deleted. 404 when they have no vote there.",
    title: 'Take back a vote',
  },
} satisfies OperationDocs<typeof VOTES>;
