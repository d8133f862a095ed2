import { Failed, gathered } from '../gather.js';
import type { Database, InsertStatement, Sql, SqlDialect, WriteStatement } from '../sql.js';
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
  jsonRows: (columns, alias) =>
    `json_to_recordset(?::json) AS ${alias} (${columns.map(([name, type]) => `${name} ${type}`).join(', ')})`,
  jsonStrings: 'json_array_elements_text(?::json)',
  // LIMIT 1 keeps the lateral subquery from being pulled up into a plain join, which the planner is free to loop.
  rowsOfIds: (table, alias) =>
    `(SELECT DISTINCT value FROM json_array_elements_text(?::json)) ${alias}_ids CROSS JOIN LATERAL (SELECT * FROM ${table} WHERE id = ${alias}_ids.value LIMIT 1) ${alias}`,
  modifyingCtes: true,
  claims: {
    rowRef: 'ctid',
    pick: (due) => `SELECT d.ref, d.id, d.next_attempt_at FROM h CROSS JOIN LATERAL (${due} FOR UPDATE SKIP LOCKED) d`,
    // A row locked by this statement cannot move before the update.
    whereRef: (refs) => `ctid = ANY(ARRAY(${refs}))`,
  },
  async writeWithEvent(db, write, event, organizationId) {
    if (write.row === undefined) return writeOne(db, write, event);
    // Gathered (gather.ts): a workspace's writes that arrive while its batch is on its way go as one statement when it
    // returns. Per workspace, so that a row lock held in one workspace holds up no other's writes, and batches on their
    // way at once never touch the same rows.
    return gathered(db, 'write-with-event', organizationId, { write, event }, (batch) => writeMany(db, batch));
  },
};

/** One statement: the event row only if the change returned one. */
async function writeOne(db: Sql | Database, write: WriteStatement, event: InsertStatement): Promise<boolean> {
  // Prepared once per connection: a write's text comes from a small set (per resource, per set of changed columns).
  const text = `WITH w AS (${write.sql} RETURNING 1) ${event.into} SELECT ${placeholders(event.params)} FROM w LIMIT 1 RETURNING 1`;
  const rows = await db.all(statement(text), [...write.params, ...event.params]);
  if (rows.length > 0) db.wroteDeliveries();
  return rows.length > 0;
}

/**
 * The longest batch whose statement is prepared (parsed and planned once per connection), when its writes are all of
 * one text (the same kind of write, the same changed columns): such texts are few, one per write text and length,
 * while mixed batches' texts are as many as the orders their writes can come in, and are planned each time rather
 * than kept by every connection.
 */
const PREPARED_BATCH = 16;

const preparedIfUniform = (part: ReadonlyArray<{ write: WriteStatement }>, text: string) =>
  part.length <= PREPARED_BATCH && part.every(({ write }) => write.sql === part[0]!.write.sql) ? statement(text) : text;

/**
 * Several writes with their events as one statement, a pair of data-modifying CTEs each, and one commit; each write's
 * outcome is its own (whether its row changed). Writes of the same row go in separate statements, one after the other
 * in arrival order (one statement cannot change a row twice). If the statement fails (one write broke a unique index,
 * a deadlock), none of it is kept and each write runs again alone, so only the one at fault fails.
 */
async function writeMany(
  db: Sql | Database,
  batch: Array<{ write: WriteStatement; event: InsertStatement }>,
): Promise<Array<boolean | Failed>> {
  if (batch.length === 1) return [await writeOne(db, batch[0]!.write, batch[0]!.event)];
  const outcomes: Array<boolean | Failed> = [];
  for (let start = 0; start < batch.length; ) {
    // The longest run from `start` whose rows are all different.
    const rows = new Set<string>();
    let end = start;
    while (end < batch.length && !rows.has(batch[end]!.write.row!)) rows.add(batch[end++]!.write.row!);
    const part = batch.slice(start, end);
    const ctes = part.map(
      ({ write, event }, i) =>
        `w${i} AS (${write.sql} RETURNING 1), e${i} AS (${event.into} SELECT ${placeholders(event.params)} FROM w${i} LIMIT 1 RETURNING 1)`,
    );
    const text = `WITH ${ctes.join(', ')} SELECT ${part.map((_, i) => `(SELECT count(*) FROM e${i})::int AS r${i}`).join(', ')}`;
    try {
      const row = (await db.one<Record<string, number>>(
        preparedIfUniform(part, text),
        part.flatMap(({ write, event }) => [...write.params, ...event.params]),
      ))!;
      const written = part.map((_, i) => Number(row[`r${i}`]) > 0);
      if (written.includes(true)) db.wroteDeliveries();
      outcomes.push(...written);
    } catch {
      for (const { write, event } of part)
        outcomes.push(await writeOne(db, write, event).catch((error) => new Failed(error)));
    }
    start = end;
  }
  return outcomes;
}
