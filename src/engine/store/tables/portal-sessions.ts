import { defineEntity, p } from '@mikro-orm/core';
import { type Sql, toBool, toDate, toStringOrNull, ts } from '../sql.js';
import { Organization } from './organizations.js';

/**
 * A signed-in end-user on a workspace's portal: verified by a workspace-signed token, or by a one-time code mailed to
 * their address. The browser holds the random token; the row is keyed by its SHA-256 and removed once expired.
 */
export const PortalSession = defineEntity({
  name: 'PortalSession',
  tableName: 'portal_session',
  indexes: [
    { name: 'portal_session_expires_idx', properties: ['expiresAt'] },
    { name: 'portal_session_organization_idx', properties: ['organization'] },
  ],
  properties: {
    /** SHA-256 (hex) of the cookie's token. */
    id: p.string().primary().length(64),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    /** The workspace's user id (`sub`) for a token session; null for an email-code session. */
    externalUserId: p.string().length(255).nullable(),
    email: p.string().length(320),
    name: p.string().length(200).nullable(),
    /** Whether the workspace vouched for this person with a signed token. */
    verified: p.boolean(),
    createdAt: p.datetime().length(3),
    expiresAt: p.datetime().length(3),
  },
});

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

export async function insert(sql: Sql, s: SessionRow): Promise<void> {
  await sql.run(
    'INSERT INTO portal_session (id, organization_id, external_user_id, email, name, verified, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    [s.id, s.organizationId, s.externalUserId, s.email, s.name, s.verified, ts(sql, s.createdAt), ts(sql, s.expiresAt)],
  );
}

/** The workspace's live session with this id. */
export async function find(sql: Sql, organizationId: string, id: string, now: Date): Promise<SessionRow | undefined> {
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

export async function remove(sql: Sql, organizationId: string, id: string): Promise<void> {
  await sql.run('DELETE FROM portal_session WHERE id = ? AND organization_id = ?', [id, organizationId]);
}

/** Forget expired sessions (they hold end-users' emails; nothing keeps them past their time). */
export async function removeExpired(sql: Sql, now: Date): Promise<void> {
  await sql.run('DELETE FROM portal_session WHERE expires_at <= ?', [ts(sql, now)]);
}

/** The workspace's sessions, as a data-subject request reads them (the caller picks the person's by address). */
export async function listForWorkspace(sql: Sql, organizationId: string) {
  const rows = await sql.all<Record<string, unknown>>(
    'SELECT id, email, name, verified, created_at, expires_at FROM portal_session WHERE organization_id = ?',
    [organizationId],
  );
  return rows.map((r) => ({
    id: r.id as string,
    email: r.email as string,
    name: toStringOrNull(r.name),
    verified: toBool(r.verified),
    createdAt: toDate(r.created_at),
    expiresAt: toDate(r.expires_at),
  }));
}

/** Remove these sessions (an erasure). */
export async function removeMany(sql: Sql, ids: readonly string[]): Promise<void> {
  for (const id of ids) await sql.run('DELETE FROM portal_session WHERE id = ?', [id]);
}
