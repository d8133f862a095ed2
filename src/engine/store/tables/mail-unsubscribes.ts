import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../../shared/ids.js';
import { type Sql, toIso, toIsoOrNull, toStringOrNull, ts } from '../sql.js';
import { Organization } from './organizations.js';

/**
 * An unsubscribe, kept with its time: by address (every contact with that address), from `all`, `posts`, `changelog`
 * or one `post:<postId>`. Only the person undoes it (`undoneAt`, from the preferences page); identify never does.
 */
export const MailUnsubscribe = defineEntity({
  name: 'MailUnsubscribe',
  tableName: 'mail_unsubscribe',
  indexes: [{ name: 'mail_unsubscribe_recipient_idx', properties: ['organization', 'emailHash'] }],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    emailHash: p.string().length(64),
    /** The contact the link was for, for the record. */
    contactId: p.string().length(40).nullable(),
    topic: p.string().length(60),
    /** `one_click` (RFC 8058, from the mail client), `preferences` (the portal page) or `cli`. */
    via: p.string().length(20),
    createdAt: p.datetime().length(3),
    undoneAt: p.datetime().length(3).nullable(),
  },
});

/** Where an unsubscribe came from: the mail client's one-click POST, the preferences page, or the command line. */
export type UnsubscribeVia = 'one_click' | 'preferences' | 'cli';

export interface UnsubscribeRow {
  id: string;
  contactId: string | null;
  topic: string;
  via: UnsubscribeVia;
  createdAt: string;
  undoneAt: string | null;
}

/**
 * Record an unsubscribe of an address from a topic, unless one is in force already (a second click changes nothing
 * and keeps the first one's time). Whether one was recorded now.
 */
export async function record(
  sql: Sql,
  u: {
    organizationId: string;
    emailHash: string;
    contactId: string | null;
    topic: string;
    via: UnsubscribeVia;
    at: Date;
  },
): Promise<boolean> {
  const changed = await sql.run(
    `INSERT INTO mail_unsubscribe (id, organization_id, email_hash, contact_id, topic, via, created_at)
     SELECT ?, ?, ?, ?, ?, ?, ? WHERE NOT EXISTS (
       SELECT 1 FROM mail_unsubscribe WHERE organization_id = ? AND email_hash = ? AND topic = ? AND undone_at IS NULL)`,
    [
      newId('unsub', u.at.getTime()),
      u.organizationId,
      u.emailHash,
      u.contactId,
      u.topic,
      u.via,
      ts(sql, u.at),
      u.organizationId,
      u.emailHash,
      u.topic,
    ],
  );
  return changed > 0;
}

/** The person takes an unsubscribe back (only they can: the preferences page); the record stays, with the time. */
export async function undo(
  sql: Sql,
  organizationId: string,
  emailHash: string,
  topic: string,
  at: Date,
): Promise<void> {
  await sql.run(
    'UPDATE mail_unsubscribe SET undone_at = ? WHERE organization_id = ? AND email_hash = ? AND topic = ? AND undone_at IS NULL',
    [ts(sql, at), organizationId, emailHash, topic],
  );
}

/** Every unsubscribe of an address, in force or undone, oldest first. */
export async function listFor(sql: Sql, organizationId: string, emailHash: string): Promise<UnsubscribeRow[]> {
  const rows = await sql.all<Record<string, unknown>>(
    'SELECT id, contact_id, topic, via, created_at, undone_at FROM mail_unsubscribe WHERE organization_id = ? AND email_hash = ? ORDER BY created_at, id',
    [organizationId, emailHash],
  );
  return rows.map((r) => ({
    id: r.id as string,
    contactId: toStringOrNull(r.contact_id),
    topic: r.topic as string,
    via: r.via as UnsubscribeVia,
    createdAt: toIso(r.created_at),
    undoneAt: toIsoOrNull(r.undone_at),
  }));
}

export async function removeFor(sql: Sql, organizationId: string, emailHash: string): Promise<void> {
  await sql.run('DELETE FROM mail_unsubscribe WHERE organization_id = ? AND email_hash = ?', [
    organizationId,
    emailHash,
  ]);
}
