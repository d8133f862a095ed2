import { defineEntity, p } from '@mikro-orm/core';
import { statement, toInt, type Sql } from './sql.js';

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

/** Count one request in a key's window (PostgreSQL only: an UNLOGGED table shared by every instance); the count now. */
const COUNT = statement(`INSERT INTO rate_limit_window (key_id, window_start, count) VALUES (?, ?, 1)
  ON CONFLICT (key_id, window_start) DO UPDATE SET count = rate_limit_window.count + 1
  RETURNING count`);

export async function count(sql: Sql, keyId: string, windowStart: number): Promise<number> {
  return toInt((await sql.one<{ count: unknown }>(COUNT, [keyId, windowStart]))!.count);
}

/** Forget the windows before this one. */
export async function removeBefore(sql: Sql, windowStart: number): Promise<void> {
  await sql.run('DELETE FROM rate_limit_window WHERE window_start < ?', [windowStart]);
}
