import { toBool, toDate, toInt, toStringOrNull, ts, type Sql } from './sql.js';

/** A signed-in end-user's session row (keyed by the SHA-256 of the browser's token). */
export interface SessionRow {
  id: string;
  organizationId: string;
  externalUserId: string | null;
  email: string;
  name: string | null;
  verified: boolean;
  createdAt: Date;
  expiresAt: Date;
}

export async function insertSession(sql: Sql, s: SessionRow): Promise<void> {
  await sql.run(
    'INSERT INTO portal_session (id, organization_id, external_user_id, email, name, verified, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    [s.id, s.organizationId, s.externalUserId, s.email, s.name, s.verified, ts(sql, s.createdAt), ts(sql, s.expiresAt)],
  );
}

/** The workspace's live session with this id. */
export async function findSession(sql: Sql, organizationId: string, id: string, now: Date): Promise<SessionRow | undefined> {
  const row = await sql.one(
    'SELECT id, organization_id, external_user_id, email, name, verified, created_at, expires_at FROM portal_session WHERE id = ? AND organization_id = ? AND expires_at > ?',
    [id, organizationId, ts(sql, now)],
  );
  return (
    row && {
      id: row.id as string,
      organizationId: row.organization_id as string,
      externalUserId: toStringOrNull(row.external_user_id),
      email: row.email as string,
      name: toStringOrNull(row.name),
      verified: toBool(row.verified),
      createdAt: toDate(row.created_at),
      expiresAt: toDate(row.expires_at),
    }
  );
}

export async function removeSession(sql: Sql, organizationId: string, id: string): Promise<void> {
  await sql.run('DELETE FROM portal_session WHERE id = ? AND organization_id = ?', [id, organizationId]);
}

/** A one-time code row: what the end-user asked to do, waiting for the code mailed to them. */
export interface CodeRow {
  id: string;
  organizationId: string;
  email: string;
  name: string | null;
  codeHash: string;
  action: string;
  attempts: number;
  createdAt: Date;
  expiresAt: Date;
}

export async function insertCode(sql: Sql, c: CodeRow): Promise<void> {
  await sql.run(
    'INSERT INTO portal_code (id, organization_id, email, name, code_hash, action, attempts, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [c.id, c.organizationId, c.email, c.name, c.codeHash, c.action, c.attempts, ts(sql, c.createdAt), ts(sql, c.expiresAt)],
  );
}

/** The workspace's code with this id, locked for the transaction where the database has row locks. */
export async function findCode(sql: Sql, organizationId: string, id: string): Promise<CodeRow | undefined> {
  const row = await sql.one(
    `SELECT id, organization_id, email, name, code_hash, action, attempts, created_at, expires_at FROM portal_code WHERE id = ? AND organization_id = ?${sql.dialect.forUpdate}`,
    [id, organizationId],
  );
  return (
    row && {
      id: row.id as string,
      organizationId: row.organization_id as string,
      email: row.email as string,
      name: toStringOrNull(row.name),
      codeHash: row.code_hash as string,
      action: row.action as string,
      attempts: toInt(row.attempts),
      createdAt: toDate(row.created_at),
      expiresAt: toDate(row.expires_at),
    }
  );
}

/** Count a wrong try. */
export async function countAttempt(sql: Sql, id: string): Promise<void> {
  await sql.run('UPDATE portal_code SET attempts = attempts + 1 WHERE id = ?', [id]);
}

/** Remove a code once used, expired or tried too often; whether it was still there (so it is used only once). */
export async function removeCode(sql: Sql, id: string): Promise<boolean> {
  return (await sql.run('DELETE FROM portal_code WHERE id = ?', [id])) > 0;
}

/** Forget expired sessions and codes (they hold end-users' emails; nothing keeps them past their time). */
export async function removeExpired(sql: Sql, now: Date): Promise<void> {
  await sql.run('DELETE FROM portal_session WHERE expires_at <= ?', [ts(sql, now)]);
  await sql.run('DELETE FROM portal_code WHERE expires_at <= ?', [ts(sql, now)]);
}

/** Whether this voter (`u:<userId>` or `e:<emailHash>`) has voted on the post. */
export async function hasVoted(sql: Sql, postId: string, voterKey: string): Promise<boolean> {
  return (await sql.one('SELECT 1 AS x FROM vote WHERE post_id = ? AND voter_key = ?', [postId, voterKey])) !== undefined;
}

/** The workspace's sessions and pending codes, as a data-subject request reads them (the caller picks the person's by address). */
export async function listForWorkspace(sql: Sql, organizationId: string) {
  const sessions = await sql.all<Record<string, unknown>>('SELECT id, email, name, verified, created_at, expires_at FROM portal_session WHERE organization_id = ?', [organizationId]);
  const codes = await sql.all<Record<string, unknown>>('SELECT id, email, name, created_at, expires_at FROM portal_code WHERE organization_id = ?', [organizationId]);
  const common = (r: Record<string, unknown>) => ({ id: r.id as string, email: r.email as string, name: toStringOrNull(r.name), createdAt: toDate(r.created_at), expiresAt: toDate(r.expires_at) });
  return { sessions: sessions.map((r) => ({ ...common(r), verified: toBool(r.verified) })), codes: codes.map(common) };
}

/** Remove these sessions and codes (an erasure). */
export async function removeAccess(sql: Sql, ids: { sessions: readonly string[]; codes: readonly string[] }): Promise<void> {
  for (const id of ids.sessions) await sql.run('DELETE FROM portal_session WHERE id = ?', [id]);
  for (const id of ids.codes) await sql.run('DELETE FROM portal_code WHERE id = ?', [id]);
}
