import { defineEntity, p } from '@mikro-orm/core';
import { expressionIndex } from '../model.js';
import { asIs, defineRows } from '../rows.js';
import { DELIVERY_CHANNEL, type JsonColumn, type Sql, toDate, toInt, toIso, toIsoOrNull, ts } from '../sql.js';
import { inList, type Subject } from '../subjects.js';
import { Organization } from './organizations.js';

/**
 * The mail outbox: one row per change and recipient, written in the transaction of the change that causes it, sent by
 * the scheduler's mail lane. The unique (workspace, change, recipient) is what makes a person get one message per
 * change; rows of one recipient that are due together go out as one message (a digest).
 */
export const Mail = defineEntity({
  name: 'Mail',
  tableName: 'mail',
  uniques: [{ name: 'mail_change_recipient_unique', properties: ['organization', 'changeId', 'emailHash'] }],
  indexes: [
    { name: 'mail_recipient_idx', properties: ['organization', 'emailHash', 'createdAt'] },
    { name: 'mail_contact_idx', properties: ['contactId'] },
    // The mail lane's claim: due rows, oldest first; sent, failed and cancelled rows are not in it.
    expressionIndex('mail_due_idx', `on "mail" ("next_attempt_at", "id") where "status" = 'pending'`),
    // ... and its claim of the console's mail, which belongs to no workspace (a few rows among many).
    expressionIndex(
      'mail_console_due_idx',
      `on "mail" ("next_attempt_at", "id") where "status" = 'pending' and "organization_id" is null`,
    ),
    // The retention chore: settled rows by age.
    expressionIndex('mail_settled_idx', `on "mail" ("created_at") where "status" <> 'pending'`),
  ],
  properties: {
    id: p.string().primary().length(40),
    /** The workspace it is about; null for the console's own mail (a sign-in code to a person across workspaces). */
    organization: () => p.manyToOne(Organization).deleteRule('cascade').nullable(),
    /** The event of the change that caused it (or the sign-in or code it carries). */
    changeId: p.string().length(40),
    /**
     * `post_status`, `reply`, `changelog` (notifications/consent.ts), `webhook_disabled`; or mail a person asked for or
     * is sent by the team, whose payload is sealed (notifications/account.ts): `team_sign_in`, `team_invitation`,
     * `portal_code`.
     */
    kind: p.string().length(20),
    /** The recipient contact; a plain column, like a vote's: the row outlives nothing it names (erasure deletes it). */
    contactId: p.string().length(40).nullable(),
    /** The address as it was when the change happened. */
    email: p.string().length(320),
    /** SHA-256 of the trimmed, lower-cased address: who the recipient is, across contacts. */
    emailHash: p.string().length(64),
    /** What the message says (JSON): the post, its statuses, the comment, the entry. */
    payload: p.text(),
    /** `pending`, `sent`, `failed` or `cancelled`. */
    status: p.string().length(20),
    attemptCount: p.integer().default(0),
    nextAttemptAt: p.datetime().length(3).nullable(),
    leaseToken: p.string().length(40).nullable(),
    leaseExpiresAt: p.datetime().length(3).nullable(),
    /** The Message-ID it went out under (several rows share one in a digest). */
    messageId: p.string().length(200).nullable(),
    sentAt: p.datetime().length(3).nullable(),
    failedAt: p.datetime().length(3).nullable(),
    error: p.string().length(500).nullable(),
    createdAt: p.datetime().length(3),
  },
});

/** A mail row to write: one change's message to one recipient. */
export interface NewMail {
  id: string;
  /** Null for the console's own mail, which belongs to no workspace. */
  organizationId: string | null;
  changeId: string;
  kind: string;
  /** The recipient's contact; null for mail to a workspace's admins (a notice, not a notification). */
  contactId: string | null;
  email: string;
  emailHash: string;
  /** What the message says, as JSON text. */
  payload: string;
  /** When it is due: now, or the end of the hour for a digest. */
  dueAt: Date;
  createdAt: Date;
}

const NEW_MAIL_COLUMNS: readonly JsonColumn[] = [
  ['id', 'text'],
  ['organization_id', 'text'],
  ['change_id', 'text'],
  ['kind', 'text'],
  ['contact_id', 'text'],
  ['email', 'text'],
  ['email_hash', 'text'],
  ['payload', 'text'],
  ['due_at', 'timestamptz'],
  ['created_at', 'timestamptz'],
];
/** Rows per INSERT: the rows travel as one JSON parameter, so the statement text is the same for every batch. */
const INSERT_CHUNK = 1000;

/**
 * Write mail rows in the caller's transaction. A (workspace, change, address) already written is skipped: one
 * message per person per change, however many contacts share the address or however often this runs. Wakes the
 * scheduler once the transaction commits (here, and on PostgreSQL in every process, by NOTIFY).
 */
