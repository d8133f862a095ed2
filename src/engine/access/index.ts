// Access: API keys (and the in-process cache of authenticated ones), per-key rate limits, and Idempotency-Key records.

export { createKeyActions } from './actions.js';
export {
  createIdempotencyStore,
  IDEMPOTENCY_TTL_MS,
  type IdempotencyDecision,
  type IdempotencyStore,
  requestFingerprint,
} from './idempotency.js';
export {
  API_KEY_PREFIX,
  type AuthenticatedKey,
  accessRefusal,
  type CreatedApiKey,
  createKeyCache,
  createKeysService,
  hashApiKey,
  KEY_CACHE_MS,
  KEY_OPERATIONS,
  type KeyCache,
  type KeysService,
} from './keys.js';
export {
  createRateLimiter,
  createSharedRateLimiter,
  type RateLimiter,
  type RateLimitState,
  rateLimited,
} from './limits.js';
