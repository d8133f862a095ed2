import { defineEntity, p } from '@mikro-orm/core';
import { gathered } from '../gather.js';
import { type Database, type Sql, statement, toInt } from '../sql.js';

/**
 * A key's requests in one minute, shared by every instance: PostgreSQL only (an UNLOGGED table: counts that may be
 * lost in a crash, never worth a WAL write); on SQLite the one process counts in memory.
 */
export const RateLimitWindow = defineEntity({
  name: 'RateLimitWindow',
  tableName: 'rate_limit_window',
  properties: {
    keyId: p.string().primary().length(40),
    /** The window's first millisecond (epoch ms), aligned to the clock minute. */
    windowStart: p.bigint('number').primary(),
    count: p.integer(),
  },
});

/** Count requests in a key's window (PostgreSQL only: an UNLOGGED table shared by every instance); the count after. */
const COUNT = statement(`INSERT INTO rate_limit_window (key_id, window_start, count) VALUES (?, ?, ?)
  ON CONFLICT (key_id, window_start) DO UPDATE SET count = rate_limit_window.count + excluded.count
  RETURNING count`);

/**
 * Count one request in a key's window: its place in the window (1 for the first). Requests of one window arriving while
 * its count is on its way are counted together in one statement (`gather`), each given its own place in arrival
 * order: exactly the places that one statement each would have given, so the limit stays exact.
 */
export function count(sql: Sql | Database, keyId: string, windowStart: number): Promise<number> {
  return gathered(sql, 'rate-limit', `${keyId} ${windowStart}`, null, async (requests) => {
    const after = toInt((await sql.one<{ count: unknown }>(COUNT, [keyId, windowStart, requests.length]))!.count);
    return requests.map((_, i) => after - requests.length + 1 + i);
  });
}

/** Forget the windows before this one. */
export async function removeBefore(sql: Sql, windowStart: number): Promise<void> {
  await sql.run('DELETE FROM rate_limit_window WHERE window_start < ?', [windowStart]);
}
