// The contract's rows for Posts: feedback filed on a board.
import type { OperationDefinition, OperationDocs } from '../definition.js';

export const POSTS = {
  listPosts: {
    method: 'GET',
    path: '/v1/posts',
    scope: 'read',
    resource: 'posts',
    query: 'listPostsQuerySchema',
    answers: { page: 'postDetailPageSchema' },
    tool: 'list_posts',
    client: 'posts.list',
  },
  retrievePost: {
    method: 'GET',
    path: '/v1/posts/:postId',
    scope: 'read',
    resource: 'posts',
    answers: { data: 'postDetailSchema' },
    tool: 'get_post',
    client: 'posts.retrieve',
  },
  createPost: {
    method: 'POST',
    path: '/v1/boards/:boardId/posts',
    scope: 'read:write',
    resource: 'posts',
    body: 'createPostBodySchema',
    answers: { data: 'postSchema', statuses: [201] },
    idempotency: 'key',
    tool: 'create_post',
    client: 'posts.create',
  },
  updatePost: {
    method: 'PATCH',
    path: '/v1/posts/:postId',
    scope: 'read:write',
    resource: 'posts',
    body: 'updatePostBodySchema',
    answers: { data: 'postSchema' },
    errors: [409],
    tool: 'update_post',
    client: 'posts.update',
  },
  deletePost: {
    method: 'DELETE',
    path: '/v1/posts/:postId',
    scope: 'read:write',
    resource: 'posts',
    answers: { data: 'deletedSchema' },
    tool: 'delete_post',
    client: 'posts.delete',
  },
  mergePost: {
    method: 'POST',
    path: '/v1/posts/:postId/merge',
    scope: 'read:write',
    resource: 'posts',
    body: 'mergePostBodySchema',
    answers: { data: 'postDetailSchema' },
    idempotency: 'key',
    errors: [409],
    tool: 'merge_post',
    client: 'posts.merge',
  },
} as const satisfies Record<string, OperationDefinition>;

/** What people and agents read of these operations (the OpenAPI document, the tools); the client carries none of it. */
export const POST_DOCS = {
  listPosts: {
    summary: 'List posts',
    description:
      "List the workspace's posts with their tags and impact: filter by boardId, status, tagId, contactId (the author) and createdAfter; q searches titles and bodies as the portal does (most relevant first); sort by newest (default), votes, trending or impact in a currency. Returns a page: follow nextCursor for more.",
    title: 'List posts',
  },
  retrievePost: {
    summary: 'Retrieve a post',
    description:
      'One post by id, with its vote and comment counts, its tags and its impact per currency (the revenue of its paying voters, each company once).',
    title: 'Get a post',
  },
  createPost: {
    summary: 'Create a post on a board',
    description: 'Create a post (title, optional body, optional contactId and at most 3 tagIds) on a board.',
    title: 'Create a post',
  },
  updatePost: {
    summary: 'Update a post',
    description:
      'Change a post: status (open, under_review, planned, in_progress, shipped, declined, duplicate), title, body, slug, tags, contact.',
    title: 'Update a post',
  },
  deletePost: {
    summary: 'Delete a post',
    description:
      'Delete a post: it leaves every list, page and count (its row stays, with deletedAt). Emits post.deleted.',
    title: 'Delete a post',
  },
  mergePost: {
    summary: 'Merge a duplicate post into another',
    description:
      "Merge the post (a duplicate) into intoPostId: its status becomes duplicate, its votes (but a voter's second), subscribers and notes move to the other post, and its portal page sends there. Answers the merged post. Emits post.merged and post.status_changed.",
    title: 'Merge a post',
  },
} satisfies OperationDocs<typeof POSTS>;
