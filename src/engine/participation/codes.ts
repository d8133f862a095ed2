import { queueAccountMail } from '../notifications/index.js';
import { codesPausedMessage, FeedbackError, hashEmail, newCode, newId } from '../shared/index.js';
import { codeFailures, portalCodes } from '../store/index.js';
import {
  PORTAL_CODE,
  type PortalAction,
  type PortalContext,
  type PortalSession,
  portalSettings,
} from './participants.js';
import { removeExpired, startSession } from './sessions.js';

/**
 * An anonymous end-user asks to do something: their address gets a one-time code (its mail written to the outbox with
 * the code row, sent by the scheduler), and the action waits for it. Refused when the workspace takes part only with
 * sign-in, and while codes for the address are paused here (too many wrong ones: CODE_FAILURE_LIMITS). Returns the
 * code's id (the page that asks for it).
 */
export async function requestCode(
  ctx: PortalContext,
  who: { email: string; name?: string | null },
  action: PortalAction,
  mail: { workspace: string; locale?: string },
): Promise<{ codeId: string }> {
  if ((await portalSettings(ctx)).portalVerifiedOnly)
    throw new FeedbackError('ERR_FORBIDDEN', `${mail.workspace} takes feedback only from signed-in users.`);
  const now = ctx.clock();
  const id = newId('pcode', now.getTime());
  const { code, codeHash } = newCode(id, PORTAL_CODE.digits);
  const expiresAt = new Date(now.getTime() + PORTAL_CODE.seconds * 1000);
  await removeExpired(ctx, now);
  await ctx.db.transaction(async (tx) => {
    const paused = await codeFailures.pausedUntil(tx, ctx.organizationId, hashEmail(who.email)!, now);
    if (paused)
      throw new FeedbackError('ERR_RATE_LIMITED', codesPausedMessage(paused), { resetAt: paused.toISOString() });
    await portalCodes.insert(tx, {
      id,
      organizationId: ctx.organizationId,
      email: who.email,
      name: who.name ?? null,
      codeHash,
      action: JSON.stringify(action),
      attempts: 0,
      createdAt: now,
      expiresAt,
    });
    await queueAccountMail(tx, ctx.secrets, {
      organizationId: ctx.organizationId,
      about: id,
      email: who.email,
      now,
      payload: {
        kind: 'portal_code',
        workspace: mail.workspace,
        // The language of the page that asked: the mail speaks it too.
        ...(mail.locale ? { locale: mail.locale } : {}),
        code,
        requestedAt: now.toISOString(),
        expiresAt: expiresAt.toISOString(),
      },
    });
  });
  return { codeId: id };
}

/**
 * Confirm a code: the action it waits with and a session for the address (so the next action needs no code). A wrong
 * code counts a try; after five, or once expired, the code is gone and a new one must be asked for. Wrong codes of an
 * address are counted across its codes too, and past CODE_FAILURE_LIMITS every code for it is refused, right or wrong,
 * until the window passes.
 */
export async function confirmCode(
  ctx: PortalContext,
  codeId: string,
  code: string,
): Promise<{ session: PortalSession; action: PortalAction }> {
  const now = ctx.clock();
  const outcome = await ctx.db.transaction(async (tx) => {
    const row = await portalCodes.find(tx, ctx.organizationId, codeId);
    return codeFailures.useCode(tx, ctx.organizationId, row, code, now, portalCodes.oneTime(tx), {
      noun: 'code',
      askAfterLastTry: 'a new code',
      attempts: PORTAL_CODE.attempts,
    });
  });
  if ('refusal' in outcome)
    throw new FeedbackError('ERR_VALIDATION', outcome.refusal, {
      retry: 'retry' in outcome && outcome.retry === true,
      reason: outcome.reason,
      ...(outcome.left !== undefined ? { left: outcome.left } : {}),
      ...(outcome.codesPausedUntil ? { pausedUntil: outcome.codesPausedUntil.toISOString() } : {}),
    });
  const { row } = outcome;
  const session = await startSession(
    ctx,
    { verified: false, externalUserId: null, email: row.email, name: row.name },
    now,
  );
  return { session, action: JSON.parse(row.action) as PortalAction };
}
