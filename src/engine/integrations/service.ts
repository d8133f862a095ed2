// A workspace's integrations as REST and the console read them: the connections (never their credentials), a post's
// linked issues and its calls on their way; and disconnecting.
import type { Page } from '../../schemas/common.js';
import type { Integration, IntegrationService } from '../../schemas/integrations.js';
import { type PageQueryInput, pageQuerySchema } from '../../schemas/posts.js';
import { answer, type Bindings, FeedbackError, pageByCreation, parseInput } from '../shared/index.js';
import { integrationJobs, integrations, issueLinks, type Sql, type WorkspaceContext } from '../store/index.js';
import { type IntegrationsContext, inboundUrl } from './context.js';

/** `GET /v1/integrations`: oldest first, keyset pages on (createdAt, id). */
async function list({ db, organizationId }: WorkspaceContext, query: PageQueryInput = {}): Promise<Page<Integration>> {
  const page = pageByCreation('integrations', parseInput(pageQuerySchema, query));
  return page((limit, after) => integrations.list(db, organizationId, limit, after));
}

/** A connection of the workspace by id or service (locked with `lock`), or 404. */
export async function requireIntegration(
  sql: Sql,
  organizationId: string,
  by: { id: string } | { service: IntegrationService },
  lock = false,
) {
  const row = await integrations.find(sql, organizationId, by, lock);
  if (!row) throw new FeedbackError('ERR_NOT_FOUND', 'That service is not connected to this workspace.');
  return row;
}

/** `DELETE /v1/integrations/{id}`: the connection, its links and its jobs go; the services keep what they have. */
export async function disconnect(db: Sql, organizationId: string, id: string) {
  if (!(await integrations.remove(db, organizationId, id)))
    throw new FeedbackError('ERR_NOT_FOUND', 'No integration with this id in this workspace.');
  return { id, deleted: true as const };
}

/** A connection as the console shows it: the record, its settings, and the URL its service sends webhooks to. */
export type IntegrationView = Integration & { settings: Record<string, unknown>; inboundUrl: string };

export function createIntegrationsService(ctx: IntegrationsContext) {
  return {
    list: (query?: PageQueryInput) => list(ctx, query),
    delete: (id: string) => disconnect(ctx.db, ctx.organizationId, id),
    /** Every connection of the workspace, by service (the console's Integrations page). */
    async overview(): Promise<IntegrationView[]> {
      const rows = await integrations.allOf(ctx.db, ctx.organizationId);
      return rows.map(({ organizationId: _o, credentials: _c, ...row }) => ({
        ...row,
        inboundUrl: inboundUrl(ctx.integrations, row.id),
      }));
    },
    /** A post's linked issues, and its calls still on their way or failed (the console's post page). */
    async forPost(postId: string) {
      const [links, calls] = await Promise.all([
        issueLinks.forPost(ctx.db, ctx.organizationId, postId),
        integrationJobs.forPost(ctx.db, ctx.organizationId, postId),
      ]);
      return { links, calls };
    },
  };
}
export type IntegrationsService = ReturnType<typeof createIntegrationsService>;

/** The contract's integration operations, on this service. */
export const INTEGRATION_OPERATIONS = {
  listIntegrations: (service, { input }) => answer(service.list(input)),
  deleteIntegration: (service, { params }) => answer(service.delete(params.integrationId!)),
} satisfies Bindings<IntegrationsService>;
