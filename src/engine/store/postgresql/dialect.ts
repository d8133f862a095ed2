import type { SqlDialect } from '../sql.js';
import { placeholders, statement } from '../sql.js';

/** PostgreSQL's side of what differs (dialect.ts). */
export const postgresqlDialect: SqlDialect = {
  name: 'postgresql',
  time: (d) => d,
  jsonTime: (d) => d.toISOString(),
  ilike: 'ILIKE',
  forUpdate: ' FOR UPDATE',
  forUpdateSkipLocked: ' FOR UPDATE SKIP LOCKED',
  hoursUntil: (column) => `(extract(epoch from (?::timestamptz - ${column}))::float8 / 3600.0)`,
  minTime: "'-infinity'",
  jsonRows: (columns, alias) => `json_to_recordset(?::json) AS ${alias} (${columns.map(([name, type]) => `${name} ${type}`).join(', ')})`,
  jsonStrings: 'json_array_elements_text(?::json)',
  modifyingCtes: true,
  claims: {
    rowRef: 'ctid',
    pick: (due) => `SELECT d.ref, d.id, d.next_attempt_at FROM h CROSS JOIN LATERAL (${due} FOR UPDATE SKIP LOCKED) d`,
    // A row locked by this statement cannot move before the update.
    whereRef: (refs) => `ctid = ANY(ARRAY(${refs}))`,
  },
  async writeWithEvent(db, write, event) {
    // One statement: the event row only if the change returned one. Prepared once per connection: a write's text
    // comes from a small set (per resource, per set of changed columns).
    const text = `WITH w AS (${write.sql} RETURNING 1) ${event.into} SELECT ${placeholders(event.params)} FROM w LIMIT 1 RETURNING 1`;
    const rows = await db.all(statement(text), [...write.params, ...event.params]);
    if (rows.length > 0) db.wroteDeliveries();
    return rows.length > 0;
  },
};
