/**
 * Errors that mean the database cannot be reached right now (refused, reset, a terminated backend, a pool that
 * cannot connect), as opposed to a statement that failed: the request may succeed when retried, so the server
 * answers `503` with `Retry-After` instead of `500`.
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  // PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now, the connection_exception class, too many connections,
  // a statement cancelled (statement_timeout), a transaction ended for idling (idle_in_transaction_session_timeout).
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53300',
  '57014',
  '25P03',
  // SQLite: another process holds the write lock past the busy timeout.
  'SQLITE_BUSY',
]);
// `timeout expired`: pg's connect timeout, when a server accepts the connection and never answers it.
const UNAVAILABLE_MESSAGES =
  /Connection terminated|connection error|Timeout acquiring a connection|timeout exceeded when trying to connect|Client was closed|not queryable|Query read timeout|^timeout expired$/i;

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
  }
  return false;
}

/** A unique-constraint violation, as either driver reports it (libsql: `SQLITE_CONSTRAINT_UNIQUE`). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return (
    e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(e?.message ?? '')
  );
}
