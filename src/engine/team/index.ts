// The console's team: roles, members and invitations, sign-in links and codes, sessions, and the audit log.
import type { WorkspaceContext } from '../store/index.js';
import type { Actor } from './audit.js';
import { addMember, auditLog, changeRole, listMembers, lookAtPosts, removeMember, type AddMemberInput } from './members.js';
import type { TeamRole } from './roles.js';
import { redeemSignIn, requestSignIn, sessionOf, signOut, type TeamContext } from './sign-in.js';

export { actAs, type Acting } from './acting.js';
export { CLI_ACTOR, type Actor } from './audit.js';
export type { TeamMemberInfo } from './members.js';
export { TEAM_ROLES, allows, isTeamRole, type TeamPermission, type TeamRole } from './roles.js';
export { CONSOLE_PATH, TEAM_CODE_ATTEMPTS, TEAM_LIFETIMES, type Team, type TeamContext, type TeamIdentity, type TeamSession } from './sign-in.js';

/** A workspace's team, each change by an actor (a member, or the command line) and recorded in its audit log. */
export function createTeamService(ctx: WorkspaceContext & TeamContext) {
  return {
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
export function createTeamAccess(ctx: TeamContext) {
  return {
    /** Mail a one-time link and code to the address if it is on a team (the answer is the same if not). */
    requestSignIn: (email: string) => requestSignIn(ctx, email),
    /** Use a sign-in's link token, or its id and code: a new session. */
    redeem: (by: { token: string } | { signInId: string; code: string }) => redeemSignIn(ctx, by),
    session: (token: string | undefined) => sessionOf(ctx, token),
    signOut: (token: string) => signOut(ctx, token),
  };
}
export type TeamAccess = ReturnType<typeof createTeamAccess>;
