// A team member acting on the workspace: their role checked by the engine, the change made through the engine's own
// services (so it emits what the same change through REST emits), and recorded in the audit log in the same
// transaction (docs/console.md).
import { FeedbackError } from '../shared/index.js';
import { inTransaction, type Sql, teamMembers, type WorkspaceContext } from '../store/index.js';
import { type Actor, type AuditInput, record } from './audit.js';
import { allows, isTeamRole, type TeamPermission, type TeamRole } from './roles.js';

/** The actor here: their role (`cli` for the command line, which may do anything) and name; 403 for anyone not on the team. */
async function actorHere(
  sql: Sql,
  organizationId: string,
  actor: Actor,
): Promise<{ role: TeamRole | 'cli'; name: string | null }> {
  if (actor.email === 'cli') return { role: 'cli', name: null };
  if (actor.vouched) {
    if (!isTeamRole(actor.vouched.role))
      throw new FeedbackError('ERR_FORBIDDEN', 'The host gave no known role for this person.');
    return { role: actor.vouched.role, name: actor.vouched.name ?? null };
  }
  const row = await teamMembers.find(sql, organizationId, actor.email);
  if (!row || !isTeamRole(row.role)) throw new FeedbackError('ERR_FORBIDDEN', 'You are not on this workspace’s team.');
  return { role: row.role, name: row.name };
}

/** The actor's role here, or 403. */
export const roleOf = async (sql: Sql, organizationId: string, actor: Actor): Promise<TeamRole | 'cli'> =>
  (await actorHere(sql, organizationId, actor)).role;

/** Who acts, as a change sees them: their address and name (the name an official reply is signed with). */
export interface Acting {
  email: string;
  name: string | null;
}

const REFUSALS: Record<TeamPermission, string> = {
  read: 'You are not on this workspace’s team.',
  triage: 'Your role (viewer) may read but not change anything.',
  manage: 'Only owners and admins may do this.',
  own: 'Only owners may do this.',
};

/**
 * Make `change` as `actor` when their role allows `permission`: in one transaction, the change (run by the engine's
 * services on `inner`, whose transactions are this one) and its audit entry, so both commit or neither does.
 */
export async function actAs<T, C extends WorkspaceContext = WorkspaceContext>(
  ctx: C,
  actor: Actor,
  permission: TeamPermission,
  change: (inner: C, tx: Sql, acting: Acting) => Promise<{ result: T; audit: AuditInput | AuditInput[] | null }>,
): Promise<T> {
  return ctx.db.transaction(async (tx) => {
    const { role, name } = await actorHere(tx, ctx.organizationId, actor);
    if (role !== 'cli' && !allows(role, permission)) throw new FeedbackError('ERR_FORBIDDEN', REFUSALS[permission]);
    const { result, audit } = await change({ ...ctx, db: inTransaction(tx) }, tx, { email: actor.email, name });
    for (const entry of audit === null ? [] : Array.isArray(audit) ? audit : [audit])
      await record(tx, ctx, actor, entry);
    return result;
  });
}
