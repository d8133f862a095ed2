import { randomBytes } from 'node:crypto';
import { defineEntity, p } from '@mikro-orm/core';
import { expressionIndex } from '../model.js';
import { type Sql, toIso, toStringOrNull, ts } from '../sql.js';
import { Organization } from './organizations.js';

/**
 * What an erasure keeps, per erased contact: a salted hash of the address (HMAC-SHA256 under the workspace's
 * `privacy_salt`), so that a later interaction by the same address does not silently bring the person back, and the
 * contact's opaque id, so the erasure can be confirmed. `pendingEventId`: the contact's `contact.deleted`, still carrying
 * its externalUserId for webhooks; redacted once its deliveries end.
 */
export const Suppression = defineEntity({
  name: 'Suppression',
  tableName: 'suppression',
  indexes: [
    { name: 'suppression_digest_idx', properties: ['organization', 'digest'] },
    // The chore that redacts delivered erasures: only the rows still waiting.
    expressionIndex(
      'suppression_pending_event_idx',
      'on "suppression" ("pending_event_id") where "pending_event_id" is not null',
    ),
  ],
  properties: {
    organization: () => p.manyToOne(Organization).primary().deleteRule('cascade'),
    contactId: p.string().primary().length(40),
    digest: p.string().length(64),
    pendingEventId: p.string().length(40).nullable(),
    createdAt: p.datetime().length(3),
  },
});

/** What the erasure of one contact left: the salted hash of its address, its id and when. */
export interface SuppressionRow {
  digest: string;
  contactId: string;
  createdAt: string;
  /** The erasure's `contact.deleted`, still to be redacted once its deliveries end. */
  pendingEventId: string | null;
}

/**
 * The workspace's suppression salt, made on first use (`create`): a random value per workspace, so its list can be
 * neither read back as addresses from a table of common ones nor joined with another workspace's.
 */
export async function saltOf(sql: Sql, organizationId: string, create: boolean): Promise<string | null> {
  const read = async () =>
    toStringOrNull(
      (await sql.one<{ privacy_salt: unknown }>('SELECT privacy_salt FROM organization WHERE id = ?', [organizationId]))
        ?.privacy_salt,
    );
  const salt = await read();
  if (salt || !create) return salt;
  // Two first erasures at once agree on one salt: only the first write lands.
  await sql.run('UPDATE organization SET privacy_salt = ? WHERE id = ? AND privacy_salt IS NULL', [
    randomBytes(32).toString('base64url'),
    organizationId,
  ]);
  return read();
}

/** Put an erased contact's address on the list. */
export async function add(
  sql: Sql,
  row: { organizationId: string; digest: string; contactId: string; pendingEventId: string | null; at: Date },
): Promise<void> {
  await sql.run(
    'INSERT INTO suppression (organization_id, contact_id, digest, pending_event_id, created_at) VALUES (?, ?, ?, ?, ?)',
    [row.organizationId, row.contactId, row.digest, row.pendingEventId, ts(sql, row.at)],
  );
}

/** Which of these digests are on the workspace's list. */
export async function suppressed(sql: Sql, organizationId: string, digests: readonly string[]): Promise<Set<string>> {
  if (digests.length === 0) return new Set();
  const rows = await sql.all<{ digest: string }>(
    `SELECT DISTINCT digest FROM suppression WHERE organization_id = ? AND digest IN (SELECT value FROM ${sql.dialect.jsonStrings})`,
    [organizationId, JSON.stringify(digests)],
  );
  return new Set(rows.map((r) => r.digest));
}

/** Take an address off the list (a fresh opt-in by the person): every erasure it was on it for; whether it was on it. */
export async function lift(sql: Sql, organizationId: string, digest: string): Promise<boolean> {
  return (
    (await sql.run('DELETE FROM suppression WHERE organization_id = ? AND digest = ?', [organizationId, digest])) > 0
  );
}

/** The erasure of this contact, if its row is still on the list. */
export async function findByContact(
  sql: Sql,
  organizationId: string,
  contactId: string,
): Promise<SuppressionRow | undefined> {
  const row = await sql.one<Record<string, unknown>>(
    'SELECT digest, contact_id, pending_event_id, created_at FROM suppression WHERE organization_id = ? AND contact_id = ?',
    [organizationId, contactId],
  );
  return (
    row && {
      digest: row.digest as string,
      contactId: row.contact_id as string,
      pendingEventId: toStringOrNull(row.pending_event_id),
      createdAt: toIso(row.created_at),
    }
  );
}

/** Erasures whose `contact.deleted` no delivery is waiting for any more: their events can be redacted now. */
export async function deliveredErasures(
  sql: Sql,
  limit: number,
): Promise<Array<{ organizationId: string; contactId: string; eventId: string }>> {
  const rows = await sql.all<{ organization_id: string; contact_id: string; pending_event_id: string }>(
    `SELECT s.organization_id, s.contact_id, s.pending_event_id FROM suppression s WHERE s.pending_event_id IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM delivery d WHERE d.event_id = s.pending_event_id AND d.status = 'pending') LIMIT ?`,
    [limit],
  );
  return rows.map((r) => ({ organizationId: r.organization_id, contactId: r.contact_id, eventId: r.pending_event_id }));
}

export async function clearPendingEvent(sql: Sql, organizationId: string, contactId: string): Promise<void> {
  await sql.run('UPDATE suppression SET pending_event_id = NULL WHERE organization_id = ? AND contact_id = ?', [
    organizationId,
    contactId,
  ]);
}
