import { statement, toInt, type Sql } from './sql.js';

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
