// What the integrations' suites share: a workspace with a team and a post with voters, the jobs and links as the
// database holds them, and an inbound delivery sent through the engine.
import type { ServerResponse } from 'node:http';
import { type Actor, CLI_ACTOR, type Engine } from '../../src/engine/index.js';
import { addresses, portalWorkspace } from './notifications.js';

/** A workspace with its portal on, an admin and a member, and a post two people voted for. */
export async function integrationWorkspace(engine: Engine) {
  const w = await portalWorkspace(engine);
  const a = addresses('admin', 'member', 'viewer', 'voter1', 'voter2');
  for (const role of ['admin', 'member', 'viewer'] as const)
    await w.ws.team.add(CLI_ACTOR, { email: a[role]!, role }, { invite: false, workspace: w.org.name });
  for (const v of ['voter1', 'voter2'])
    await w.ws.participation.vote({ postId: w.post.id, email: a[v]!, notifyMe: true });
  const as = (email: string): Actor => ({ email, ip: '203.0.113.9' });
  return { ...w, a, admin: w.ws.as(as(a.admin!)), member: w.ws.as(as(a.member!)), viewer: w.ws.as(as(a.viewer!)) };
}
export type IntegrationWorkspace = Awaited<ReturnType<typeof integrationWorkspace>>;

/** The jobs of a connection, oldest first, as the outbox holds them. */
export async function jobsOf(engine: Engine, integrationId: string) {
  return engine.db.all<{
    id: string;
    kind: string;
    status: string;
    attempt_count: number;
    last_error: string | null;
    next_attempt_at: unknown;
    delivery_id: string | null;
  }>(
    'SELECT id, kind, status, attempt_count, last_error, next_attempt_at, delivery_id FROM integration_job WHERE integration_id = ? ORDER BY created_at, id',
    [integrationId],
  );
}

/** The audit entries of a workspace, newest first: who did what. */
export async function auditOf(w: IntegrationWorkspace) {
  return (await w.ws.team.auditLog(CLI_ACTOR, { limit: 50 })).data.map((e) => ({
    actor: e.actor,
    action: e.action,
    detail: e.detail,
  }));
}

/** Send an inbound delivery to the engine as the HTTP endpoint would. */
export function deliver(engine: Engine, integrationId: string, d: { body: string; headers: Record<string, string> }) {
  return engine.integrations.receive(integrationId, new Headers(d.headers), Buffer.from(d.body, 'utf8'));
}

/**
 * A fake's hook that cuts the connection instead of the first answer (the call reached the service and did its work;
 * the caller never heard), and lets every later one through.
 */
export function loseFirstAnswer() {
  let cut = true;
  return (...args: unknown[]): boolean => {
    if (!cut) return false;
    cut = false;
    (args.at(-1) as ServerResponse).destroy();
    return true;
  };
}
