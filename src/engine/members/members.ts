// A workspace's team: who is on it with which role, invitations, role changes and removal, each recorded in the audit
// log in the transaction that makes it (docs/console.md).

import { queueAccountMail } from '../notifications/index.js';
import { FeedbackError, newId, readCursor, toPage } from '../shared/index.js';
import {
  auditEntries,
  type Sql,
  teamMembers,
  teamSessions,
  teamSignIns,
  type WorkspaceContext,
} from '../store/index.js';
import { roleOf as actorRole } from './acting.js';
import { type Actor, CLI_ACTOR, record } from './audit.js';
import { TEAM_LIFETIMES } from './lifetimes.js';
import { allows, isTeamRole, type TeamRole, teamEmail } from './roles.js';
import { CONSOLE_PATH, issueSignIn, signInLink, type TeamContext } from './sign-in.js';

export interface TeamMemberInfo {
  email: string;
  name: string | null;
  role: TeamRole;
  addedBy: string;
  createdAt: string;
  /** Null until they first signed in (an invitation not taken up yet). */
  joinedAt: string | null;
}

export type MemberContext = WorkspaceContext & TeamContext;

const info = (m: teamMembers.MemberRow): TeamMemberInfo => ({
  email: m.email,
  name: m.name,
  role: isTeamRole(m.role) ? m.role : 'viewer',
  addedBy: m.addedBy,
  createdAt: m.createdAt,
  joinedAt: m.joinedAt,
});

const roleOf = (ctx: MemberContext, actor: Actor) => actorRole(ctx.db, ctx.organizationId, actor);

/** Owners manage owners; admins manage everyone else; members and viewers manage nobody. */
function mayManage(actorRole: TeamRole | 'cli', role: TeamRole): boolean {
  return actorRole === 'cli' || allows(actorRole, role === 'owner' ? 'own' : 'manage');
}

function refuseUnless(allowed: boolean, message: string): void {
  if (!allowed) throw new FeedbackError('ERR_FORBIDDEN', message);
}

export interface AddMemberInput {
  email: string;
  role: TeamRole;
  name?: string | null;
}

/**
 * Add someone to the team (an invitation): their row, its audit entry, a one-time sign-in that lasts 7 days and, when
 * `invite` is set (the console), the invitation's mail in the outbox, all in one transaction. The sign-in is returned
 * either way (the command line prints the link). 409 when they are on the team already.
 */
export async function addMember(
  ctx: MemberContext,
  actor: Actor,
  input: AddMemberInput,
  options: { invite: boolean; workspace: string },
) {
  const email = teamEmail(input.email);
  if (!isTeamRole(input.role))
    throw new FeedbackError('ERR_VALIDATION', `The role must be one of owner, admin, member, viewer.`);
  const name = input.name?.trim() || null;
  if (name && name.length > 200) throw new FeedbackError('ERR_VALIDATION', 'The name must be at most 200 characters.');
  const now = ctx.clock();
  const signIn = await ctx.db.transaction(async (tx) => {
    refuseUnless(
      mayManage(await actorRole(tx, ctx.organizationId, actor), input.role),
      `Your role does not allow adding ${input.role === 'owner' ? 'an owner' : 'team members'}.`,
    );
    const added = await teamMembers.insert(tx, {
      id: newId('tm', now.getTime()),
      organizationId: ctx.organizationId,
      email,
      name,
      role: input.role,
      addedBy: actor.email,
      createdAt: now.toISOString(),
      joinedAt: null,
    });
    if (!added) throw new FeedbackError('ERR_CONFLICT', `${email} is on the team already.`);
    await record(tx, ctx, actor, {
      action: 'team.member_added',
      resourceType: 'team_member',
      resourceId: email,
      detail: { role: input.role },
    });
    const issued = await issueSignIn(tx, now, email, TEAM_LIFETIMES.issuedSignIn);
    const link = signInLink(ctx, issued.token);
    if (options.invite) {
      const base = ctx.publicUrl()?.replace(/\/+$/, '');
      await queueAccountMail(tx, ctx.secrets, {
        organizationId: ctx.organizationId,
        about: issued.id,
        email,
        now,
        payload: {
          kind: 'team_invitation',
          workspace: options.workspace,
          invitedBy: actor.email === CLI_ACTOR.email ? "The server's operator" : actor.email,
          role: input.role,
          link,
          consoleUrl: base ? `${base}${CONSOLE_PATH}/sign-in` : null,
          invitedAt: now.toISOString(),
          expiresAt: issued.expiresAt.toISOString(),
        },
      });
    }
    return { ...issued, link };
  });
  return { member: info((await teamMembers.find(ctx.db, ctx.organizationId, email))!), signIn };
}

export async function listMembers(ctx: WorkspaceContext): Promise<TeamMemberInfo[]> {
  return (await teamMembers.list(ctx.db, ctx.organizationId)).map(info);
}

