import { placeholders, ts, type Sql } from '../../store/sql.js';

/** Push the leases of these held deliveries (all claimed under `token`) out to `until`. */
export async function renewLeases(db: Sql, token: string, ids: readonly string[], until: Date): Promise<void> {
  await db.run(`UPDATE delivery SET lease_expires_at = ? WHERE lease_token = ? AND id IN (${placeholders(ids)})`, [ts(db, until), token, ...ids]);
}

/**
 * End a claimed delivery without an attempt, as disabling its webhook would have ended it: the webhook was disabled
 * between the claim and the attempt.
 */
export async function failUnattempted(db: Sql, id: string, token: string, now: Date): Promise<void> {
  await db.run(
    `UPDATE delivery SET status = 'failed', failed_at = ?, failure_reason = 'webhook_disabled', next_attempt_at = NULL, lease_token = NULL, lease_expires_at = NULL
     WHERE id = ? AND lease_token = ? AND status = 'pending'`,
    [ts(db, now), id, token],
  );
}
