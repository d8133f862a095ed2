// Boards: where posts are filed (public ones on the portal).
export { createBoardsService, type BoardsService, type CreateBoardInput } from './service.js';
export { requireBoard } from './require.js';
