import { defineEntity, p } from '@mikro-orm/core';
import type { EventKind, WebhookEvent } from '../../../schemas/events.js';
import { newId } from '../../shared/ids.js';
import {
  type Database,
  type InsertStatement,
  insertValues,
  type Sql,
  toInt,
  toIso,
  ts,
  type WriteStatement,
} from '../sql.js';
import { Organization } from './organizations.js';

/**
 * An emitted event, written in the same transaction as the change that caused it.
 * `payload` holds the exact JSON bytes receivers will get.
 */
export const Event = defineEntity({
  name: 'Event',
  tableName: 'event',
  indexes: [{ name: 'event_org_created_idx', properties: ['organization', 'createdAt', 'id'] }],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    type: p.string().length(40),
    payload: p.text(),
    /** When an erasure took the person's data out of the payload (docs/privacy.md). */
    redactedAt: p.datetime().length(3).nullable(),
    createdAt: p.datetime().length(3),
  },
});

/** An event row as written: the payload text is the exact body receivers will get. */
export interface StoredEvent {
  id: string;
  organizationId: string;
  type: EventKind;
  payload: WebhookEvent;
  payloadText: string;
  createdAt: string;
}

/** The insert of an event row; the `event_fan_out` trigger (migration 4) turns it into one pending delivery per subscribed, enabled webhook, in the same statement. */
function eventInsert(sql: Pick<Sql, 'dialect'>, event: WebhookEvent, now: Date): InsertStatement {
  return {
    into: 'INSERT INTO event (id, organization_id, type, payload, created_at)',
    params: [newId('evt', now.getTime()), event.organizationId, event.event, JSON.stringify(event), ts(sql, now)],
  };
}

/**
 * Write an event row in the caller's transaction, so that it commits if and only if the change that caused it does.
 * Returns its id: the change's id, which the mail the change causes is written under.
 */
export async function emit(tx: Sql, event: WebhookEvent, now: Date): Promise<string> {
  const insert = eventInsert(tx, event, now);
  const { sql, params } = insertValues(insert);
  await tx.run(sql, params);
  tx.wroteDeliveries();
  return insert.params[0] as string;
}

/**
 * A change and its event as one unit: the event row is written if and only if `write` changed a row, and both commit
 * together (how, the dialect says). Returns whether the write changed a row.
 */
export function writeWithEvent(
  db: Sql | Database,
  write: WriteStatement,
  event: WebhookEvent,
  now: Date,
): Promise<boolean> {
  return db.dialect.writeWithEvent(db, write, eventInsert(db, event, now), event.organizationId);
}

/** The workspace's events in emission order, optionally of one kind. */
export async function list(sql: Sql, organizationId: string, type?: EventKind): Promise<StoredEvent[]> {
  const rows = await sql.all<{
    id: string;
    organization_id: string;
    type: EventKind;
    payload: string;
    created_at: unknown;
  }>(
    `SELECT id, organization_id, type, payload, created_at FROM event WHERE organization_id = ?${type ? ' AND type = ?' : ''} ORDER BY created_at, id`,
    type ? [organizationId, type] : [organizationId],
  );
  return rows.map((r) => ({
    id: r.id,
    organizationId: r.organization_id,
    type: r.type,
    payload: JSON.parse(r.payload) as WebhookEvent,
    payloadText: r.payload,
    createdAt: toIso(r.created_at),
  }));
}

/** The kinds of event whose payload can carry a person's data: their contact, their votes' user id, their comments' author id. */
export const PERSONAL_EVENT_KINDS = [
  'contact.created',
  'contact.updated',
  'contact.deleted',
  'vote.created',
  'comment.created',
] as const;

/** The workspace's events of those kinds not yet redacted, after `afterId` in id order, `limit` at a time. */
export async function personalPage(
  sql: Sql,
  organizationId: string,
  afterId: string,
  limit: number,
): Promise<StoredEvent[]> {
  const rows = await sql.all<{
    id: string;
    organization_id: string;
    type: EventKind;
    payload: string;
    created_at: unknown;
  }>(
    `SELECT id, organization_id, type, payload, created_at FROM event
     WHERE organization_id = ? AND id > ? AND redacted_at IS NULL AND type IN (${PERSONAL_EVENT_KINDS.map(() => '?').join(', ')}) ORDER BY id LIMIT ?`,
    [organizationId, afterId, ...PERSONAL_EVENT_KINDS, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    organizationId: r.organization_id,
    type: r.type,
    payload: JSON.parse(r.payload) as WebhookEvent,
    payloadText: r.payload,
    createdAt: toIso(r.created_at),
  }));
}

/** Replace an event's payload with its redacted form (what replays and the delivery log show from now on). */
export async function redact(sql: Sql, id: string, payload: WebhookEvent, now: Date): Promise<void> {
  await sql.run('UPDATE event SET payload = ?, redacted_at = ? WHERE id = ?', [
    JSON.stringify(payload),
    ts(sql, now),
    id,
  ]);
}

/** How many deliveries an event was fanned out to. */
export async function deliveryCount(sql: Sql, id: string): Promise<number> {
  return toInt((await sql.one<{ n: unknown }>('SELECT count(*) AS n FROM delivery WHERE event_id = ?', [id]))?.n);
}
