// A team member's own data requests (docs/console.md): everything the console keeps that names them, in every
// workspace, and its erasure. Their posts' triage stays (statuses, merges, official replies, notes): what they did is
// the workspace's record; who did it is replaced by a pseudonym.
import { FeedbackError, sha256 } from '../shared/index.js';
import { auditEntries, comments, postNotes, teamMembers, teamSessions, teamSignIns } from '../store/index.js';
import { teamEmail } from './roles.js';
import type { TeamContext } from './sign-in.js';

/** The official replies the member signed: their replies, and the public notes of their status changes. */
const signedReplies = (email: string, entries: auditEntries.AuditRow[]) =>
  entries.flatMap((e) => {
    if (e.actor !== email) return [];
    if (e.action === 'comment.official_reply' && e.resourceId) return [e.resourceId];
    return typeof e.detail.replyId === 'string' ? [e.detail.replyId] : [];
  });

/** What stands for an erased member where they are named: the same for one address everywhere, and not reversible. */
export const erasedAlias = (email: string) => `erased-member:${sha256(`team-member:${email}`).slice(0, 12)}`;

/** Every team they are on, every audit entry that names them, their internal notes and their official replies. */
export async function exportTeamPerson(ctx: Pick<TeamContext, 'db'>, rawEmail: string) {
  const email = teamEmail(rawEmail);
  const [teams, audit, notes] = await Promise.all([
    teamMembers.teamsOf(ctx.db, email),
    auditEntries.naming(ctx.db, email),
    postNotes.byAuthor(ctx.db, email),
  ]);
  const replyIds = signedReplies(email, audit);
  return {
    email,
    teams: teams.map((t) => ({
      organizationId: t.organizationId,
      workspace: t.workspace,
      role: t.role,
      name: t.name,
      addedBy: t.addedBy,
      createdAt: t.createdAt,
      joinedAt: t.joinedAt,
    })),
    auditEntries: audit,
    internalNotes: notes,
    officialReplies: await comments.official(ctx.db, replyIds),
  };
}

/**
 * Erase a team member everywhere, in one transaction: off every team (their sessions and sign-ins end), a pseudonym
 * where the audit log and their notes name them (their client addresses dropped), their name off their official
 * replies (which stay, as the team's). Refused while they are a workspace's last owner.
 */
export async function eraseTeamPerson(ctx: Pick<TeamContext, 'db'>, rawEmail: string) {
  const email = teamEmail(rawEmail);
  const alias = erasedAlias(email);
  return ctx.db.transaction(async (tx) => {
    for (const team of await teamMembers.teamsOf(tx, email)) {
      if (team.role === 'owner' && (await teamMembers.lockOwners(tx, team.organizationId)).length <= 1)
        throw new FeedbackError(
          'ERR_CONFLICT',
          `${email} is the last owner of ${team.workspace} (${team.organizationId}): make someone else owner first.`,
        );
    }
    const replyIds = signedReplies(email, await auditEntries.naming(tx, email));
    const report = {
      email,
      alias,
      teams: await teamMembers.removeEverywhere(tx, email),
      officialReplies: await comments.unsign(tx, replyIds),
      auditEntries: await auditEntries.pseudonymize(tx, email, alias),
      internalNotes: await postNotes.renameAuthor(tx, email, alias),
    };
    await teamSessions.removeFor(tx, email);
    await teamSignIns.removeFor(tx, email);
    return report;
  });
}