export async function insertMany(tx: Sql, rows: readonly NewMail[]): Promise<number> {
  let written = 0;
  const d = tx.dialect;
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const chunk = rows.slice(i, i + INSERT_CHUNK).map((r) => ({
      id: r.id,
      organization_id: r.organizationId,
      change_id: r.changeId,
      kind: r.kind,
      contact_id: r.contactId,
      email: r.email,
      email_hash: r.emailHash,
      payload: r.payload,
      due_at: d.jsonTime(r.dueAt),
      created_at: d.jsonTime(r.createdAt),
    }));
    written += await tx.run(
      `INSERT INTO mail (id, organization_id, change_id, kind, contact_id, email, email_hash, payload, status, attempt_count, next_attempt_at, created_at)
       SELECT id, organization_id, change_id, kind, contact_id, email, email_hash, payload, 'pending', 0, due_at, created_at FROM ${d.jsonRows(NEW_MAIL_COLUMNS, 'x')}
       WHERE true ON CONFLICT (organization_id, change_id, email_hash) DO NOTHING`,
      [JSON.stringify(chunk)],
    );
  }
  if (written > 0) {
    if (d.name === 'postgresql') await tx.run(`SELECT pg_notify('${DELIVERY_CHANNEL}', '')`);
    tx.wroteDeliveries('mail');
  }
  return written;
}

/** A mail row as the data-subject export shows it. */
export interface MailRecord {
  id: string;
  kind: string;
  status: string;
  email: string;
  changeId: string;
  createdAt: string;
  sentAt: string | null;
  failedAt: string | null;
}
const MAIL = defineRows<MailRecord>('mail', 'm', {
  id: asIs,
  kind: asIs,
  status: asIs,
  email: asIs,
  changeId: asIs,
  createdAt: toIso,
  sentAt: toIsoOrNull,
  failedAt: toIsoOrNull,
});

/** The workspace's mail to the person's contacts or address, oldest first. */
export async function listFor(sql: Sql, organizationId: string, who: Subject): Promise<MailRecord[]> {
  const rows = await sql.all(
    `SELECT ${MAIL.columns} FROM mail m WHERE m.organization_id = ? AND (${inList('m.contact_id', who.contactIds)} OR m.email_hash = ?) ORDER BY m.created_at, m.id`,
    [organizationId, ...who.contactIds, who.emailHash],
  );
  return rows.map((row) => MAIL.read(row));
}

/** Cancel a contact's mail not yet sent (the contact was deleted). */
export async function cancelPending(sql: Sql, organizationId: string, contactId: string, now: Date): Promise<number> {
  return sql.run(
    "UPDATE mail SET status = 'cancelled', failed_at = ?, error = 'contact deleted', next_attempt_at = NULL, lease_token = NULL, lease_expires_at = NULL WHERE organization_id = ? AND contact_id = ? AND status = 'pending'",
    [ts(sql, now), organizationId, contactId],
  );
}

/** Delete every row to the person's contacts or address, sent or not (an erasure: the rows hold the address). */
export async function removeFor(sql: Sql, organizationId: string, who: Subject): Promise<number> {
  return sql.run(
    `DELETE FROM mail WHERE organization_id = ? AND (${inList('contact_id', who.contactIds)} OR email_hash = ?)`,
    [organizationId, ...who.contactIds, who.emailHash],
  );
}

/** Pending rows whose payload is sealed (account mail), but not under the key `keyId`, after `after` by id (key rotation). */
export async function sealedPayloadsNotSealedWith(
  sql: Sql,
  keyId: string,
  after: string,
  limit: number,
): Promise<Array<{ id: string; payload: string }>> {
  return sql.all<{ id: string; payload: string }>(
    "SELECT id, payload FROM mail WHERE status = 'pending' AND payload LIKE 'fs1:%' AND payload NOT LIKE ? AND id > ? ORDER BY id LIMIT ?",
    [`fs1:${keyId}:%`, after, limit],
  );
}

/** Write a payload sealed again (key rotation), if it is still the one read. */
export async function replacePayload(sql: Sql, id: string, was: string, sealed: string): Promise<void> {
  await sql.run('UPDATE mail SET payload = ? WHERE id = ? AND payload = ?', [sealed, id, was]);
}

/** Delete the console's mail to an address, sent or not (a team member's erasure). */
export async function removeConsoleMailTo(sql: Sql, emailHash: string): Promise<number> {
  return sql.run('DELETE FROM mail WHERE organization_id IS NULL AND email_hash = ?', [emailHash]);
}

/** Delete settled rows (sent, failed, cancelled) written before `before`, at most `limit`: the outbox's retention. */
export async function purgeSettled(sql: Sql, before: Date, limit: number): Promise<number> {
  return sql.run(
    `DELETE FROM mail WHERE id IN (SELECT id FROM mail WHERE status <> 'pending' AND created_at < ? LIMIT ?)`,
    [ts(sql, before), limit],
  );
}

/** The outbox's due backlog across workspaces (for metrics): rows due now, and the oldest due time. */
export async function backlog(sql: Sql, now: Date): Promise<{ due: number; oldestDueAt: Date | null }> {
  const row = (await sql.one<{ due: unknown; oldest: unknown }>(
    "SELECT count(*) AS due, min(next_attempt_at) AS oldest FROM mail WHERE status = 'pending' AND next_attempt_at <= ?",
    [ts(sql, now)],
  ))!;
  return {
    due: toInt(row.due),
    oldestDueAt: row.oldest === null || row.oldest === undefined ? null : toDate(row.oldest),
  };
}
