// The contract's rows for Boards: where posts are filed.
import type { OperationDefinition, OperationDocs } from '../definition.js';

export const BOARDS = {
  listBoards: {
    method: 'GET',
    path: '/v1/boards',
    scope: 'read',
    resource: 'boards',
    query: 'pageQuerySchema',
    answers: { page: 'boardPageSchema' },
    tool: 'list_boards',
    client: 'boards.list',
  },
  createBoard: {
    method: 'POST',
    path: '/v1/boards',
    scope: 'read:write',
    resource: 'boards',
    body: 'createBoardBodySchema',
    answers: { data: 'boardSchema', statuses: [201] },
    idempotency: 'key',
    tool: 'create_board',
    client: 'boards.create',
  },
  retrieveBoard: {
    method: 'GET',
    path: '/v1/boards/:boardId',
    scope: 'read',
    resource: 'boards',
    answers: { data: 'boardSchema' },
    tool: 'get_board',
    client: 'boards.retrieve',
  },
  updateBoard: {
    method: 'PATCH',
    path: '/v1/boards/:boardId',
    scope: 'read:write',
    resource: 'boards',
    body: 'updateBoardBodySchema',
    answers: { data: 'boardSchema' },
    errors: [409],
    tool: 'update_board',
    client: 'boards.update',
  },
  deleteBoard: {
    method: 'DELETE',
    path: '/v1/boards/:boardId',
    scope: 'read:write',
    resource: 'boards',
    query: 'deleteBoardQuerySchema',
    answers: { data: 'deletedBoardSchema' },
    errors: [409],
    tool: 'delete_board',
    client: 'boards.delete',
  },
} as const satisfies Record<string, OperationDefinition>;

/** What people and agents read of these operations (the OpenAPI document, the tools); the client carries none of it. */
export const BOARD_DOCS = {
  listBoards: {
    summary: 'List boards',
    description: 'The workspace boards, oldest first, as a page. A post is created on a board.',
    title: 'List boards',
  },
  createBoard: {
    summary: 'Create a board',
    description:
      'Create a board (name; optional description, slug, isPublic). The slug derives from the name unless given, and gets a number when taken. Public boards (the default) are on the portal.',
    title: 'Create a board',
  },
  retrieveBoard: {
    summary: 'Retrieve a board',
    description: 'One board by id: name, description, slug and whether the portal shows it.',
    title: 'Get a board',
  },
  updateBoard: {
    summary: 'Update a board',
    description:
      "Change a board's name, description (null or blank clears it), slug (409 when another board has it) or visibility (isPublic). Fields not given keep their values.",
    title: 'Update a board',
  },
  deleteBoard: {
    summary: 'Delete a board',
    description:
      'Delete a board for good. A board with posts or changelog entries is kept (409) unless force is true: then they are deleted with it, each post announced with post.deleted.',
    title: 'Delete a board',
  },
} satisfies OperationDocs<typeof BOARDS>;
