import type { PublicCommentInput, PublicPostInput, PublicVoteInput } from '../../schemas/interactions.js';
import { act, votedOn } from './acting.js';
import { confirmCode, requestCode } from './codes.js';
import { comment } from './comment.js';
import { chooseLocale, personLocale } from './language.js';
import type { PortalAction, PortalContext, PortalIdentity } from './participants.js';
import { filePost } from './post.js';
import { createSecret, rotateSecret, secretState } from './secret.js';
import { sessionOf, signOut } from './sessions.js';
import { signIn } from './sign-in.js';
import { castVote } from './vote.js';

/**
 * End-users taking part on a workspace's public boards: the post, vote and comment they make (each in one transaction
 * with its events, the contact's with the opt-in, its subscription with the opt-in, and the mail it causes), and on the
 * portal, its token secret, signing in with a token the workspace's backend minted, the email codes of anonymous
 * end-users, and sessions. Built once per workspace.
 */
export function createParticipation(ctx: PortalContext) {
  return {
    /** File a post on a public board; `held` keeps it `pending` (and unannounced) until it is approved. */
    post: (input: PublicPostInput, options?: { held?: boolean }) => filePost(ctx, input, options),
    /** Vote on a post: one vote per voter (user id, or email for anonymous voters) and post. */
    vote: async (input: PublicVoteInput) => (await castVote(ctx, input)).vote,
    /** Comment on a post, or reply to one of its comments. */
    comment: (input: PublicCommentInput) => comment(ctx, input),
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
    requestCode: (
      who: { email: string; name?: string | null },
      action: PortalAction,
      mail: { workspace: string; locale?: string },
    ) => requestCode(ctx, who, action, mail),
    /** Confirm a code: the action it waited with, and a session. */
    confirmCode: (codeId: string, code: string) => confirmCode(ctx, codeId, code),
    /** Do what the person asked on the portal: a post, vote or comment as above, as the person signed in. */
    act: (identity: PortalIdentity, action: PortalAction) => act(ctx, identity, action),
    votedOn: (identity: PortalIdentity, postIds: readonly string[]) => votedOn(ctx, identity, postIds),
    /** The language tag on the person's contact, if any (docs/portal.md, "Languages"). */
    locale: (identity: PortalIdentity) => personLocale(ctx, identity),
    /** Keep the language the person chose on the portal on their contact (with `contact.updated`). */
    chooseLocale: (identity: PortalIdentity, locale: string) => chooseLocale(ctx, identity, locale),
  };
}
export type Participation = ReturnType<typeof createParticipation>;
