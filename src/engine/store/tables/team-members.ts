import { defineEntity, p } from '@mikro-orm/core';
import { asIs, defineRows } from '../rows.js';
import { type Sql, statement, toBool, toDate, toIso, toIsoOrNull, ts } from '../sql.js';
import { Organization } from './organizations.js';

/**
 * A person on a workspace's team (the console's users): their address, name and role. One row per workspace they
 * belong to; the same address may be on several teams. `joinedAt` is null until an invited person first signs in.
 */
export const TeamMember = defineEntity({
  name: 'TeamMember',
  tableName: 'team_member',
  uniques: [{ name: 'team_member_org_email_unique', properties: ['organization', 'email'] }],
  indexes: [{ name: 'team_member_email_idx', properties: ['email'] }],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    /** Lower-cased. */
    email: p.string().length(320),
    name: p.string().length(200).nullable(),
    role: p.string().length(10),
    /** Who added them (an address, or `cli`). */
    addedBy: p.string().length(320),
    createdAt: p.datetime().length(3),
    joinedAt: p.datetime().length(3).nullable(),
    /** When they last looked at the posts page, and the look before that ("new since I last looked" means since then). */
    postsSeenAt: p.datetime().length(3).nullable(),
    postsSeenBefore: p.datetime().length(3).nullable(),
  },
});

export interface MemberRow {
  id: string;
  organizationId: string;
  email: string;
  name: string | null;
  role: string;
  addedBy: string;
  createdAt: string;
  joinedAt: string | null;
}

export const MEMBERS = defineRows<MemberRow>('team_member', 'm', {
  id: asIs,
  organizationId: asIs,
  email: asIs,
  name: asIs,
  role: asIs,
  addedBy: asIs,
  createdAt: toIso,
  joinedAt: toIsoOrNull,
});

/** Add a member unless the address is on the team already; whether it was added. */
export async function insert(sql: Sql, m: MemberRow): Promise<boolean> {
  const changed = await sql.run(
    `INSERT INTO team_member (${MEMBERS.names}) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (organization_id, email) DO NOTHING`,
    [
      m.id,
      m.organizationId,
      m.email,
      m.name,
      m.role,
      m.addedBy,
      ts(sql, new Date(m.createdAt)),
      m.joinedAt && ts(sql, new Date(m.joinedAt)),
    ],
  );
  return changed > 0;
}

/** The workspace's team, owners first, then by address. */
export async function list(sql: Sql, organizationId: string): Promise<MemberRow[]> {
  const rows = await sql.all(
    `SELECT ${MEMBERS.columns} FROM team_member m WHERE m.organization_id = ?
     ORDER BY CASE m.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 WHEN 'member' THEN 2 ELSE 3 END, m.email`,
    [organizationId],
  );
  return rows.map((r) => MEMBERS.read(r));
}

export async function find(sql: Sql, organizationId: string, email: string): Promise<MemberRow | undefined> {
  const row = await sql.one(
    `SELECT ${MEMBERS.columns} FROM team_member m WHERE m.organization_id = ? AND m.email = ?`,
    [organizationId, email],
  );
  return row && MEMBERS.read(row);
}

/** A team of an address, with what decides whether a session opens it (members/sessions.ts). */
export interface TeamSignInFacts extends MemberRow {
  workspace: string;
  /** The workspace's single sign-on provider now, if it has one. */
  ssoIssuer: string | null;
  /** Whether it requires single sign-on for the address: on, and the address's domain verified for it. */
  ssoRequired: boolean;
  /** The provider that proved the session for this workspace, if one did (null for no session, or no proof). */
  provenBy: string | null;
}

// Read on every console request: a prepared statement on PostgreSQL (planned once per connection).
const TEAMS_FOR = statement(
  `SELECT ${MEMBERS.columns}, o.name AS workspace, s.issuer AS sso_issuer, s.enforced AS sso_enforced, d.domain AS verified_domain, p.issuer AS proven_by
   FROM team_member m JOIN organization o ON o.id = m.organization_id
   LEFT JOIN workspace_sso s ON s.organization_id = m.organization_id
   LEFT JOIN sso_domain d ON d.organization_id = m.organization_id AND d.domain = ? AND d.verified_at IS NOT NULL
   LEFT JOIN team_session_sso p ON p.session_id = ? AND p.organization_id = m.organization_id
   WHERE m.email = ? ORDER BY o.name, o.id`,
);

