import { FeedbackError } from '../shared/index.js';
import { boards, type Sql } from '../store/index.js';

/** The board of the workspace, or 404 (path ids outside the workspace are indistinguishable from absent ones). */
export async function requireBoard(
  sql: Sql,
  organizationId: string,
  boardId: string,
  lock = false,
): Promise<boards.BoardRow> {
  const board = await boards.find(sql, organizationId, boardId, lock);
  if (!board) throw new FeedbackError('ERR_NOT_FOUND', `No board with id ${boardId}.`);
  return board;
}
