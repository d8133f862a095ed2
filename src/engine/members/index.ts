// The console's team members (the people of a workspace's team, as the console knows them): roles, members and invitations, signing in (mailed codes and links, single sign-on), sessions and
// what proved them, and the audit log.
import { consoleCounts, type WorkspaceContext } from '../store/index.js';
import type { Actor } from './audit.js';
import { attestDomains, type SsoContext, verifyDomain } from './domains.js';
import {
  type AddMemberInput,
  addMember,
  auditLog,
  changeRole,
  listMembers,
  lookAtPosts,
  removeMember,
} from './members.js';
import { eraseTeamPerson, exportTeamPerson } from './person.js';
import type { TeamRole } from './roles.js';
import { type SignInFacts, sessionOf, signOut } from './sessions.js';
import { redeemSignIn, requestSignIn } from './sign-in.js';
import {
  configureSso,
  finishSso,
  removeSso,
  requireSso,
  type SsoInput,
  type SsoStart,
  ssoCallbackUrl,
  ssoSettings,
  startSso,
} from './sso.js';

export { type Acting, actAs } from './acting.js';
export { type Actor, type AuditInput, auditOf, CLI_ACTOR } from './audit.js';
export { DOMAIN_RECORD_LABEL, type ResolveTxt, type SsoContext, type SsoDomainState } from './domains.js';
export { TEAM_LIFETIMES } from './lifetimes.js';
export type { TeamMemberInfo } from './members.js';
export { allows, isTeamRole, TEAM_ROLES, type TeamPermission, type TeamRole } from './roles.js';
export type { Proof, SignInFacts, Team, TeamIdentity, TeamSession } from './sessions.js';
export { CONSOLE_PATH, TEAM_CODE_ATTEMPTS, type TeamContext } from './sign-in.js';
export { SSO_CALLBACK_PATH, SSO_PENDING_SECONDS, type SsoInput, type SsoSettings, type SsoStart } from './sso.js';

/** A workspace's team, each change by an actor (a member, or the command line) and recorded in its audit log. */
export function createTeamService(ctx: WorkspaceContext & SsoContext) {
  return {
    /** The workspace's single sign-on (never its secret) with its domains and their verification, or null. */
    sso: () => ssoSettings(ctx),
    /** Set up or replace single sign-on (owners and admins). */
    configureSso: (actor: Actor, input: SsoInput) => configureSso(ctx, actor, input),
    removeSso: (actor: Actor) => removeSso(ctx, actor),
    /** Require single sign-on for the people of the verified domains here (no mailed codes for them), or stop. */
    requireSso: (actor: Actor, required: boolean) => requireSso(ctx, actor, required),
    /** Check a domain's DNS TXT record and mark it verified for this workspace when it holds the token. */
    verifyDomain: (actor: Actor, domain: string) => verifyDomain(ctx, actor, domain),
    /** The operator's word that domains are this workspace's (the command line only). */
    attestDomains: (actor: Actor, domains: readonly string[]) => attestDomains(ctx, actor, domains),
    list: () => listMembers(ctx),
    /** Add someone (an invitation mailed with `invite`); returns the member and their one-time sign-in link. */
    add: (actor: Actor, input: AddMemberInput, options: { invite: boolean; workspace: string }) =>
      addMember(ctx, actor, input, options),
    changeRole: (actor: Actor, email: string, role: TeamRole) => changeRole(ctx, actor, email, role),
    remove: (actor: Actor, email: string) => removeMember(ctx, actor, email),
    /** Note a look at the posts page; when the member looked before it (null at their first look). */
    lookAtPosts: (actor: Actor) => lookAtPosts(ctx, actor),
    auditLog: (actor: Actor, options?: { limit?: number; cursor?: string }) => auditLog(ctx, actor, options),
    /** What the console's navigation counts: held posts, changelog drafts, webhooks off, keys, members. */
    sectionCounts: () => consoleCounts.sectionCounts(ctx.db, ctx.organizationId),
  };
}
export type SectionCounts = consoleCounts.SectionCounts;
export type TeamService = ReturnType<typeof createTeamService>;

/** Signing in to the console, across workspaces: a person is one address on any number of teams. */
export function createTeamAccess(ctx: SsoContext) {
  return {
    /**
     * Start single sign-on: from a workspace's own sign-in page (`organizationId`), or from the shared one by the address's
     * verified domain. Where to send the browser, and what it keeps. The provider sends it back to the public address's
     * /console/sso/callback (the request's origin without one).
     */
    startSso: (from: SsoStart, requestOrigin: string) => startSso(ctx, from, requestOrigin),
    /** The redirect URI a provider must have registered (the public address's, else the request's origin's). */
    ssoCallbackUrl: (requestOrigin: string) => ssoCallbackUrl(ctx, requestOrigin),
    /** Finish it with the provider's answer and what the browser kept: a new session that opens that workspace. */
    finishSso: (pending: string | undefined, callbackUrl: URL, facts?: SignInFacts) =>
      finishSso(ctx, pending, callbackUrl, facts),
    /** Mail a one-time link and code to the address if it is on a team (the answer is the same if not). */
    requestSignIn: (email: string) => requestSignIn(ctx, email),
    /** Use a sign-in's link token, or its id and code: a new session that proves the address. */
    redeem: (by: { token: string } | { signInId: string; code: string }, facts?: SignInFacts) =>
      redeemSignIn(ctx, by, facts),
    session: (token: string | undefined) => sessionOf(ctx, token),
    /** A team member's data request: everything the console keeps that names the address, in every workspace. */
    exportPerson: (email: string) => exportTeamPerson(ctx, email),
    /** ... and its erasure (a pseudonym where they are named; off every team). */
    erasePerson: (email: string) => eraseTeamPerson(ctx, email),
    signOut: (token: string, facts?: SignInFacts) => signOut(ctx, token, facts),
  };
}
export type TeamAccess = ReturnType<typeof createTeamAccess>;
