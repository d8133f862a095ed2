import { type Sql, type SqlDialect, type Statement, statement, toBool, toInt, ts } from '../sql.js';

/** A delivery a claim took and this process now holds (under the claim's token), with everything its attempt needs. */
export interface Held {
  id: string;
  webhookId: string;
  eventType: string;
  attemptCount: number;
  /** As the database returns it: where a deep webhook's next refill seeks from. */
  nextAttemptAt: unknown;
  url: string;
  /** The webhook's signing secret, sealed (attempt.ts opens it). */
  secret: string;
  enabled: boolean;
  /** The exact bytes sent. */
  payload: string;
  /** The claim's lease token: the outcome is recorded only where the delivery still carries it. */
  token: string;
}

/** The webhooks a claim is for: given (with a cursor each, or none), or every webhook with pending deliveries but these. */
export type ClaimWebhooks = { given: Array<{ id: string; at?: unknown; after?: string }> } | { excluded: string[] };

/**
 * Up to `limit` due deliveries, oldest first, at most `batch` of each webhook `h`, taken with a lease in one statement.
 * Every step is an index seek on delivery_pending_idx (webhook_id, next_attempt_at): each webhook gives its oldest
 * due deliveries, so a claim costs one seek per webhook, however long any webhook's backlog is, and a slow webhook's
 * backlog never hides another webhook's deliveries. The webhooks are either given (the deep class, known from its
 * recorded outcomes) or found by a loose index scan of the webhooks with pending deliveries, less the excluded.
 *
 * A given webhook may come with a cursor: the position (next_attempt_at, id) of the newest delivery this process
 * claimed for it since it was last woken. Its seek then starts there, past what this process holds and past the index
 * entries of deliveries already done (which stay in the index until vacuum), instead of walking them on every refill.
 */
function claimText(d: SqlDialect, given: boolean): string {
  const webhooks = given
    ? `h (id, at, after) AS (SELECT id, at, after FROM ${d.jsonRows(
        [
          ['id', 'text'],
          ['at', 'timestamptz'],
          ['after', 'text'],
        ],
        'x',
      )})`
    : `RECURSIVE h (id) AS (
       SELECT (SELECT webhook_id FROM delivery WHERE status = 'pending' ORDER BY webhook_id LIMIT 1)
       UNION ALL
       SELECT (SELECT webhook_id FROM delivery WHERE status = 'pending' AND webhook_id > h.id ORDER BY webhook_id LIMIT 1) FROM h WHERE h.id IS NOT NULL
     )`;
  const due = `SELECT ${d.claims.rowRef} AS ref, id, next_attempt_at FROM delivery
    WHERE webhook_id = h.id AND status = 'pending' AND next_attempt_at <= ?${
      given ? ` AND (next_attempt_at, id) > (COALESCE(h.at, ${d.minTime}), COALESCE(h.after, ''))` : ''
    }
    AND (lease_expires_at IS NULL OR lease_expires_at <= ?) ORDER BY next_attempt_at, id LIMIT ?`;
  const picked = `${d.claims.pick(due)} WHERE h.id IS NOT NULL${given ? '' : ` AND h.id NOT IN (SELECT value FROM ${d.jsonStrings})`}`;
  const update = `UPDATE delivery SET lease_expires_at = ?, lease_token = ?
       WHERE ${d.claims.whereRef(`SELECT ref FROM (${picked}) p ORDER BY next_attempt_at, id LIMIT ?`)}
       RETURNING id, webhook_id, event_type, attempt_count, next_attempt_at,
         (SELECT url FROM webhook w WHERE w.id = delivery.webhook_id) AS url,
         (SELECT secret FROM webhook w WHERE w.id = delivery.webhook_id) AS secret,
         (SELECT enabled FROM webhook w WHERE w.id = delivery.webhook_id) AS enabled,
         (SELECT payload FROM event e WHERE e.id = delivery.event_id) AS payload`;
  // The claimed rows come back in claim order (next_attempt_at, id) where the database can order an UPDATE's rows.
  return d.modifyingCtes
    ? `WITH ${webhooks}, c AS (${update}) SELECT * FROM c ORDER BY next_attempt_at, id`
    : `WITH ${webhooks} ${update}`;
}

const texts = new Map<string, Statement>();
const claimStatement = (d: SqlDialect, given: boolean) => {
  const key = `${d.name}:${given}`;
  let s = texts.get(key);
  if (!s) texts.set(key, (s = statement(claimText(d, given))));
  return s;
};

/** One claim: its time, token and lease, how many at most (and per webhook), and for which webhooks. */
export interface ClaimRequest {
  now: Date;
  token: string;
  leaseUntil: Date;
  batch: number;
  limit: number;
  webhooks: ClaimWebhooks;
}

/** Claim due deliveries under `token` until `leaseUntil`; the rows in claim order (next_attempt_at, id). */
export async function claimDue(db: Sql, claim: ClaimRequest): Promise<Held[]> {
  const lease = [ts(db, claim.leaseUntil), claim.token, ts(db, claim.now), ts(db, claim.now), claim.batch];
  const given = 'given' in claim.webhooks;
  const rows =
    'given' in claim.webhooks
      ? await db.all(claimStatement(db.dialect, true), [JSON.stringify(claim.webhooks.given), ...lease, claim.limit])
      : await db.all(claimStatement(db.dialect, false), [
          ...lease,
          JSON.stringify(claim.webhooks.excluded),
          claim.limit,
        ]);
  // SQLite has no UPDATE in a WITH: its rows are ordered here (its text order is by code unit, as JavaScript compares).
  if (given && !db.dialect.modifyingCtes)
    rows.sort((a, b) => Number(a.next_attempt_at) - Number(b.next_attempt_at) || (a.id! < b.id! ? -1 : 1));
  return rows.map((r) => ({
    id: r.id as string,
    webhookId: r.webhook_id as string,
    eventType: r.event_type as string,
    attemptCount: toInt(r.attempt_count),
    nextAttemptAt: r.next_attempt_at,
    url: r.url as string,
    secret: r.secret as string,
    enabled: toBool(r.enabled),
    payload: r.payload as string,
    token: claim.token,
  }));
}
