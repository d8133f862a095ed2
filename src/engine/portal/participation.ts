import { act, hasVoted } from './acting.js';
import { confirmCode, requestCode } from './codes.js';
import type { PortalAction, PortalContext, PortalIdentity } from './participants.js';
import { createSecret, rotateSecret, secretState } from './secret.js';
import { sessionOf, signOut } from './sessions.js';
import { signIn } from './sign-in.js';

/**
 * Taking part on a workspace's portal: its token secret, signing in with a token the workspace's backend minted, the
 * email codes of anonymous end-users, sessions, and the post, vote and comment they make (each the engine's public
 * interaction, in one transaction with its events). Built once per workspace.
 */
export function createParticipation(ctx: PortalContext) {
  return {
    secret: {
      /** Create the workspace's first portal secret; shown once. */
      create: () => createSecret(ctx),
      /** Replace the portal secret; the old one keeps verifying for `graceSeconds` (24 h by default). */
      rotate: (graceSeconds?: number) => rotateSecret(ctx, graceSeconds),
      /** Whether there is one (never the secret), and until when the one it replaced still verifies. */
      state: () => secretState(ctx),
    },
    /** Exchange a token minted by the workspace's backend for a session (and identify the person). */
    signIn: (token: string) => signIn(ctx, token),
    /** The person a session token stands for, while the session lasts. */
    session: (token: string | undefined) => sessionOf(ctx, token),
    signOut: (token: string) => signOut(ctx, token),
    /** Mail a one-time code to an anonymous person; the action waits for it. */
    requestCode: (who: { email: string; name?: string | null }, action: PortalAction, mail: { workspace: string }) =>
      requestCode(ctx, who, action, mail),
    /** Confirm a code: the action it waited with, and a session. */
    confirmCode: (codeId: string, code: string) => confirmCode(ctx, codeId, code),
    /** Do what the person asked, as the engine's public interaction. */
    act: (identity: PortalIdentity, action: PortalAction) => act(ctx, identity, action),
    hasVoted: (identity: PortalIdentity, postId: string) => hasVoted(ctx, identity, postId),
  };
}
export type Participation = ReturnType<typeof createParticipation>;
