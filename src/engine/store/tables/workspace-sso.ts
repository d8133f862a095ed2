import { defineEntity, p } from '@mikro-orm/core';
import { type Sql, toBool, ts } from '../sql.js';
import { Organization } from './organizations.js';

/**
 * A workspace's single sign-on to the console with an OpenID Connect provider: its issuer, the client registered there
 * (the secret sealed at rest, bound to this row), and whether people of its verified domains must use it. The domains
 * it is for are `sso_domain` rows.
 */
export const WorkspaceSso = defineEntity({
  name: 'WorkspaceSso',
  tableName: 'workspace_sso',
  properties: {
    organization: () => p.manyToOne(Organization).primary().deleteRule('cascade'),
    issuer: p.string().length(500),
    clientId: p.string().length(255),
    /** Sealed (sealedAt.ssoClientSecret). */
    clientSecret: p.text(),
    /** Addresses of its verified domains sign in to this workspace with single sign-on only (no mailed codes). */
    enforced: p.boolean().default(false),
    updatedAt: p.datetime().length(3),
  },
});

export interface SsoRow {
  organizationId: string;
  issuer: string;
  clientId: string;
  /** As stored: sealed. */
  clientSecret: string;
  enforced: boolean;
}

const read = (r: Record<string, unknown>): SsoRow => ({
  organizationId: r.organization_id as string,
  issuer: r.issuer as string,
  clientId: r.client_id as string,
  clientSecret: r.client_secret as string,
  enforced: toBool(r.enforced),
});
const COLUMNS = 'organization_id, issuer, client_id, client_secret, enforced';

export async function upsert(sql: Sql, row: SsoRow, now: Date): Promise<void> {
  await sql.run(
    `INSERT INTO workspace_sso (organization_id, issuer, client_id, client_secret, enforced, updated_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (organization_id) DO UPDATE SET issuer = excluded.issuer, client_id = excluded.client_id, client_secret = excluded.client_secret,
       enforced = excluded.enforced, updated_at = excluded.updated_at`,
    [row.organizationId, row.issuer, row.clientId, row.clientSecret, row.enforced, ts(sql, now)],
  );
}

export async function find(sql: Sql, organizationId: string): Promise<SsoRow | undefined> {
  const row = await sql.one(`SELECT ${COLUMNS} FROM workspace_sso WHERE organization_id = ?`, [organizationId]);
  return row && read(row);
}

/** Every workspace's single sign-on (a short list: one row per workspace that set it up). */
export async function all(sql: Sql): Promise<SsoRow[]> {
  return (await sql.all(`SELECT ${COLUMNS} FROM workspace_sso ORDER BY organization_id`)).map(read);
}

export async function remove(sql: Sql, organizationId: string): Promise<boolean> {
  return (await sql.run('DELETE FROM workspace_sso WHERE organization_id = ?', [organizationId])) > 0;
}

/** Write a secret sealed again (key rotation), if it is still the one read. */
export async function replaceSecret(sql: Sql, organizationId: string, was: string, sealed: string): Promise<void> {
  await sql.run('UPDATE workspace_sso SET client_secret = ? WHERE organization_id = ? AND client_secret = ?', [
    sealed,
    organizationId,
    was,
  ]);
}
