import { newToken, sha256 } from '../shared/index.js';
import { portalCodes, portalSessions, type WorkspaceContext } from '../store/index.js';
import { PORTAL_SESSION_SECONDS, type PortalIdentity, type PortalSession } from './participants.js';

/** Forget expired sessions and codes (they hold end-users' emails; nothing keeps them past their time). */
export async function removeExpired(ctx: WorkspaceContext, now: Date): Promise<void> {
  await portalSessions.removeExpired(ctx.db, now);
  await portalCodes.removeExpired(ctx.db, now);
}

/** A new session for this person: a token verified people keep 24 hours, email-verified ones 30 days. */
export async function startSession(ctx: WorkspaceContext, identity: PortalIdentity, now: Date): Promise<PortalSession> {
  const token = newToken();
  const expiresAt = new Date(
    now.getTime() + (identity.verified ? PORTAL_SESSION_SECONDS.verified : PORTAL_SESSION_SECONDS.email) * 1000,
  );
  await removeExpired(ctx, now);
  await portalSessions.insert(ctx.db, {
    id: sha256(token),
    organizationId: ctx.organizationId,
    ...identity,
    createdAt: now,
    expiresAt,
  });
  return { token, identity, expiresAt };
}

/** The person a session token stands for, while the session lasts. */
export async function sessionOf(
  { db, organizationId, clock }: WorkspaceContext,
  token: string | undefined,
): Promise<PortalIdentity | null> {
  if (!token || token.length > 100) return null;
  const row = await portalSessions.find(db, organizationId, sha256(token), clock());
  return row ? { verified: row.verified, externalUserId: row.externalUserId, email: row.email, name: row.name } : null;
}

export async function signOut({ db, organizationId }: WorkspaceContext, token: string): Promise<void> {
  await portalSessions.remove(db, organizationId, sha256(token));
}
