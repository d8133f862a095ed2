import { FeedbackError, newCode, newId, useOnce } from '../shared/index.js';
import { portalCodes } from '../store/index.js';
import { PORTAL_CODE, portalSettings, type PortalAction, type PortalContext, type PortalSession } from './participants.js';
import { removeExpired, startSession } from './sessions.js';

/**
 * An anonymous end-user asks to do something: their address gets a one-time code, and the action waits for it.
 * Refused when the workspace takes part only with sign-in. Returns the code's id (the page that asks for it).
 */
export async function requestCode(
  ctx: PortalContext,
  who: { email: string; name?: string | null },
  action: PortalAction,
  mail: { workspace: string },
): Promise<{ codeId: string }> {
  if ((await portalSettings(ctx)).portalVerifiedOnly) throw new FeedbackError('ERR_FORBIDDEN', `${mail.workspace} takes feedback only from signed-in users.`);
  const now = ctx.clock();
  const id = newId('pcode', now.getTime());
  const { code, codeHash } = newCode(id, PORTAL_CODE.digits);
  await removeExpired(ctx, now);
  await portalCodes.insert(ctx.db, {
    id,
    organizationId: ctx.organizationId,
    email: who.email,
    name: who.name ?? null,
    codeHash,
    action: JSON.stringify(action),
    attempts: 0,
    createdAt: now,
    expiresAt: new Date(now.getTime() + PORTAL_CODE.seconds * 1000),
  });
  await ctx.mailer.send({
    about: 'a sign-in code',
    to: [who.email],
    subject: `${code} is your code for ${mail.workspace}`,
    text:
      `Your code is ${code}.\n\nEnter it on ${mail.workspace}'s feedback page to confirm your email address. ` +
      `It works once, for ${PORTAL_CODE.seconds / 60} minutes.\n\nIf you did not ask for it, ignore this message: nothing happens without the code.`,
  });
  return { codeId: id };
}

/**
 * Confirm a code: the action it waits with and a session for the address (so the next action needs no code). A wrong
 * code counts a try; after five, or once expired, the code is gone and a new one must be asked for.
 */
export async function confirmCode(ctx: PortalContext, codeId: string, code: string): Promise<{ session: PortalSession; action: PortalAction }> {
  const now = ctx.clock();
  const outcome = await ctx.db.transaction(async (tx) =>
    useOnce(await portalCodes.find(tx, ctx.organizationId, codeId), code, now, portalCodes.oneTime(tx), { noun: 'code', askAfterLastTry: 'a new code', attempts: PORTAL_CODE.attempts }),
  );
  if ('refusal' in outcome) throw new FeedbackError('ERR_VALIDATION', outcome.refusal, { retry: outcome.retry === true });
  const { row } = outcome;
  const session = await startSession(ctx, { verified: false, externalUserId: null, email: row.email, name: row.name }, now);
  return { session, action: JSON.parse(row.action) as PortalAction };
}
