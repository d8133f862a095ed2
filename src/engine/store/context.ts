import type { Database, Sql, Statement } from './sql.js';

/** What a workspace's operations run with; every statement behind them names the workspace. */
export interface WorkspaceContext {
  db: Database;
  organizationId: string;
  clock: () => Date;
}

/**
 * A transaction as a database, for a service called inside a larger change (a console action and its audit entry): its
 * own "transaction" is that one, so everything it writes commits, or rolls back, with the rest.
 */
export function inTransaction(tx: Sql): Database {
  return {
    dialect: tx.dialect,
    all: <T>(sql: string | Statement, params?: readonly unknown[]) => tx.all<T>(sql, params),
    one: <T>(sql: string | Statement, params?: readonly unknown[]) => tx.one<T>(sql, params),
    run: (sql, params) => tx.run(sql, params),
    wroteDeliveries: (kind) => tx.wroteDeliveries(kind),
    transaction: (fn) => fn(tx),
    onDeliveriesCommitted: () => {
      throw new Error('A transaction has no commit listeners of its own; listen on the engine’s database.');
    },
  };
}