/**
 * Change a member in one transaction: the workspace's owners locked first (so two owners demoting or removing each
 * other at the same moment run one after the other), then the member (404), the actor's role (as it is now, after any
 * change that held the lock), and `change` with both and the owners.
 */
async function changeMember(
  ctx: MemberContext,
  actor: Actor,
  email: string,
  change: (tx: Sql, row: teamMembers.MemberRow, actorRole: TeamRole | 'cli', owners: string[]) => Promise<void>,
): Promise<teamMembers.MemberRow> {
  return ctx.db.transaction(async (tx) => {
    const owners = await teamMembers.lockOwners(tx, ctx.organizationId);
    const row = await teamMembers.find(tx, ctx.organizationId, teamEmail(email));
    if (!row) throw new FeedbackError('ERR_NOT_FOUND', `${email} is not on this workspace's team.`);
    await change(tx, row, await actorRole(tx, ctx.organizationId, actor), owners);
    return row;
  });
}

/** Refuse to leave the workspace without an owner: `row` is the last of `owners`. */
function keepAnOwner(row: teamMembers.MemberRow, owners: string[]): void {
  if (row.role === 'owner' && owners.filter((e) => e !== row.email).length === 0)
    throw new FeedbackError('ERR_CONFLICT', 'A workspace keeps at least one owner: make someone else owner first.');
}

export async function changeRole(
  ctx: MemberContext,
  actor: Actor,
  email: string,
  role: TeamRole,
): Promise<TeamMemberInfo> {
  if (!isTeamRole(role))
    throw new FeedbackError('ERR_VALIDATION', 'The role must be one of owner, admin, member, viewer.');
  const row = await changeMember(ctx, actor, email, async (tx, row, actorRole, owners) => {
    refuseUnless(
      mayManage(actorRole, isTeamRole(row.role) ? row.role : 'viewer') && mayManage(actorRole, role),
      'Your role does not allow this change.',
    );
    if (role !== 'owner') keepAnOwner(row, owners);
    await teamMembers.setRole(tx, ctx.organizationId, row.email, role);
    await record(tx, ctx, actor, {
      action: 'team.role_changed',
      resourceType: 'team_member',
      resourceId: row.email,
      detail: { from: row.role, to: role },
    });
  });
  return info({ ...row, role });
}

/**
 * Take someone off the team: they see nothing of the workspace from their next request, and when it was their last
 * team, their sessions and sign-ins end at once.
 */
export async function removeMember(ctx: MemberContext, actor: Actor, email: string): Promise<void> {
  await changeMember(ctx, actor, email, async (tx, row, actorRole, owners) => {
    refuseUnless(
      mayManage(actorRole, isTeamRole(row.role) ? row.role : 'viewer'),
      'Your role does not allow removing this member.',
    );
    keepAnOwner(row, owners);
    await teamMembers.remove(tx, ctx.organizationId, row.email);
    if ((await teamMembers.teamsOf(tx, row.email)).length === 0) {
      await teamSessions.removeFor(tx, row.email);
      await teamSignIns.removeFor(tx, row.email);
    }
    await record(tx, ctx, actor, {
      action: 'team.member_removed',
      resourceType: 'team_member',
      resourceId: row.email,
      detail: { role: row.role },
    });
  });
}

/** The audit log, newest first, in keyset pages of `limit` (at most 100; 50 by default): owners and admins. */
export async function auditLog(ctx: MemberContext, actor: Actor, options: { limit?: number; cursor?: string } = {}) {
  const role = await roleOf(ctx, actor);
  refuseUnless(role === 'cli' || allows(role, 'manage'), 'Your role does not allow reading the audit log.');
  const limit = Math.min(Math.max(options.limit ?? 50, 1), 100);
  const key = readCursor(options.cursor, 'audit');
  const rows = await auditEntries.page(
    ctx.db,
    ctx.organizationId,
    limit + 1,
    key && { at: key[0] as number, id: key[1] as string },
  );
  return toPage(rows, limit, 'audit', (last) => [Date.parse(last.createdAt), last.id]);
}

/** A new look at the posts page begins after this long away (shorter pauses are the same look). */
export const LOOK_GAP_MS = 30 * 60_000;

/**
 * Note that a member looks at the posts page, and return when they looked before this look ("new since I last
 * looked" means created after it; null at their first look). Written at most once a minute.
 */
export async function lookAtPosts(ctx: MemberContext, actor: Actor): Promise<Date | null> {
  const now = ctx.clock();
  const seen = await teamMembers.postsSeen(ctx.db, ctx.organizationId, actor.email);
  if (!seen) return null;
  const away = seen.seenAt ? now.getTime() - seen.seenAt.getTime() : Infinity;
  if (away >= LOOK_GAP_MS) {
    await teamMembers.setPostsSeen(ctx.db, ctx.organizationId, actor.email, now, seen.seenAt);
    return seen.seenAt;
  }
  if (away >= 60_000) await teamMembers.setPostsSeen(ctx.db, ctx.organizationId, actor.email, now, seen.before);
  return seen.before;
}
