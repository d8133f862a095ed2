import { dataSchema } from '../../schemas/common.js';
import { boardPageSchema, createPostBodySchema, pageQuerySchema, postPageSchema, postSchema, updatePostBodySchema } from '../../schemas/posts.js';
import { defineRoute } from '../internal/route.js';

export const postRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/boards',
    doc: { operationId: 'listBoards', summary: 'List boards', query: pageQuerySchema, responses: { 200: boardPageSchema } },
    scope: 'read',
    handler: async ({ workspace, query }) => ({ body: await workspace.boards.list(query) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/boards/:boardId/posts',
    doc: { operationId: 'createPost', summary: 'Create a post on a board', body: createPostBodySchema, responses: { 201: dataSchema(postSchema) } },
    scope: 'read:write',
    body: true,
    handler: async ({ workspace, params, body }) => ({ status: 201, body: { data: await workspace.posts.create(params.boardId!, body) } }),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/posts/:postId',
    doc: { operationId: 'updatePost', summary: 'Update a post', body: updatePostBodySchema, responses: { 200: dataSchema(postSchema) }, errors: [409] },
    scope: 'read:write',
    body: true,
    handler: async ({ workspace, params, body }) => ({ body: { data: await workspace.posts.update(params.postId!, body) } }),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/contacts/:contactId/posts',
    doc: { operationId: 'listContactPosts', summary: "List a contact's posts", query: pageQuerySchema, responses: { 200: postPageSchema } },
    scope: 'read',
    handler: async ({ workspace, params, query }) => ({ body: await workspace.posts.listForContact(params.contactId!, query) }),
  }),
];
