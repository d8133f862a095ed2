import { DELIVERY_CHANNEL, placeholders, type Sql, ts } from '../sql.js';

/** The tables the scheduler's lanes claim from: webhook deliveries, mail and the integrations' jobs. Each has `lease_token` and `lease_expires_at`. */
export type LeasedTable = 'delivery' | 'mail' | 'integration_job';

/** Push the leases of these held rows (all claimed under `token`) out to `until`. */
export async function renewLeases(
  db: Sql,
  table: LeasedTable,
  token: string,
  ids: readonly string[],
  until: Date,
): Promise<void> {
  await db.run(`UPDATE ${table} SET lease_expires_at = ? WHERE lease_token = ? AND id IN (${placeholders(ids)})`, [
    ts(db, until),
    token,
    ...ids,
  ]);
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

/**
 * What else a claim given back undoes, per table: an integration job's claim counted an attempt begun (so that an
 * attempt after a crash knows one may have reached the service); one never begun is taken back with the lease.
 */
const UNCLAIMED: Record<LeasedTable, string> = {
  delivery: '',
  mail: '',
  integration_job: ', attempt_count = attempt_count - 1',
};

/**
 * Give back claims not yet attempted (a scheduler stopping): the rows are due again at once for any process, and on
 * PostgreSQL the others hear of it now rather than at their next poll.
 */
export async function releaseLeases(db: Sql, table: LeasedTable, token: string, ids: readonly string[]): Promise<void> {
  await db.run(
    `UPDATE ${table} SET lease_token = NULL, lease_expires_at = NULL${UNCLAIMED[table]} WHERE lease_token = ? AND status = 'pending' AND id IN (${placeholders(ids)})`,
    [token, ...ids],
  );
  if (db.dialect.name === 'postgresql') await db.run(`SELECT pg_notify('${DELIVERY_CHANNEL}', '')`);
}
