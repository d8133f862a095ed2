import { WEBHOOK_LIMITS } from '../../../schemas/webhooks.js';
import { type Database, type JsonColumn, type SqlDialect, type Statement, statement, toBool } from '../sql.js';

/** One attempt's outcome as recorded, where its delivery's lease is still held. */
export interface OutcomeRow {
  id: string;
  token: string;
  webhook_id: string;
  /** Completion order within the batch: what consecutive failures are counted in. */
  seq: number;
  number: number;
  ok: 0 | 1;
  at: string | number;
  next_at: string | number | null;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  response_body: string | null;
}

/** The columns of one outcome (`v`), as each database reads them from the JSON parameter. */
const OUTCOME_COLUMNS: readonly JsonColumn[] = [
  ['id', 'text'],
  ['token', 'text'],
  ['webhook_id', 'text'],
  ['seq', 'int'],
  ['number', 'int'],
  ['ok', 'int'],
  ['at', 'timestamptz'],
  ['next_at', 'timestamptz'],
  ['status_code', 'int'],
  ['error', 'text'],
  ['duration_ms', 'int'],
  ['response_body', 'text'],
];

const LAST = WEBHOOK_LIMITS.attempts;
/**
 * An attempt's outcome, where the lease is still held: a 2xx succeeds; otherwise the next attempt is due at `next_at`,
 * or after the fifth the delivery fails (`attempts_exhausted`). A delivery failed meanwhile by disabling its webhook
 * stays failed with that reason. The rows are found by primary key: with data-modifying CTEs (PostgreSQL) the ids also
 * go in as an array (`= ANY`), because a join with the JSON rows alone, estimated at 100 rows whatever the batch, is
 * planned as a hash join over a scan of the whole delivery table.
 */
const updateDeliveries = (
  byArray: boolean,
) => `UPDATE delivery SET attempt_count = v.number, lease_token = NULL, lease_expires_at = NULL,
  status = CASE WHEN v.ok = 1 THEN 'succeeded' WHEN delivery.status = 'failed' OR v.number >= ${LAST} THEN 'failed' ELSE 'pending' END,
  next_attempt_at = CASE WHEN v.ok = 1 OR delivery.status = 'failed' OR v.number >= ${LAST} THEN NULL ELSE v.next_at END,
  succeeded_at = CASE WHEN v.ok = 1 THEN v.at ELSE NULL END,
  failed_at = CASE WHEN v.ok = 1 THEN NULL WHEN delivery.status = 'failed' THEN delivery.failed_at WHEN v.number >= ${LAST} THEN v.at ELSE NULL END,
  failure_reason = CASE WHEN v.ok = 1 THEN NULL WHEN delivery.status = 'failed' THEN delivery.failure_reason
    WHEN v.number >= ${LAST} THEN 'attempts_exhausted' ELSE NULL END
  FROM v WHERE ${byArray ? 'delivery.id = ANY(ARRAY(SELECT id FROM v)) AND ' : ''}delivery.id = v.id AND delivery.lease_token = v.token`;

/** The attempt log rows of the recorded outcomes (`r`). */
const INSERT_ATTEMPTS = `INSERT INTO delivery_attempt (delivery_id, number, attempted_at, status_code, error, duration_ms, response_body)
  SELECT id, number, at, status_code, error, duration_ms, response_body FROM r`;

/**
 * Consecutive failures per webhook, in completion order (`seq`): a success resets the count to the failures after the
 * last one; without one, the failures add to the count.
 */
const COUNT_FAILURES = `s AS (SELECT webhook_id, max(CASE WHEN ok = 1 THEN seq END) AS last_ok, sum(CASE WHEN ok = 0 THEN 1 ELSE 0 END) AS failures
    FROM r GROUP BY webhook_id),
  c AS (SELECT webhook_id, failures,
    CASE WHEN last_ok IS NULL THEN NULL ELSE (SELECT count(*) FROM r WHERE r.webhook_id = s.webhook_id AND r.ok = 0 AND r.seq > s.last_ok) END AS tail
    FROM s)`;
