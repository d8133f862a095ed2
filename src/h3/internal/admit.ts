import type { AuthenticatedKey, Caller, Engine, RateLimitState } from '../../engine/index.js';
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

function setRateLimitHeaders(headers: ResponseHeaders, state: RateLimitState, now: number): void {
  headers['ratelimit-limit'] = String(state.limit);
  headers['ratelimit-remaining'] = String(state.remaining);
  headers['ratelimit-reset'] = String(Math.max(0, Math.ceil((state.resetAt - now) / 1000)));
}

/** Key (401), then rate limit (429): what every authenticated request goes through first. */
export async function admit(engine: Engine, request: Request, headers: ResponseHeaders): Promise<Admitted | Response> {
  const token = bearerToken(request);
  const key = token ? await engine.keys.authenticate(token) : null;
  if (!key) {
    headers['www-authenticate'] = 'Bearer';
    return errorResponse(
      'ERR_UNAUTHORIZED',
      token ? 'The API key is invalid or revoked.' : 'Missing API key: send Authorization: Bearer <API_KEY>.',
      undefined,
      headers,
    );
  }
  const counted = engine.limits.consume(key.keyId, key.rateLimit);
  const rateLimit = counted instanceof Promise ? await counted : counted;
  const now = engine.clock().getTime();
  setRateLimitHeaders(headers, rateLimit, now);
  if (!rateLimit.allowed) {
    headers['retry-after'] = String(Math.max(1, Math.ceil((rateLimit.resetAt - now) / 1000)));
    return errorResponse(
      'ERR_RATE_LIMITED',
      `Rate limit of ${rateLimit.limit} requests per minute exceeded.`,
      { limit: rateLimit.limit, resetAt: new Date(rateLimit.resetAt).toISOString() },
      headers,
    );
  }
  const caller: Caller = {
    organizationId: key.organizationId,
    whoami: () => ({
      keyId: key.keyId,
      organizationId: key.organizationId,
      scope: key.scope,
      rateLimit: { limit: rateLimit.limit, remaining: rateLimit.remaining, resetAt: new Date(rateLimit.resetAt).toISOString() },
    }),
  };
  return { key, rateLimit, caller };
}
