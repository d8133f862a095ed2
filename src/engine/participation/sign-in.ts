import { decodeProtectedHeader, type JWTPayload, errors as jose, jwtVerify } from 'jose';
import { identify } from '../contacts/index.js';
import { FeedbackError } from '../shared/index.js';
import { PORTAL_TOKEN_MAX_SECONDS, type PortalContext, type PortalSession } from './participants.js';
import { verifyingKeys } from './secret.js';
import { startSession } from './sessions.js';

/** Clock difference tolerated between the workspace's backend and this server when checking `exp`. */
const CLOCK_TOLERANCE_SECONDS = 60;

const refuse = (message: string) => new FeedbackError('ERR_UNAUTHORIZED', message);

/** Why a token does not verify, in words for the person who minted it. */
function tokenRefusal(err: unknown, audience: string): FeedbackError {
  if (err instanceof jose.JWTExpired) return refuse('The sign-in token has expired; ask the site for a new one.');
  if (err instanceof jose.JWTClaimValidationFailed) {
    if (err.claim === 'aud')
      return refuse(`The sign-in token is for another audience; its aud must be this workspace's id (${audience}).`);
    if (err.claim === 'nbf' || err.claim === 'iat') return refuse(`The sign-in token's ${err.claim} is in the future.`);
    return refuse(`The sign-in token's ${err.claim} claim is missing or invalid (${err.reason}).`);
  }
  if (err instanceof jose.JWSSignatureVerificationFailed)
    return refuse("The sign-in token's signature does not verify with this workspace's portal secret.");
  if (err instanceof jose.JOSEError) return refuse(`The sign-in token is not a valid JWT (${err.message}).`);
  throw err;
}

/**
 * The token's claims, verified: HS256 only (checked before anything else, so `none` and HS512 are refused by name),
 * `aud` the workspace's id, `sub` and `exp` present, and `exp` at most 24 hours ahead. The previous secret is tried
 * only on a signature mismatch, and only inside its grace period.
 */
async function verifiedClaims(ctx: PortalContext, token: string, now: Date): Promise<JWTPayload> {
  let alg: unknown;
  try {
    alg = decodeProtectedHeader(token).alg;
  } catch {
    throw refuse('The sign-in token is not a JWT.');
  }
  if (alg !== 'HS256') throw refuse(`The sign-in token is signed with ${String(alg)}; this portal accepts only HS256.`);
  let lastError: unknown;
  for (const key of await verifyingKeys(ctx, now)) {
    try {
      const options = {
        algorithms: ['HS256'],
        audience: ctx.organizationId,
        requiredClaims: ['sub', 'exp'],
        currentDate: now,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      };
      const { payload } = await jwtVerify(token, key, options);
      if (payload.exp! > now.getTime() / 1000 + PORTAL_TOKEN_MAX_SECONDS + CLOCK_TOLERANCE_SECONDS)
        throw refuse(
          'The sign-in token expires more than 24 hours ahead; mint short-lived tokens (exp at most 24 hours away).',
        );
      return payload;
    } catch (err) {
      if (err instanceof FeedbackError) throw err;
      lastError = err;
      // Only a signature that does not match may be the other secret's; any other fault is the token's.
      if (!(err instanceof jose.JWSSignatureVerificationFailed)) break;
    }
  }
  throw tokenRefusal(lastError, ctx.organizationId);
}

/**
 * Exchange a token minted by the workspace's backend for a session, running identify exactly as
 * `POST /v1/contacts/identify` does (source `identify`, consentBasis `sdk_identify`, the same events).
 */
export async function signIn(ctx: PortalContext, token: string): Promise<PortalSession> {
  const now = ctx.clock();
  const { sub, email, name, plan, locale } = (await verifiedClaims(ctx, token, now)) as JWTPayload &
    Record<string, unknown>;
  if (typeof email !== 'string') throw refuse('The sign-in token has no email claim.');
  let contact;
  try {
    ({ contact } = await identify(ctx, {
      externalUserId: sub,
      email,
      ...(name !== undefined ? { name } : {}),
      ...(plan !== undefined ? { plan } : {}),
      // The person's language (docs/portal.md): the portal and its mail speak it from now on.
      ...(locale !== undefined ? { locale } : {}),
    }));
  } catch (err) {
    if (err instanceof FeedbackError && err.code === 'ERR_VALIDATION')
      throw refuse(`The sign-in token's claims are not a valid identity: ${err.message}`);
    throw err;
  }
  return startSession(ctx, { verified: true, externalUserId: contact.externalUserId, email, name: contact.name }, now);
}
