import type { SqlDialect } from '../sql.js';
import { insertValues } from '../sql.js';

/** SQLite's side of what differs (dialect.ts). Timestamps are epoch milliseconds; booleans bind as 1 and 0. */
export const sqliteDialect: SqlDialect = {
  name: 'sqlite',
  time: (d) => d.getTime(),
  jsonTime: (d) => d.getTime(),
  ilike: 'LIKE',
  forUpdate: '',
  forUpdateSkipLocked: '',
  hoursUntil: (column) => `((? - ${column}) / 3600000.0)`,
  minTime: '-1',
  jsonRows: (columns, alias) =>
    `(SELECT ${columns.map(([name]) => `value ->> '${name}' AS ${name}`).join(', ')} FROM json_each(?)) ${alias}`,
  jsonStrings: 'json_each(?)',
  // CROSS JOIN makes the ids the outer loop in SQLite: one primary-key probe each.
  rowsOfIds: (table, alias) =>
    `(SELECT DISTINCT value FROM json_each(?)) ${alias}_ids CROSS JOIN ${table} ${alias} ON ${alias}.id = ${alias}_ids.value`,
  modifyingCtes: false,
  claims: {
    rowRef: 'rowid',
    pick: (due) =>
      `SELECT d.rowid AS ref, d.id, d.next_attempt_at FROM h CROSS JOIN delivery d ON d.rowid IN (SELECT ref FROM (${due}))`,
    whereRef: (refs) => `rowid IN (${refs})`,
  },
  async writeWithEvent(db, write, insert) {
    const event = insertValues(insert);
    // Outside a transaction: both statements in one turn, so the transaction spans no await.
    if ('batch' in db && db.batch) {
      return db.batch((tx) => {
        const changed = tx.run(write.sql, write.params) > 0;
        if (changed) {
          tx.run(event.sql, event.params);
          tx.wroteDeliveries();
        }
        return changed;
      });
    }
    const changed = (await db.run(write.sql, write.params)) > 0;
    if (changed) {
      await db.run(event.sql, event.params);
      db.wroteDeliveries();
    }
    return changed;
  },
};
