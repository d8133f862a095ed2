import { defineEntity, p } from '@mikro-orm/core';
import { type Sql, toDate, ts } from '../sql.js';
import { Organization } from './organizations.js';

/**
 * An email domain a workspace's single sign-on is for. Until the workspace proves it owns the domain (a DNS TXT record
 * with `token`, or the operator's word on the command line), its single sign-on works only from the workspace's own
 * sign-in page; once verified, the shared sign-in page sends the domain's addresses to it, and the workspace may
 * require it for them. A domain is verified for one workspace at a time (a unique index over verified rows).
 */
export const SsoDomain = defineEntity({
  name: 'SsoDomain',
  tableName: 'sso_domain',
  // One workspace at a time per verified domain (a partial unique index: MikroORM compares it by name and text).
  uniques: [
    {
      name: 'sso_domain_verified_unique',
      expression:
        'create unique index "sso_domain_verified_unique" on "sso_domain" ("domain") where "verified_at" is not null',
    },
  ],
  properties: {
    organization: () => p.manyToOne(Organization).primary().deleteRule('cascade'),
    /** Lower-case. */
    domain: p.string().primary().length(253),
    /** The value the TXT record must hold (random, shown in the console). */
    token: p.string().length(64),
    verifiedAt: p.datetime().length(3).nullable(),
    /** `dns`, or `operator` (the command line's attestation). */
    verifiedBy: p.string().length(10).nullable(),
    createdAt: p.datetime().length(3),
  },
});

export interface SsoDomainRow {
  organizationId: string;
  domain: string;
  token: string;
  verifiedAt: Date | null;
  verifiedBy: string | null;
  createdAt: Date;
}

const read = (r: Record<string, unknown>): SsoDomainRow => ({
  organizationId: r.organization_id as string,
  domain: r.domain as string,
  token: r.token as string,
  verifiedAt: r.verified_at === null || r.verified_at === undefined ? null : toDate(r.verified_at),
  verifiedBy: (r.verified_by as string | null) ?? null,
  createdAt: toDate(r.created_at),
});
const COLUMNS = 'organization_id, domain, token, verified_at, verified_by, created_at';

/** A workspace's domains, by name. */
export async function of(sql: Sql, organizationId: string): Promise<SsoDomainRow[]> {
  return (
    await sql.all(`SELECT ${COLUMNS} FROM sso_domain WHERE organization_id = ? ORDER BY domain`, [organizationId])
  ).map(read);
}

/** The workspace a domain is verified for, if any. */
export async function verifiedFor(sql: Sql, domain: string): Promise<SsoDomainRow | undefined> {
  const row = await sql.one(`SELECT ${COLUMNS} FROM sso_domain WHERE domain = ? AND verified_at IS NOT NULL`, [domain]);
  return row && read(row);
}

/** Add a domain to a workspace (unverified, with its token) unless it has it. */
export async function add(
  sql: Sql,
  row: { organizationId: string; domain: string; token: string; createdAt: Date },
): Promise<void> {
  await sql.run(
    'INSERT INTO sso_domain (organization_id, domain, token, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (organization_id, domain) DO NOTHING',
    [row.organizationId, row.domain, row.token, ts(sql, row.createdAt)],
  );
}

/** Remove a workspace's domains but `keep`. */
export async function removeAllBut(sql: Sql, organizationId: string, keep: readonly string[]): Promise<void> {
  await sql.run(
    `DELETE FROM sso_domain WHERE organization_id = ? AND domain NOT IN (SELECT value FROM ${sql.dialect.jsonStrings})`,
    [organizationId, JSON.stringify(keep)],
  );
}

export async function removeAll(sql: Sql, organizationId: string): Promise<void> {
  await sql.run('DELETE FROM sso_domain WHERE organization_id = ?', [organizationId]);
}

/** Mark a workspace's domain verified. */
export async function markVerified(
  sql: Sql,
  organizationId: string,
  domain: string,
  by: 'dns' | 'operator',
  now: Date,
): Promise<void> {
  await sql.run('UPDATE sso_domain SET verified_at = ?, verified_by = ? WHERE organization_id = ? AND domain = ?', [
    ts(sql, now),
    by,
    organizationId,
    domain,
  ]);
}

/** Take a domain's verification from whichever workspace holds it (the operator moves it); that workspace, if any. */
export async function release(sql: Sql, domain: string): Promise<string | null> {
  const held = await verifiedFor(sql, domain);
  if (!held) return null;
  await sql.run(
    'UPDATE sso_domain SET verified_at = NULL, verified_by = NULL WHERE organization_id = ? AND domain = ?',
    [held.organizationId, domain],
  );
  return held.organizationId;
}
