// Boards: where posts are filed (public ones on the portal).

export { requireBoard } from './require.js';
export { BOARD_OPERATIONS, type BoardsService, type CreateBoardInput, createBoardsService } from './service.js';
