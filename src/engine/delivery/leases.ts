import { leases as leaseRows, type Sql } from '../store/index.js';

type LeasedTable = leaseRows.LeasedTable;

/** Lease ids renewed per statement at most. */
const RENEW_CHUNK = 500;

/**
 * The leases this process holds on one table's rows, by claim token, renewed every third of a lease while it holds
 * any: only a dead process's claims lapse, and a queue slower than a lease keeps its claims.
 */
export function createLeases(
  db: Sql,
  table: LeasedTable,
  clock: () => Date,
  leaseMs: number,
  log: (message: string, error?: unknown) => void,
) {
  const byToken = new Map<string, Set<string>>();
  let renewal: NodeJS.Timeout | undefined;

  async function renew(): Promise<void> {
    const until = new Date(clock().getTime() + leaseMs);
    for (const [token, ids] of byToken) {
      const list = [...ids];
      for (let i = 0; i < list.length; i += RENEW_CHUNK)
        await leaseRows.renewLeases(db, table, token, list.slice(i, i + RENEW_CHUNK), until);
    }
  }

  return {
    hold(token: string, id: string): void {
      let ids = byToken.get(token);
      if (!ids) byToken.set(token, (ids = new Set()));
      ids.add(id);
      renewal ??= setInterval(
        () => void renew().catch((err) => log(`[feedback-service] renewing ${table} leases failed`, err)),
        leaseMs / 3,
      );
    },
    release(token: string, id: string): void {
      const ids = byToken.get(token);
      ids?.delete(id);
      if (ids?.size === 0) byToken.delete(token);
      if (byToken.size === 0 && renewal) {
        clearInterval(renewal);
        renewal = undefined;
      }
    },
  };
}
export type Leases = ReturnType<typeof createLeases>;

/**
 * Give back claimed rows not yet being sent (a stopping scheduler): their leases cleared, so another process takes them
 * now rather than when the leases lapse.
 */
export async function giveBackClaims(
  db: Sql,
  table: LeasedTable,
  claims: ReadonlyArray<{ token: string; id: string }>,
): Promise<void> {
  const byToken = new Map<string, string[]>();
  for (const c of claims) (byToken.get(c.token) ?? byToken.set(c.token, []).get(c.token)!).push(c.id);
  for (const [token, ids] of byToken)
    for (let i = 0; i < ids.length; i += RENEW_CHUNK)
      await leaseRows.releaseLeases(db, table, token, ids.slice(i, i + RENEW_CHUNK));
}
