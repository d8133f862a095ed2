// Signing in to the console with what is mailed to an address: a one-time link and a six-digit code (or a link the
// command line prints for the first owner). Either proves the address (docs/security.md).
import { queueAccountMail } from '../notifications/index.js';
import type { SecretBox } from '../secrets/index.js';
import { FeedbackError, hashEmail, newCode, newId, newToken, sha256 } from '../shared/index.js';
import { auditEntries, codeFailures, type Database, type Sql, teamMembers, teamSignIns } from '../store/index.js';
import { TEAM_LIFETIMES } from './lifetimes.js';
import { teamEmail } from './roles.js';
import { type SignInFacts, startSession, type TeamSession } from './sessions.js';

/** Wrong codes a sign-in takes before it is gone. */
export const TEAM_CODE_ATTEMPTS = 5;
/** Where the console's wrong codes are counted (code_failure's scope; a portal's is its workspace). */
const CONSOLE_SCOPE = 'console';

export const CONSOLE_PATH = '/console';
/** What a sign-in's id looks like (shared/ids.ts `newId('tsi')`). */
const SIGN_IN_ID = /^tsi_[0-9a-z]{26}$/;

export interface TeamContext {
  db: Database;
  clock: () => Date;
  /** Seals what sign-in mail carries until it is sent. */
  secrets: SecretBox;
  /** This server's address as people reach it, for the links in mail; without it the mail carries the code only. */
  publicUrl: () => string | undefined;
}

/** A new sign-in for an address, in `sql`: its id, the link's token and the code, lasting `seconds`. */
export async function issueSignIn(
  sql: Sql,
  now: Date,
  email: string,
  seconds: number,
): Promise<{ id: string; token: string; code: string; expiresAt: Date }> {
  const id = newId('tsi', now.getTime());
  const token = newToken();
  const { code, codeHash } = newCode(id);
  const expiresAt = new Date(now.getTime() + seconds * 1000);
  await teamSignIns.removeExpired(sql, now);
  await teamSignIns.insert(sql, {
    id,
    email,
    tokenHash: sha256(token),
    codeHash,
    attempts: 0,
    createdAt: now,
    expiresAt,
  });
  return { id, token, code, expiresAt };
}

/** The link a sign-in's token opens, on this server's public address; null when the address is not known. */
export function signInLink(ctx: Pick<TeamContext, 'publicUrl'>, token: string): string | null {
  const base = ctx.publicUrl()?.replace(/\/+$/, '');
  return base ? `${base}${CONSOLE_PATH}/sign-in/link?token=${token}` : null;
}

/**
 * Someone asks to sign in with an address: a sign-in (a link and a code, 15 minutes) and its mail, written to the
 * outbox in one transaction, whoever the address is. The answer comes before any mail is sent, and takes the same path
 * (the same statements) for an address on a team and for any other: the mail lane sends the message only if the address
 * is on a team when it goes out. While codes for the address are paused (too many wrong ones), the mail carries the
 * link alone, and the answer says until when.
 */
export async function requestSignIn(
  ctx: TeamContext,
  rawEmail: string,
): Promise<{ signInId: string; codesPausedUntil: Date | null }> {
  const email = teamEmail(rawEmail);
  const now = ctx.clock();
  return ctx.db.transaction(async (tx) => {
    const paused = await codeFailures.pausedUntil(tx, CONSOLE_SCOPE, hashEmail(email)!, now);
    const s = await issueSignIn(tx, now, email, TEAM_LIFETIMES.mailedSignIn);
    await queueAccountMail(tx, ctx.secrets, {
      organizationId: null,
      about: s.id,
      email,
      now,
      payload: {
        kind: 'team_sign_in',
        code: paused ? null : s.code,
        link: signInLink(ctx, s.token),
        requestedAt: now.toISOString(),
        expiresAt: s.expiresAt.toISOString(),
      },
    });
    return { signInId: s.id, codesPausedUntil: paused };
  });
}

/**
 * Use a sign-in, by its link's token or by its id and code: a new session (a new token, so a session is never fixed)
 * that proves the address. A wrong code counts a try of the sign-in and a wrong code of the address (CODE_FAILURE_LIMITS:
 * past them, codes for the address are refused, right or wrong, until the window passes), and is in the audit log of
 * every workspace whose team has the address (one statement, whether or not any has it).
 */
export async function redeemSignIn(
  ctx: TeamContext,
  by: { token: string } | { signInId: string; code: string },
  facts: SignInFacts = {},
): Promise<TeamSession> {
  const now = ctx.clock();
  const code = 'token' in by ? null : by.code;
  const outcome = await ctx.db.transaction(async (tx) => {
    // An id that cannot be one (any text a form may carry, U+0000 included) is looked up as nothing.
    const row =
      'token' in by
        ? await teamSignIns.find(tx, { tokenHash: sha256(by.token) })
        : SIGN_IN_ID.test(by.signInId)
          ? await teamSignIns.find(tx, { id: by.signInId })
          : undefined;
    const used = await codeFailures.useCode(tx, CONSOLE_SCOPE, row, code, now, teamSignIns.oneTime(tx), {
      noun: 'sign-in',
      askAfterLastTry: 'a new one',
      attempts: TEAM_CODE_ATTEMPTS,
    });
    if ('refusal' in used) {
      if (!used.wrongCode || !row) return used;
      const paused = used.codesPausedUntil;
      await auditEntries.insertForTeamsOf(tx, row.email, {
        id: newId('aud', now.getTime()),
        actor: row.email,
        action: 'team.sign_in_failed',
        resourceType: 'team_member',
        resourceId: row.email,
        ip: facts.ip ?? null,
        detail: { method: 'code', reason: 'wrong code', ...(paused ? { codesPausedUntil: paused.toISOString() } : {}) },
        createdAt: now.toISOString(),
      });
      return used;
    }
    await teamMembers.markJoined(tx, used.row.email, now);
    return {
      session: await startSession(
        { ...ctx, db: tx },
        used.row.email,
        { method: code === null ? 'link' : 'code' },
        facts,
      ),
    };
  });
  if ('refusal' in outcome)
    throw new FeedbackError('ERR_VALIDATION', outcome.refusal, { retry: 'retry' in outcome && outcome.retry === true });
  return outcome.session;
}
