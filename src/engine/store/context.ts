import type { Database } from './sql.js';

/** What a workspace's operations run with; every statement behind them names the workspace. */
export interface WorkspaceContext {
  db: Database;
  organizationId: string;
  clock: () => Date;
}
