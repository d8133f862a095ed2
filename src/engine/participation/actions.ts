import { type Actor, actAs, auditOf } from '../members/index.js';
import type { PortalContext } from './participants.js';
import { createParticipation } from './participation.js';

/** The workspace's portal secret (the key of its sign-in tokens), as one team member: owners and admins, audited. */
export function createPortalSecretActions(ctx: PortalContext, actor: Actor) {
  const workspace = auditOf('workspace');
  const audit = (action: string, detail?: Record<string, unknown>) => workspace(action, ctx.organizationId, detail);
  return {
    create: () =>
      actAs(ctx, actor, 'manage', async (inner) => ({
        result: await createParticipation(inner).secret.create(),
        audit: audit('portal_secret.created'),
      })),
    rotate: (graceSeconds: number) =>
      actAs(ctx, actor, 'manage', async (inner) => {
        const rotated = await createParticipation(inner).secret.rotate(graceSeconds);
        return { result: rotated, audit: audit('portal_secret.rotated', { until: rotated.previousValidUntil }) };
      }),
  };
}
