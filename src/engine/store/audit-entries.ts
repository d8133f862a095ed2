import { defineEntity, p } from '@mikro-orm/core';
import { Organization } from './organizations.js';
import { asIs, defineRows, pageOf, type After } from './rows.js';
import { toIso, toJson, toStringOrNull, ts, type Sql } from './sql.js';

/**
 * What a team member did in a workspace through the console (or the command line): who, what, to which resource, when
 * and from which address. Read by owners and admins; kept with the workspace.
 */
export const AuditEntry = defineEntity({
  name: 'AuditEntry',
  tableName: 'audit_entry',
  indexes: [
    { name: 'audit_entry_org_created_idx', properties: ['organization', 'createdAt', 'id'] },
    { name: 'audit_entry_actor_idx', properties: ['organization', 'actor'] },
  ],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    /** The member's address, or `cli` for the command line. */
    actor: p.string().length(320),
    /** What was done, as `resource.verb`: `post.status_changed`, `team.member_added`. */
    action: p.string().length(60),
    resourceType: p.string().length(30).nullable(),
    resourceId: p.string().length(320).nullable(),
    /** The client's address, when the action came over HTTP. */
    ip: p.string().length(64).nullable(),
    /** What changed (JSON). */
    detail: p.text(),
    createdAt: p.datetime().length(3),
  },
});

export interface AuditRow {
  id: string;
  organizationId: string;
  actor: string;
  action: string;
  resourceType: string | null;
  resourceId: string | null;
  ip: string | null;
  detail: Record<string, unknown>;
  createdAt: string;
}

const ENTRIES = defineRows<AuditRow>('audit_entry', 'a', {
  id: asIs,
  organizationId: asIs,
  actor: asIs,
  action: asIs,
  resourceType: toStringOrNull,
  resourceId: toStringOrNull,
  ip: toStringOrNull,
  detail: toJson,
  createdAt: toIso,
});

export async function insert(sql: Sql, a: AuditRow): Promise<void> {
  await sql.run(`INSERT INTO audit_entry (${ENTRIES.names}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
    a.id,
    a.organizationId,
    a.actor,
    a.action,
    a.resourceType,
    a.resourceId,
    a.ip,
    JSON.stringify(a.detail),
    ts(sql, new Date(a.createdAt)),
  ]);
}

/** The workspace's entries, newest first, a keyset page after `after`. */
export function page(sql: Sql, organizationId: string, limit: number, after?: After): Promise<AuditRow[]> {
  return pageOf(sql, ENTRIES, { where: 'a.organization_id = ?', params: [organizationId] }, limit, after, true);
}

/** The entries an address made in the workspace (a data-subject export). */
export async function byActor(sql: Sql, organizationId: string, actor: string): Promise<AuditRow[]> {
  const rows = await sql.all(`SELECT ${ENTRIES.columns} FROM audit_entry a WHERE a.organization_id = ? AND a.actor = ? ORDER BY a.created_at, a.id`, [organizationId, actor]);
  return rows.map((r) => ENTRIES.read(r));
}

/** Replace an address in the workspace's entries (an erasure keeps what was done, not who did it). */
export async function renameActor(sql: Sql, organizationId: string, actor: string, replacement: string): Promise<number> {
  return sql.run('UPDATE audit_entry SET actor = ?, ip = NULL WHERE organization_id = ? AND actor = ?', [replacement, organizationId, actor]);
}
