import { defineEntity, p } from '@mikro-orm/core';
import { type Sql, toDate, ts } from '../sql.js';
import { Organization } from './organizations.js';
import { TeamSession } from './team-sessions.js';

/**
 * A workspace whose single sign-on proved a session's address: it opens that workspace, and no other. Kept with the
 * provider (issuer) that vouched, so the proof ends when the workspace changes or removes its provider.
 */
export const TeamSessionSso = defineEntity({
  name: 'TeamSessionSso',
  tableName: 'team_session_sso',
  properties: {
    session: () => p.manyToOne(TeamSession).primary().deleteRule('cascade'),
    organization: () => p.manyToOne(Organization).primary().deleteRule('cascade'),
    issuer: p.string().length(500),
    provenAt: p.datetime().length(3),
  },
});

export interface SsoProof {
  organizationId: string;
  issuer: string;
  provenAt: Date;
}

export async function insert(sql: Sql, sessionId: string, proof: SsoProof): Promise<void> {
  await sql.run('INSERT INTO team_session_sso (session_id, organization_id, issuer, proven_at) VALUES (?, ?, ?, ?)', [
    sessionId,
    proof.organizationId,
    proof.issuer,
    ts(sql, proof.provenAt),
  ]);
}

/** A session's proofs by single sign-on. */
export async function of(sql: Sql, sessionId: string): Promise<SsoProof[]> {
  const rows = await sql.all<{ organization_id: string; issuer: string; proven_at: unknown }>(
    'SELECT organization_id, issuer, proven_at FROM team_session_sso WHERE session_id = ?',
    [sessionId],
  );
  return rows.map((r) => ({ organizationId: r.organization_id, issuer: r.issuer, provenAt: toDate(r.proven_at) }));
}

/** Forget every session's proof by a workspace's single sign-on (it was turned off). */
export async function removeFor(sql: Sql, organizationId: string): Promise<void> {
  await sql.run('DELETE FROM team_session_sso WHERE organization_id = ?', [organizationId]);
}
