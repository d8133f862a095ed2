import type { MikroORM } from '@mikro-orm/core';
import type { DeliveryScheduler } from './delivery/scheduler.js';
import type { EngineDatabase } from './store/sql.js';

/**
 * Errors that mean the database cannot be reached right now (refused, reset, a terminated backend, a pool that
 * cannot connect), as opposed to a statement that failed: the request may succeed when retried, so the server
 * answers `503` with `Retry-After` instead of `500`.
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH',
  // PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now, the connection_exception class, too many connections.
  '57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006', '53300',
  // SQLite: another process holds the write lock past the busy timeout.
  'SQLITE_BUSY',
]);
const UNAVAILABLE_MESSAGES = /Connection terminated|connection error|Timeout acquiring a connection|timeout exceeded when trying to connect|Client was closed|not queryable/i;

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
  }
  return false;
}

/** One check of `readiness()`: `ok`, or why not. */
export type CheckResult = { ok: true } | { ok: false; reason: string };

export interface Readiness {
  ready: boolean;
  checks: { database: CheckResult; migrations: CheckResult; scheduler: CheckResult };
}

const PING_TIMEOUT_MS = 2000;

/** What `/readyz` reports: the database answers, no migration is pending, and the scheduler runs (when required). */
export function createReadiness(db: EngineDatabase, orm: MikroORM, scheduler: DeliveryScheduler) {
  let migrationsCurrent = false; // once current, always current for this process
  return async function readiness(options: { requireScheduler?: boolean } = {}): Promise<Readiness> {
    const database = await Promise.race([
      db.one('SELECT 1 AS ok').then((): CheckResult => ({ ok: true })),
      new Promise<CheckResult>((resolve) => setTimeout(() => resolve({ ok: false, reason: `no answer within ${PING_TIMEOUT_MS} ms` }), PING_TIMEOUT_MS).unref()),
    ]).catch((err: unknown): CheckResult => ({ ok: false, reason: isDatabaseUnavailable(err) ? 'unreachable' : (err as Error).message }));
    let migrations: CheckResult = { ok: true };
    if (!migrationsCurrent && database.ok) {
      const pending = await db.lendToOrm(() => orm.getMigrator().getPendingMigrations()).catch(() => undefined);
      if (pending === undefined) migrations = { ok: false, reason: 'could not read the migrations table' };
      else if (pending.length > 0) migrations = { ok: false, reason: `${pending.length} pending: run feedback-service migrate` };
      else migrationsCurrent = true;
    } else if (!migrationsCurrent) migrations = { ok: false, reason: 'database unreachable' };
    const scheduler_: CheckResult = scheduler.running || !options.requireScheduler ? { ok: true } : { ok: false, reason: 'the delivery scheduler is not running' };
    return { ready: database.ok && migrations.ok && scheduler_.ok, checks: { database, migrations, scheduler: scheduler_ } };
  };
}
