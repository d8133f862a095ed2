import { defineEntity, p } from '@mikro-orm/core';
import { type Sql, toDate, toInt, toStringOrNull, ts } from '../sql.js';
import { Organization } from './organizations.js';

/** A one-time code mailed to an anonymous end-user, and what they asked to do once it is confirmed. */
export const PortalCode = defineEntity({
  name: 'PortalCode',
  tableName: 'portal_code',
  indexes: [
    { name: 'portal_code_expires_idx', properties: ['expiresAt'] },
    { name: 'portal_code_organization_idx', properties: ['organization'] },
  ],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    email: p.string().length(320),
    name: p.string().length(200).nullable(),
    /** SHA-256 (hex) of the code and the row id. */
    codeHash: p.string().length(64),
    /** The pending post, vote or comment (JSON). */
    action: p.text(),
    attempts: p.integer().default(0),
    createdAt: p.datetime().length(3),
    expiresAt: p.datetime().length(3),
  },
});

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

export async function insert(sql: Sql, c: CodeRow): Promise<void> {
  await sql.run(
    'INSERT INTO portal_code (id, organization_id, email, name, code_hash, action, attempts, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      c.id,
      c.organizationId,
      c.email,
      c.name,
      c.codeHash,
      c.action,
      c.attempts,
      ts(sql, c.createdAt),
      ts(sql, c.expiresAt),
    ],
  );
}

/** The workspace's code with this id, locked for the transaction where the database has row locks. */
export async function find(sql: Sql, organizationId: string, id: string): Promise<CodeRow | undefined> {
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
export async function remove(sql: Sql, id: string): Promise<boolean> {
  return (await sql.run('DELETE FROM portal_code WHERE id = ?', [id])) > 0;
}

/** The code's one-time use in the transaction `sql` (shared/one-time.ts `useOnce`). */
export const oneTime = (sql: Sql) => ({
  remove: (id: string) => remove(sql, id),
  countAttempt: (id: string) => countAttempt(sql, id),
});

/** Forget expired codes (they hold end-users' emails). */
export async function removeExpired(sql: Sql, now: Date): Promise<void> {
  await sql.run('DELETE FROM portal_code WHERE expires_at <= ?', [ts(sql, now)]);
}

/** The workspace's pending codes, as a data-subject request reads them (the caller picks the person's by address). */
export async function listForWorkspace(sql: Sql, organizationId: string) {
  const rows = await sql.all<Record<string, unknown>>(
    'SELECT id, email, name, created_at, expires_at FROM portal_code WHERE organization_id = ?',
    [organizationId],
  );
  return rows.map((r) => ({
    id: r.id as string,
    email: r.email as string,
    name: toStringOrNull(r.name),
    createdAt: toDate(r.created_at),
    expiresAt: toDate(r.expires_at),
  }));
}

/** Remove these codes (an erasure). */
export async function removeMany(sql: Sql, ids: readonly string[]): Promise<void> {
  for (const id of ids) await sql.run('DELETE FROM portal_code WHERE id = ?', [id]);
}
