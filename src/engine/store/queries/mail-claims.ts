// The mail lane's statements over the mail outbox: its claim, the hand-over, requeueing, cancelling
// (delivery/mail-lane.ts), beside the webhook lane's (delivery-claims.ts, delivery-outcomes.ts) and the leases both hold.
import {
  type Database,
  placeholders,
  type Sql,
  type SqlDialect,
  type Statement,
  statement,
  toInt,
  ts,
} from '../sql.js';

/** A mail row a claim took. */
export interface ClaimedMail {
  id: string;
  /** Null for the console's own mail. */
  organizationId: string | null;
  emailHash: string;
  contactId: string | null;
  email: string;
  kind: string;
  changeId: string;
  payload: string;
  attemptCount: number;
}

/**
 * Up to `limit` recipients' due mail, taken with a lease in one statement: the oldest due rows name the recipients,
 * and every due row of those recipients comes along, so what is due for one person goes out as one message. An index
 * seek on mail_due_idx, then one on mail_recipient_idx per recipient. PostgreSQL skips rows another process is
 * claiming right now.
 */
const due = (m: string) =>
  `${m}status = 'pending' AND ${m}next_attempt_at <= ? AND (${m}lease_expires_at IS NULL OR ${m}lease_expires_at <= ?)`;
const CLAIMED = 'RETURNING id, organization_id, email_hash, contact_id, email, kind, change_id, payload, attempt_count';
function claimText(d: SqlDialect): string {
  return `UPDATE mail SET lease_token = ?, lease_expires_at = ?
    WHERE id IN (
      SELECT m.id FROM mail m WHERE ${due('m.')}
        AND (m.organization_id, m.email_hash) IN (SELECT organization_id, email_hash FROM mail WHERE ${due('')} AND organization_id IS NOT NULL ORDER BY next_attempt_at, id LIMIT ?)
      ORDER BY m.next_attempt_at, m.id LIMIT ?${d.forUpdateSkipLocked})
    ${CLAIMED}`;
}
/**
 * The console's own mail (no workspace: a sign-in code), oldest first: each row is a message of its own, so no
 * recipient's other rows come along. A seek on mail_console_due_idx, which holds these rows alone.
 */
const consoleClaimText = (d: SqlDialect) =>
  `UPDATE mail SET lease_token = ?, lease_expires_at = ?
    WHERE id IN (SELECT id FROM mail WHERE ${due('')} AND organization_id IS NULL ORDER BY next_attempt_at, id LIMIT ?${d.forUpdateSkipLocked})
    ${CLAIMED}`;
const claims = new Map<string, Statement>();

/** Rows per recipient a claim takes at most: a digest of more goes out in several messages. */
const ROWS_PER_RECIPIENT = 50;

const statementOf = (db: Sql, kind: 'workspaces' | 'console') => {
  const key = `${db.dialect.name} ${kind}`;
  let s = claims.get(key);
  if (!s) claims.set(key, (s = statement(kind === 'console' ? consoleClaimText(db.dialect) : claimText(db.dialect))));
  return s;
};

/** Up to `limit` recipients' due mail in the workspaces, and up to `limit` due messages of the console's own. */
export async function claimMail(
  db: Sql,
  claim: { now: Date; token: string; leaseUntil: Date; limit: number },
): Promise<ClaimedMail[]> {
  const now = ts(db, claim.now);
  const lease = [claim.token, ts(db, claim.leaseUntil)];
  const rows = [
    ...(await db.all<Record<string, unknown>>(statementOf(db, 'workspaces'), [
      ...lease,
      now,
      now,
      now,
      now,
      claim.limit,
      claim.limit * ROWS_PER_RECIPIENT,
    ])),
    ...(await db.all<Record<string, unknown>>(statementOf(db, 'console'), [...lease, now, now, claim.limit])),
  ];
  return rows.map((r) => ({
    id: r.id as string,
    organizationId: (r.organization_id as string | null) ?? null,
    emailHash: r.email_hash as string,
    contactId: (r.contact_id as string | null) ?? null,
    email: r.email as string,
    kind: r.kind as string,
    changeId: r.change_id as string,
    payload: r.payload as string,
    attemptCount: toInt(r.attempt_count),
  }));
}

/**
 * Hand a message over: its rows become `sent` under its Message-ID, all of them or none (a row whose lease this process
 * lost is another's now). Committed before the message's last line is written to the SMTP server, so a process that
 * dies after that line can never send it again. Whether the rows were ours.
 */
export async function handOver(
  db: Database,
  ids: readonly string[],
  token: string,
  messageId: string,
  now: Date,
): Promise<boolean> {
  const write = (sql: Sql) =>
    sql.run(
      `UPDATE mail SET status = 'sent', sent_at = ?, message_id = ?, attempt_count = attempt_count + 1, lease_token = NULL, lease_expires_at = NULL, error = NULL
       WHERE lease_token = ? AND status = 'pending' AND id IN (${placeholders(ids)})`,
      [ts(sql, now), messageId, token, ...ids],
    );
  // One row: one statement is all or nothing by itself (the common case: one message, one change).
  if (ids.length === 1) return (await write(db)) === 1;
  return db
    .transaction(async (tx) => {
      if ((await write(tx)) !== ids.length) throw new LostClaim();
      return true;
    })
    .catch((err: unknown) => {
      if (err instanceof LostClaim) return false;
      throw err;
    });
}
class LostClaim extends Error {}

/**
 * A message that did not go: each row due again at its `nextAt`, or failed (`nextAt` null) with the error. Rows still
 * held under the claim (never handed over), or handed over under this Message-ID and then refused by the server.
 */
export async function requeue(
  db: Database,
  rows: ReadonlyArray<{ id: string; nextAt: Date | null }>,
  claim: { token: string; messageId: string },
  error: string,
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    for (const row of rows) {
      await tx.run(
        `UPDATE mail SET status = ?, next_attempt_at = ?, failed_at = ?, error = ?,
           attempt_count = CASE WHEN status = 'sent' THEN attempt_count ELSE attempt_count + 1 END,
           sent_at = NULL, message_id = NULL, lease_token = NULL, lease_expires_at = NULL
         WHERE id = ? AND ((lease_token = ? AND status = 'pending') OR (status = 'sent' AND message_id = ?))`,
        [
          row.nextAt ? 'pending' : 'failed',
          row.nextAt && ts(tx, row.nextAt),
          row.nextAt ? null : ts(tx, now),
          error.slice(0, 500),
          row.id,
          claim.token,
          claim.messageId,
        ],
      );
    }
  });
}

/** Rows still held under the claim that will not be sent (what they say no longer holds): cancelled with the reason. */
export async function cancelHeld(
  db: Sql,
  ids: readonly string[],
  token: string,
  reason: string,
  now: Date,
): Promise<void> {
  await db.run(
    `UPDATE mail SET status = 'cancelled', failed_at = ?, error = ?, next_attempt_at = NULL, lease_token = NULL, lease_expires_at = NULL
     WHERE lease_token = ? AND status = 'pending' AND id IN (${placeholders(ids)})`,
    [ts(db, now), reason.slice(0, 500), token, ...ids],
  );
}

/** A handed-over message whose server never confirmed it: it stays sent (never twice), with the reason noted. */
export async function noteUnconfirmed(db: Sql, messageId: string, error: string): Promise<void> {
  await db.run("UPDATE mail SET error = ? WHERE message_id = ? AND status = 'sent'", [
    `unconfirmed: ${error}`.slice(0, 500),
    messageId,
  ]);
}
