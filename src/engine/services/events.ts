import type { EventKind, WebhookEvent } from '../../schemas/events.js';
import { newId } from '../internal/ids.js';
import { toIso, ts, type Sql, type Database } from '../internal/sql.js';

/** An event row as written: the payload text is the exact body receivers will get. */
export interface StoredEvent {
  id: string;
  organizationId: string;
  type: EventKind;
  payload: WebhookEvent;
  payloadText: string;
  createdAt: string;
}

/**
 * Write an event row inside the caller's transaction, so it commits if and only if the
 * change that caused it commits.
 */
export async function emitEvent(tx: Sql, event: WebhookEvent, now: Date): Promise<string> {
  const id = newId('evt', now.getTime());
  await tx.all('INSERT INTO event (id, organization_id, type, payload, created_at) VALUES (?, ?, ?, ?, ?)', [
    id,
    event.organizationId,
    event.event,
    JSON.stringify(event),
    ts(tx, now),
  ]);
  return id;
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
