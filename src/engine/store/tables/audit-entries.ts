import { defineEntity, p } from '@mikro-orm/core';
import { type After, asIs, defineRows, pageOf } from '../rows.js';
import { type JsonColumn, type Sql, toIso, toJson, toStringOrNull, ts } from '../sql.js';
import { Organization } from './organizations.js';

/**
 * What a team member did in a workspace through the console (or the command line): who, what, to which resource, when
 * and from which address. Read by owners and admins; kept with the workspace.
 */
export const AuditEntry = defineEntity({
  name: 'AuditEntry',
  tableName: 'audit_entry',
  indexes: [
    { name: 'audit_entry_org_created_idx', properties: ['organization', 'createdAt', 'id'] },
    // What names a person (a team member's data request): as the one who acted, and as the member acted on.
    { name: 'audit_entry_actor_idx', properties: ['actor'] },
    { name: 'audit_entry_resource_idx', properties: ['resourceId'] },
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

/**
 * The same entry in the audit log of every workspace whose team has `email` (none when it is on no team), in one
 * statement whatever the answer: what a wrong sign-in code writes, so that a code typed for a member and for anyone else
 * take the same path. Ids: `idBase` and the end of the member row's id.
 */
export async function insertForTeamsOf(sql: Sql, email: string, a: Omit<AuditRow, 'organizationId'>): Promise<void> {
  const entry = {
    ...a,
    detail: JSON.stringify(a.detail),
    createdAt: sql.dialect.jsonTime(new Date(a.createdAt)),
    email,
  };
  await sql.run(
    `INSERT INTO audit_entry (${ENTRIES.names})
     SELECT x.id || substr(m.id, length(m.id) - 5), m.organization_id, x.actor, x.action, x.resource_type, x.resource_id, x.ip, x.detail, x.created_at
     FROM ${sql.dialect.jsonRows(ONE_ENTRY, 'x')} JOIN team_member m ON m.email = x.email`,
    [
      JSON.stringify([
        {
          id: entry.id,
          actor: entry.actor,
          action: entry.action,
          resource_type: entry.resourceType,
          resource_id: entry.resourceId,
          ip: entry.ip,
          detail: entry.detail,
          created_at: entry.createdAt,
          email,
        },
      ]),
    ],
  );
}
const ONE_ENTRY: readonly JsonColumn[] = [
  ['id', 'text'],
  ['actor', 'text'],
  ['action', 'text'],
  ['resource_type', 'text'],
  ['resource_id', 'text'],
  ['ip', 'text'],
  ['detail', 'text'],
  ['created_at', 'timestamptz'],
  ['email', 'text'],
];

/** The workspace's entries, newest first, a keyset page after `after`. */
export function page(sql: Sql, organizationId: string, limit: number, after?: After): Promise<AuditRow[]> {
  return pageOf(sql, ENTRIES, { where: 'a.organization_id = ?', params: [organizationId] }, limit, after, true);
}

/** Every entry, in every workspace, that names this address: as the one who acted or as the resource acted on. */
export async function naming(sql: Sql, email: string): Promise<AuditRow[]> {
  return (
    await sql.all(
      `SELECT ${ENTRIES.columns} FROM audit_entry a WHERE a.actor = ? OR a.resource_id = ? ORDER BY a.created_at, a.id`,
      [email, email],
    )
  ).map((r) => ENTRIES.read(r));
}

/** Put `alias` where the entries name this address, and drop the client address of what they did. */
export async function pseudonymize(sql: Sql, email: string, alias: string): Promise<number> {
  const acted = await sql.run('UPDATE audit_entry SET actor = ?, ip = NULL WHERE actor = ?', [alias, email]);
  return acted + (await sql.run('UPDATE audit_entry SET resource_id = ? WHERE resource_id = ?', [alias, email]));
}
