import type { EventKind, WebhookEvent } from '../../schemas/events.js';
import { newId } from '../internal/ids.js';
import { statement, toIso, ts, type Database, type Sql } from '../internal/sql.js';

/** An event row as written: the payload text is the exact body receivers will get. */
export interface StoredEvent {
  id: string;
  organizationId: string;
  type: EventKind;
  payload: WebhookEvent;
  payloadText: string;
  createdAt: string;
}

const EVENT_INSERT = 'INSERT INTO event (id, organization_id, type, payload, created_at)';

function eventValues(sql: { dialect: Sql['dialect'] }, event: WebhookEvent, now: Date): unknown[] {
  return [newId('evt', now.getTime()), event.organizationId, event.event, JSON.stringify(event), ts(sql, now)];
}

/**
 * Write an event row inside the caller's transaction, so it commits if and only if the
 * change that caused it commits. The `event_fan_out` trigger (migration 4) turns the row into one
 * pending delivery per subscribed, enabled webhook in the same statement.
 */
export async function emitEvent(tx: Sql, event: WebhookEvent, now: Date): Promise<void> {
  await tx.all(`${EVENT_INSERT} VALUES (?, ?, ?, ?, ?)`, eventValues(tx, event, now));
  tx.wroteDeliveries();
}

/** A write statement (INSERT, UPDATE or DELETE, without RETURNING) and its parameters. */
export interface WriteStatement {
  sql: string;
  params: readonly unknown[];
}

/**
 * A change and its event as one unit: the event row is written if and only if `write` changed a
 * row, and both commit together. On PostgreSQL this is one statement (a data-modifying CTE); on
 * SQLite the two statements run in the caller's transaction, or in an IMMEDIATE one of their own.
 * Returns whether the write changed a row (a conditional write that matched nothing writes no event).
 */
export async function writeWithEvent(db: Sql | Database, write: WriteStatement, event: WebhookEvent, now: Date): Promise<boolean> {
  if (db.dialect === 'postgresql') {
    // Prepared once per connection: a write's text comes from a small set (per resource, per set of changed columns).
    const rows = await db.all(
      statement(`WITH w AS (${write.sql} RETURNING 1) ${EVENT_INSERT} SELECT ?, ?, ?, ?, ? FROM w LIMIT 1 RETURNING id`),
      [...write.params, ...eventValues(db, event, now)],
    );
    if (rows.length > 0) db.wroteDeliveries();
    return rows.length > 0;
  }
  // SQLite outside a transaction: the two statements in one turn, so the transaction spans no await.
  if ('batch' in db && db.batch) {
    return db.batch((tx) => {
      const changed = tx.run(write.sql, write.params) > 0;
      if (changed) {
        tx.run(`${EVENT_INSERT} VALUES (?, ?, ?, ?, ?)`, eventValues(tx, event, now));
        tx.wroteDeliveries();
      }
      return changed;
    });
  }
  const changed = (await db.run(write.sql, write.params)) > 0;
  if (changed) await emitEvent(db, event, now); // notes the deliveries
  return changed;
}

/** Read access to a workspace's events, oldest first. */
export function createEventsService(db: Database, organizationId: string) {
  return {
    /** The workspace's events in emission order, optionally of one kind. */
    async list(options: { type?: EventKind } = {}): Promise<StoredEvent[]> {
      const params: unknown[] = [organizationId];
      let where = 'organization_id = ?';
      if (options.type) {
        where += ' AND type = ?';
        params.push(options.type);
      }
      const rows = await db.all<{ id: string; organization_id: string; type: EventKind; payload: string; created_at: unknown }>(
        `SELECT id, organization_id, type, payload, created_at FROM event WHERE ${where} ORDER BY created_at, id`,
        params,
      );
      return rows.map((r) => ({
        id: r.id,
        organizationId: r.organization_id,
        type: r.type,
        payload: JSON.parse(r.payload) as WebhookEvent,
        payloadText: r.payload,
        createdAt: toIso(r.created_at),
      }));
    },
  };
}
export type EventsService = ReturnType<typeof createEventsService>;