/**
 * Every team this address is on, by workspace name, with its single sign-on (provider, and whether it is required for
 * the address's `domain`) and the session's proof by single sign-on there: what a console request reads, in one query.
 */
export async function teamsFor(
  sql: Sql,
  email: string,
  domain: string,
  sessionId: string | null,
): Promise<TeamSignInFacts[]> {
  const rows = await sql.all(TEAMS_FOR, [domain, sessionId ?? '', email]);
  return rows.map((r) => ({
    ...MEMBERS.read(r),
    workspace: r.workspace as string,
    ssoIssuer: (r.sso_issuer as string | null) ?? null,
    ssoRequired: r.sso_issuer != null && toBool(r.sso_enforced) && r.verified_domain != null,
    provenBy: (r.proven_by as string | null) ?? null,
  }));
}

/** Every team this address is on, with the workspace's name, by name. */
export async function teamsOf(sql: Sql, email: string): Promise<Array<MemberRow & { workspace: string }>> {
  const rows = await sql.all(
    `SELECT ${MEMBERS.columns}, o.name AS workspace FROM team_member m JOIN organization o ON o.id = m.organization_id WHERE m.email = ? ORDER BY o.name, o.id`,
    [email],
  );
  return rows.map((r) => ({ ...MEMBERS.read(r), workspace: r.workspace as string }));
}

/**
 * The workspace's owners, their rows locked until the transaction `sql` ends (PostgreSQL; a SQLite transaction holds
 * the whole database): two changes that would each leave one owner run one after the other, and the second reads the
 * owners the first left (PostgreSQL reads a locked row again once its lock is free, and drops it if it is no longer an
 * owner's).
 */
export async function lockOwners(sql: Sql, organizationId: string): Promise<string[]> {
  const rows = await sql.all<{ email: string }>(
    `SELECT email FROM team_member WHERE organization_id = ? AND role = 'owner' ORDER BY email${sql.dialect.forUpdate}`,
    [organizationId],
  );
  return rows.map((r) => r.email);
}

export async function setRole(sql: Sql, organizationId: string, email: string, role: string): Promise<boolean> {
  return (
    (await sql.run('UPDATE team_member SET role = ? WHERE organization_id = ? AND email = ?', [
      role,
      organizationId,
      email,
    ])) > 0
  );
}

/** The first sign-in of every team this address is on and has not joined yet (or of the one in `organizationId`). */
export async function markJoined(sql: Sql, email: string, now: Date, organizationId?: string): Promise<void> {
  if (organizationId)
    await sql.run(
      'UPDATE team_member SET joined_at = ? WHERE email = ? AND organization_id = ? AND joined_at IS NULL',
      [ts(sql, now), email, organizationId],
    );
  else
    await sql.run('UPDATE team_member SET joined_at = ? WHERE email = ? AND joined_at IS NULL', [ts(sql, now), email]);
}

export async function remove(sql: Sql, organizationId: string, email: string): Promise<boolean> {
  return (
    (await sql.run('DELETE FROM team_member WHERE organization_id = ? AND email = ?', [organizationId, email])) > 0
  );
}

/** When the member last looked at the posts page, and the look before that. */
export async function postsSeen(
  sql: Sql,
  organizationId: string,
  email: string,
): Promise<{ seenAt: Date | null; before: Date | null } | undefined> {
  const row = await sql.one<{ posts_seen_at: unknown; posts_seen_before: unknown }>(
    'SELECT posts_seen_at, posts_seen_before FROM team_member WHERE organization_id = ? AND email = ?',
    [organizationId, email],
  );
  const at = (v: unknown) => (v === null || v === undefined ? null : toDate(v));
  return row && { seenAt: at(row.posts_seen_at), before: at(row.posts_seen_before) };
}

export async function setPostsSeen(
  sql: Sql,
  organizationId: string,
  email: string,
  seenAt: Date,
  before: Date | null,
): Promise<void> {
  await sql.run(
    'UPDATE team_member SET posts_seen_at = ?, posts_seen_before = ? WHERE organization_id = ? AND email = ?',
    [ts(sql, seenAt), before && ts(sql, before), organizationId, email],
  );
}

/** Take the address off every team. */
export async function removeEverywhere(sql: Sql, email: string): Promise<number> {
  return sql.run('DELETE FROM team_member WHERE email = ?', [email]);
}
