import {
  type AuthenticatedKey,
  type Caller,
  type Engine,
  type RateLimitState,
  rateLimited,
} from '../../engine/index.js';
import { errorResponse, type ResponseHeaders } from './respond.js';

/** A request that passed the key (401) and rate-limit (429) checks. */
export interface Admitted {
  key: AuthenticatedKey;
  rateLimit: RateLimitState;
  /** The key's workspace, and what `whoami` answers it. */
  caller: Caller;
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(request: Request): string | null {
  const header = request.headers.get('authorization');
  if (!header) return null;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  return match ? match[1]! : null;
}

/** The request's key, or its 401: what every authenticated request goes through first. */
export async function authenticate(
  engine: Engine,
  request: Request,
  headers: ResponseHeaders,
): Promise<AuthenticatedKey | Response> {
  const token = bearerToken(request);
  const key = token ? await engine.keys.authenticate(token) : null;
  if (key) return key;
  headers['www-authenticate'] = 'Bearer';
  return errorResponse(
    'ERR_UNAUTHORIZED',
    token ? 'The API key is invalid or revoked.' : 'Missing API key: send Authorization: Bearer <API_KEY>.',
    undefined,
    headers,
  );
}

/**
 * The request's answer to its rate-limit count: the `RateLimit-*` headers every answer carries, and the 429 of a
 * request over its key's budget, or the admitted request.
 */
export function admission(
  engine: Engine,
  key: AuthenticatedKey,
  rateLimit: RateLimitState,
  headers: ResponseHeaders,
): Admitted | Response {
  const now = engine.clock().getTime();
  headers['ratelimit-limit'] = String(rateLimit.limit);
  headers['ratelimit-remaining'] = String(rateLimit.remaining);
  headers['ratelimit-reset'] = String(Math.max(0, Math.ceil((rateLimit.resetAt - now) / 1000)));
  if (!rateLimit.allowed) {
    headers['retry-after'] = String(Math.max(1, Math.ceil((rateLimit.resetAt - now) / 1000)));
    const refusal = rateLimited(rateLimit);
    return errorResponse(refusal.code, refusal.message, refusal.details, headers);
  }
  return { key, rateLimit, caller: callerOf(key, rateLimit) };
}

/** The key's workspace, and what `whoami` answers it. */
export function callerOf(key: AuthenticatedKey, rateLimit: RateLimitState): Caller {
  return {
    organizationId: key.organizationId,
    whoami: () => ({
      keyId: key.keyId,
      organizationId: key.organizationId,
      scope: key.scope,
      rateLimit: {
        limit: rateLimit.limit,
        remaining: rateLimit.remaining,
        resetAt: new Date(rateLimit.resetAt).toISOString(),
      },
    }),
  };
}