const UPDATE_COUNTERS = `UPDATE webhook SET consecutive_failures = CASE WHEN c.tail IS NULL THEN webhook.consecutive_failures + c.failures ELSE c.tail END
  FROM c WHERE webhook.id = c.webhook_id AND (c.failures > 0 OR webhook.consecutive_failures <> 0)
  RETURNING webhook.id, CASE WHEN webhook.enabled AND webhook.consecutive_failures >= ${WEBHOOK_LIMITS.consecutiveFailures} THEN 1 ELSE 0 END AS over,
    CASE WHEN webhook.enabled THEN 0 ELSE 1 END AS disabled`;

const outcomes = (d: SqlDialect) => `v AS (SELECT * FROM ${d.jsonRows(OUTCOME_COLUMNS, 'x')})`;

/** With data-modifying CTEs: a whole batch of outcomes in one statement. */
let oneStatement: Statement | undefined;
const recordInOneStatement = (d: SqlDialect) =>
  (oneStatement ??= statement(`WITH ${outcomes(d)},
  u AS (${updateDeliveries(true)} RETURNING delivery.id),
  r AS (SELECT v.* FROM v JOIN u ON u.id = v.id),
  a AS (${INSERT_ATTEMPTS}),
  ${COUNT_FAILURES},
  w AS (${UPDATE_COUNTERS})
  SELECT 'recorded' AS kind, id FROM u UNION ALL SELECT 'over' AS kind, id FROM w WHERE over = 1
  UNION ALL SELECT 'disabled' AS kind, id FROM w WHERE disabled = 1`));

/** What recording a batch found. */
export interface Recorded {
  /** The deliveries whose outcome was written (their lease was still this process's). */
  recorded: Set<string>;
  /** Enabled webhooks that reached the consecutive-failure limit. */
  over: string[];
  /** Webhooks disabled while the batch was in flight: what it left pending is to be ended. */
  disabledMeanwhile: string[];
}

/**
 * Write a batch of outcomes: each delivery's new state, its attempt row, and each webhook's consecutive failures. The
 * rows travel as one JSON parameter, so the statement text is the same for every batch size.
 */
export async function recordOutcomes(db: Database, rows: OutcomeRow[]): Promise<Recorded> {
  const result: Recorded = { recorded: new Set(), over: [], disabledMeanwhile: [] };
  if (rows.length === 0) return result;
  if (db.dialect.modifyingCtes) {
    for (const row of await db.all<{ kind: string; id: string }>(recordInOneStatement(db.dialect), [
      JSON.stringify(rows),
    ])) {
      if (row.kind === 'recorded') result.recorded.add(row.id);
      else if (row.kind === 'over') result.over.push(row.id);
      else result.disabledMeanwhile.push(row.id);
    }
    return result;
  }
  await db.transaction(async (tx) => {
    const v = outcomes(tx.dialect);
    for (const row of await tx.all<{ id: string }>(`WITH ${v} ${updateDeliveries(false)} RETURNING delivery.id`, [
      JSON.stringify(rows),
    ]))
      result.recorded.add(row.id);
    const kept = JSON.stringify(rows.filter((row) => result.recorded.has(row.id)));
    await tx.run(`WITH ${v}, r AS (SELECT * FROM v) ${INSERT_ATTEMPTS}`, [kept]);
    const counted = await tx.all<{ id: string; over: unknown; disabled: unknown }>(
      `WITH ${v}, r AS (SELECT * FROM v), ${COUNT_FAILURES} ${UPDATE_COUNTERS}`,
      [kept],
    );
    result.over.push(...counted.filter((row) => toBool(row.over)).map((row) => row.id));
    result.disabledMeanwhile.push(...counted.filter((row) => toBool(row.disabled)).map((row) => row.id));
  });
  return result;
}
