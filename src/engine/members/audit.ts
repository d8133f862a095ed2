import { newId } from '../shared/index.js';
import { auditEntries, type Sql, type WorkspaceContext } from '../store/index.js';
import type { TeamRole } from './roles.js';

/** Who did something, and from where: a team member's address (or `cli`) and the client's address over HTTP. */
export interface Actor {
  email: string;
  ip?: string | null;
  /**
   * The role a host application vouches for (the console embedded in the host's own admin, with the host's own
   * sign-in): the engine takes it instead of reading the team table. Only in-process code can pass it.
   */
  vouched?: { role: TeamRole; name?: string | null };
}

/** The command line as an actor: whoever runs it on the server. */
export const CLI_ACTOR: Actor = { email: 'cli' };

export interface AuditInput {
  action: string;
  resourceType?: string | null;
  resourceId?: string | null;
  detail?: Record<string, unknown>;
}

/** The audit entries of one kind of resource: `auditOf('webhook')('webhook.deleted', id, detail?)`. */
export const auditOf =
  (resourceType: string) =>
  (action: string, resourceId: string | null, detail?: Record<string, unknown>): AuditInput => ({
    action,
    resourceType,
    resourceId,
    ...(detail ? { detail } : {}),
  });

/** Record what an actor did, in the caller's transaction (`sql`), so the record commits with the change. */
export async function record(
  sql: Sql,
  ctx: Pick<WorkspaceContext, 'organizationId' | 'clock'>,
  actor: Actor,
  entry: AuditInput,
): Promise<void> {
  const now = ctx.clock();
  await auditEntries.insert(sql, {
    id: newId('aud', now.getTime()),
    organizationId: ctx.organizationId,
    actor: actor.email,
    action: entry.action,
    resourceType: entry.resourceType ?? null,
    resourceId: entry.resourceId ?? null,
    ip: actor.ip ?? null,
    detail: entry.detail ?? {},
    createdAt: now.toISOString(),
  });
}
