import type { Scope } from '../../schemas/common.js';
import { type Actor, actAs, auditOf } from '../members/index.js';
import type { WorkspaceContext } from '../store/index.js';
import { createKeysService, type KeyCache } from './keys.js';

/** A workspace's API keys, as one team member (or the command line): owners and admins, each change audited. */
export function createKeyActions(ctx: WorkspaceContext & { keyCache: KeyCache }, actor: Actor) {
  const keys = (inner: typeof ctx) => createKeysService(inner.db, inner.clock, inner.keyCache);
  const audit = auditOf('api_key');
  return {
    create: (scope: Scope) =>
      actAs(ctx, actor, 'manage', async (inner) => {
        const key = await keys(inner).create(ctx.organizationId, scope);
        return { result: key, audit: audit('api_key.created', key.id, { scope }) };
      }),
    revoke: (keyId: string) =>
      actAs(ctx, actor, 'manage', async (inner) => ({
        result: await keys(inner).revoke(keyId, ctx.organizationId),
        audit: audit('api_key.revoked', keyId),
      })),
    /** A new key of the same scope (shown once); the old one works `graceSeconds` more. */
    rotate: (keyId: string, graceSeconds: number) =>
      actAs(ctx, actor, 'manage', async (inner) => {
        const key = await keys(inner).rotate(ctx.organizationId, keyId, graceSeconds);
        return { result: key, audit: audit('api_key.rotated', keyId, { by: key.id, until: key.previousValidUntil }) };
      }),
  };
}
