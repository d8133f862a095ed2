// Signing in to the console: one-time links and codes mailed to a team member's address (or printed by the command
// line for the first owner), and the sessions they start (docs/console.md).
import type { Mailer } from '../mail/index.js';
import { FeedbackError, newCode, newId, newToken, sha256, useOnce } from '../shared/index.js';
import { teamMembers, teamSessions, teamSignIns, type Database } from '../store/index.js';
import { isTeamRole, teamEmail, type TeamRole } from './roles.js';

/** How long things last, in seconds. */
export const TEAM_LIFETIMES = {
  /** A link and code mailed from the sign-in page. */
  mailedSignIn: 15 * 60,
  /** A link the command line prints, and an invitation's link. */
  issuedSignIn: 7 * 24 * 3600,
  /** A session, however active. */
  session: 7 * 24 * 3600,
  /** A session not used for this long ends. */
  sessionIdle: 12 * 3600,
};
/** Wrong codes a sign-in takes before it is gone. */
export const TEAM_CODE_ATTEMPTS = 5;
/** A session's last use is written at most this often (a page view is not a write each time). */
const TOUCH_EVERY_MS = 60_000;

export const CONSOLE_PATH = '/console';

export interface TeamContext {
  db: Database;
  clock: () => Date;
  mailer: Mailer;
  /** This server's address as people reach it, for the links in mail; without it the mail carries the code only. */
  publicUrl: () => string | undefined;
}

/** A team the signed-in person is on. */
export interface Team {
  organizationId: string;
  workspace: string;
  role: TeamRole;
  name: string | null;
}

/** Who a session stands for: an address, and every team it is on (none once removed from the last). */
export interface TeamIdentity {
  email: string;
  teams: Team[];
}

export interface TeamSession {
  /** The cookie's value; only its digest is stored. */
  token: string;
  email: string;
  expiresAt: Date;
}

/** A new sign-in for an address: its id, the link's token and the code, lasting `seconds`. */
export async function issueSignIn(ctx: TeamContext, email: string, seconds: number): Promise<{ id: string; token: string; code: string; expiresAt: Date }> {
  const now = ctx.clock();
  const id = newId('tsi', now.getTime());
  const token = newToken();
  const { code, codeHash } = newCode(id);
  const expiresAt = new Date(now.getTime() + seconds * 1000);
  await teamSignIns.removeExpired(ctx.db, now);
  await teamSignIns.insert(ctx.db, { id, email, tokenHash: sha256(token), codeHash, attempts: 0, createdAt: now, expiresAt });
  return { id, token, code, expiresAt };
}

/** The link a sign-in's token opens, on this server's public address; null when the address is not known. */
export function signInLink(ctx: Pick<TeamContext, 'publicUrl'>, token: string): string | null {
  const base = ctx.publicUrl()?.replace(/\/+$/, '');
  return base ? `${base}${CONSOLE_PATH}/sign-in/link?token=${token}` : null;
}

/**
 * Someone asks to sign in with an address: if it is on a team, it gets a link and a code (15 minutes); if not, nothing
 * is sent, and the answer is the same (a sign-in to type the code against), so the page says nothing of who is a member.
 */
export async function requestSignIn(ctx: TeamContext, rawEmail: string): Promise<{ signInId: string }> {
  const email = teamEmail(rawEmail);
  // Issued either way, so that typing a code behaves alike whether or not anyone got it.
  const s = await issueSignIn(ctx, email, TEAM_LIFETIMES.mailedSignIn);
  if ((await teamMembers.teamsOf(ctx.db, email)).length === 0) return { signInId: s.id };
  const link = signInLink(ctx, s.token);
  await ctx.mailer.send({
    about: 'a console sign-in code',
    to: [email],
    subject: `${s.code} is your feedback console code`,
    text:
      `Your code is ${s.code}.\n\n${link ? `Or open this link to sign in:\n${link}\n\n` : ''}` +
      `It works once, for ${TEAM_LIFETIMES.mailedSignIn / 60} minutes. If you did not ask to sign in, ignore this message.`,
  });
  return { signInId: s.id };
}

/** Use a sign-in, by its link's token or by its id and code: a new session (a new token, so a session is never fixed). */
export async function redeemSignIn(ctx: TeamContext, by: { token: string } | { signInId: string; code: string }): Promise<TeamSession> {
  const now = ctx.clock();
  const outcome = await ctx.db.transaction(async (tx) => {
    const row = await teamSignIns.find(tx, 'token' in by ? { tokenHash: sha256(by.token) } : { id: by.signInId });
    const used = await useOnce(row, 'token' in by ? null : by.code, now, teamSignIns.oneTime(tx), { noun: 'sign-in', askAfterLastTry: 'a new one', attempts: TEAM_CODE_ATTEMPTS });
    if ('row' in used) await teamMembers.markJoined(tx, used.row.email, now);
    return used;
  });
  if ('refusal' in outcome) throw new FeedbackError('ERR_VALIDATION', outcome.refusal, { retry: outcome.retry === true });
  return startSession(ctx, outcome.row.email, 'token' in by ? 'link' : 'code');
}

/** A new session for an address, after a sign-in (a mailed link or code, or single sign-on). */
export async function startSession(ctx: Pick<TeamContext, 'db' | 'clock'>, email: string, method: 'link' | 'code' | 'sso'): Promise<TeamSession> {
  const now = ctx.clock();
  const token = newToken();
  const expiresAt = new Date(now.getTime() + TEAM_LIFETIMES.session * 1000);
  await teamSessions.removeExpired(ctx.db, now, idleSince(now));
  await teamSessions.insert(ctx.db, { id: sha256(token), email, method, createdAt: now, seenAt: now, expiresAt });
  return { token, email, expiresAt };
}

const idleSince = (now: Date) => new Date(now.getTime() - TEAM_LIFETIMES.sessionIdle * 1000);

/** Who a session token stands for while the session lasts, with their teams now (a removal shows at once). */
export async function sessionOf(ctx: Pick<TeamContext, 'db' | 'clock'>, token: string | undefined): Promise<TeamIdentity | null> {
  if (!token || token.length > 100) return null;
  const now = ctx.clock();
  const row = await teamSessions.find(ctx.db, sha256(token), now, idleSince(now));
  if (!row) return null;
  if (now.getTime() - row.seenAt.getTime() >= TOUCH_EVERY_MS) await teamSessions.touch(ctx.db, row.id, now);
  const teams = (await teamMembers.teamsOf(ctx.db, row.email)).flatMap((m) =>
    isTeamRole(m.role) ? [{ organizationId: m.organizationId, workspace: m.workspace, role: m.role, name: m.name }] : [],
  );
  return { email: row.email, teams };
}

export async function signOut(ctx: Pick<TeamContext, 'db'>, token: string): Promise<void> {
  await teamSessions.remove(ctx.db, sha256(token));
}
