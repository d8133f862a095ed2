import type { MikroORM } from '@mikro-orm/core';
import type { DeliveryScheduler } from './delivery/index.js';
import { isDatabaseUnavailable } from './shared/index.js';
import type { EngineDatabase } from './store/index.js';

export { isDatabaseUnavailable };

/** What `Retry-After` says when the database cannot be reached: the seconds a client waits before trying again. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 2;

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
      new Promise<CheckResult>((resolve) =>
        setTimeout(
          () => resolve({ ok: false, reason: `no answer within ${PING_TIMEOUT_MS} ms` }),
          PING_TIMEOUT_MS,
        ).unref(),
      ),
    ]).catch(
      (err: unknown): CheckResult => ({
        ok: false,
        reason: isDatabaseUnavailable(err) ? 'unreachable' : (err as Error).message,
      }),
    );
    let migrations: CheckResult = { ok: true };
    if (!migrationsCurrent && database.ok) {
      const pending = await db.lendToOrm(() => orm.getMigrator().getPendingMigrations()).catch(() => undefined);
      if (pending === undefined) migrations = { ok: false, reason: 'could not read the migrations table' };
      else if (pending.length > 0)
        migrations = { ok: false, reason: `${pending.length} pending: run feedback-service migrate` };
      else migrationsCurrent = true;
    } else if (!migrationsCurrent) migrations = { ok: false, reason: 'database unreachable' };
    const scheduler_: CheckResult =
      scheduler.running || !options.requireScheduler
        ? { ok: true }
        : { ok: false, reason: 'the delivery scheduler is not running' };
    return {
      ready: database.ok && migrations.ok && scheduler_.ok,
      checks: { database, migrations, scheduler: scheduler_ },
    };
  };
}
