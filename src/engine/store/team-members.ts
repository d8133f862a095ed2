import { defineEntity, p } from '@mikro-orm/core';
import { Organization } from './organizations.js';
import { asIs, defineRows } from './rows.js';
import { toDate, toIso, toIsoOrNull, ts, type Sql } from './sql.js';

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
    [m.id, m.organizationId, m.email, m.name, m.role, m.addedBy, ts(sql, new Date(m.createdAt)), m.joinedAt && ts(sql, new Date(m.joinedAt))],
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
  const row = await sql.one(`SELECT ${MEMBERS.columns} FROM team_member m WHERE m.organization_id = ? AND m.email = ?`, [organizationId, email]);
  return row && MEMBERS.read(row);
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
  const rows = await sql.all<{ email: string }>(`SELECT email FROM team_member WHERE organization_id = ? AND role = 'owner' ORDER BY email${sql.dialect.forUpdate}`, [organizationId]);
  return rows.map((r) => r.email);
}

export async function setRole(sql: Sql, organizationId: string, email: string, role: string): Promise<boolean> {
  return (await sql.run('UPDATE team_member SET role = ? WHERE organization_id = ? AND email = ?', [role, organizationId, email])) > 0;
}

/** The first sign-in of every team this address is on and has not joined yet. */
export async function markJoined(sql: Sql, email: string, now: Date): Promise<void> {
  await sql.run('UPDATE team_member SET joined_at = ? WHERE email = ? AND joined_at IS NULL', [ts(sql, now), email]);
}

export async function remove(sql: Sql, organizationId: string, email: string): Promise<boolean> {
  return (await sql.run('DELETE FROM team_member WHERE organization_id = ? AND email = ?', [organizationId, email])) > 0;
}

/** When the member last looked at the posts page, and the look before that. */
export async function postsSeen(sql: Sql, organizationId: string, email: string): Promise<{ seenAt: Date | null; before: Date | null } | undefined> {
  const row = await sql.one<{ posts_seen_at: unknown; posts_seen_before: unknown }>('SELECT posts_seen_at, posts_seen_before FROM team_member WHERE organization_id = ? AND email = ?', [
    organizationId,
    email,
  ]);
  const at = (v: unknown) => (v === null || v === undefined ? null : toDate(v));
  return row && { seenAt: at(row.posts_seen_at), before: at(row.posts_seen_before) };
}

export async function setPostsSeen(sql: Sql, organizationId: string, email: string, seenAt: Date, before: Date | null): Promise<void> {
  await sql.run('UPDATE team_member SET posts_seen_at = ?, posts_seen_before = ? WHERE organization_id = ? AND email = ?', [
    ts(sql, seenAt),
    before && ts(sql, before),
    organizationId,
    email,
  ]);
}

/** Take the address off every team. */
export async function removeEverywhere(sql: Sql, email: string): Promise<number> {
  return sql.run('DELETE FROM team_member WHERE email = ?', [email]);
}
