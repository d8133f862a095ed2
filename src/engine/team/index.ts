// The console's team: roles, members and invitations, sign-in links and codes, sessions, and the audit log.
import type { WorkspaceContext } from '../store/index.js';
import type { Actor } from './audit.js';
import { addMember, auditLog, changeRole, listMembers, lookAtPosts, removeMember, type AddMemberInput } from './members.js';
import type { TeamRole } from './roles.js';
import { eraseTeamPerson, exportTeamPerson } from './person.js';
import { redeemSignIn, requestSignIn, sessionOf, signOut } from './sign-in.js';
import { configureSso, finishSso, removeSso, ssoCallbackUrl, ssoSettings, startSso, type SsoContext, type SsoInput } from './sso.js';

export { actAs, type Acting } from './acting.js';
export { CLI_ACTOR, type Actor } from './audit.js';
export type { TeamMemberInfo } from './members.js';
export { TEAM_ROLES, allows, isTeamRole, type TeamPermission, type TeamRole } from './roles.js';
export { SSO_CALLBACK_PATH, SSO_PENDING_SECONDS, type SsoInput, type SsoSettings } from './sso.js';
export { CONSOLE_PATH, TEAM_CODE_ATTEMPTS, TEAM_LIFETIMES, type Team, type TeamContext, type TeamIdentity, type TeamSession } from './sign-in.js';

/** A workspace's team, each change by an actor (a member, or the command line) and recorded in its audit log. */
export function createTeamService(ctx: WorkspaceContext & SsoContext) {
  return {
    /** The workspace's single sign-on (never its secret), or null. */
    sso: () => ssoSettings(ctx),
    /** Set up or replace single sign-on (owners and admins). */
    configureSso: (actor: Actor, input: SsoInput) => configureSso(ctx, actor, input),
    removeSso: (actor: Actor) => removeSso(ctx, actor),
    list: () => listMembers(ctx),
    /** Add someone (an invitation mailed with `invite`); returns the member and their one-time sign-in link. */
    add: (actor: Actor, input: AddMemberInput, options: { invite: boolean; workspace: string }) => addMember(ctx, actor, input, options),
    changeRole: (actor: Actor, email: string, role: TeamRole) => changeRole(ctx, actor, email, role),
    remove: (actor: Actor, email: string) => removeMember(ctx, actor, email),
    /** Note a look at the posts page; when the member looked before it (null at their first look). */
    lookAtPosts: (actor: Actor) => lookAtPosts(ctx, actor),
    auditLog: (actor: Actor, options?: { limit?: number; cursor?: string }) => auditLog(ctx, actor, options),
  };
}
export type TeamService = ReturnType<typeof createTeamService>;

/** Signing in to the console, across workspaces: a person is one address on any number of teams. */
export function createTeamAccess(ctx: SsoContext) {
  return {
    /**
     * Start single sign-on for an address whose domain a workspace signs in with: where to send the browser, and what it
     * keeps. The provider sends it back to the public address's /console/sso/callback (the request's origin without one).
     */
    startSso: (email: string, requestOrigin: string) => startSso(ctx, email, requestOrigin),
    /** The redirect URI a provider must have registered (the public address's, else the request's origin's). */
    ssoCallbackUrl: (requestOrigin: string) => ssoCallbackUrl(ctx, requestOrigin),
    /** Finish it with the provider's answer and what the browser kept: a new session. */
    finishSso: (pending: string | undefined, callbackUrl: URL) => finishSso(ctx, pending, callbackUrl),
    /** Mail a one-time link and code to the address if it is on a team (the answer is the same if not). */
    requestSignIn: (email: string) => requestSignIn(ctx, email),
    /** Use a sign-in's link token, or its id and code: a new session. */
    redeem: (by: { token: string } | { signInId: string; code: string }) => redeemSignIn(ctx, by),
    session: (token: string | undefined) => sessionOf(ctx, token),
    /** A team member's data request: everything the console keeps that names the address, in every workspace. */
    exportPerson: (email: string) => exportTeamPerson(ctx, email),
    /** ... and its erasure (a pseudonym where they are named; off every team). */
    erasePerson: (email: string) => eraseTeamPerson(ctx, email),
    signOut: (token: string) => signOut(ctx, token),
  };
}
export type TeamAccess = ReturnType<typeof createTeamAccess>;
