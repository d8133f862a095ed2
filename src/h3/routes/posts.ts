import { defineRoute } from '../internal/route.js';

export const postRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/boards',
    scope: 'read',
    handler: async ({ workspace, query }) => ({ body: await workspace.boards.list(query) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/boards/:boardId/posts',
    scope: 'read:write',
    body: true,
    handler: async ({ workspace, params, body }) => ({ status: 201, body: { data: await workspace.posts.create(params.boardId!, body) } }),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/posts/:postId',
    scope: 'read:write',
    body: true,
    handler: async ({ workspace, params, body }) => ({ body: { data: await workspace.posts.update(params.postId!, body) } }),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/contacts/:contactId/posts',
    scope: 'read',
    handler: async ({ workspace, params, query }) => ({ body: await workspace.posts.listForContact(params.contactId!, query) }),
  }),
];
