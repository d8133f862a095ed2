// Access: API keys (and the in-process cache of authenticated ones), per-key rate limits, and Idempotency-Key records.
export {
  API_KEY_PREFIX,
  KEY_CACHE_MS,
  accessRefusal,
  createKeyCache,
  createKeysService,
  hashApiKey,
  type AuthenticatedKey,
  type CreatedApiKey,
  type KeyCache,
  type KeysService,
} from './keys.js';
export { createRateLimiter, createSharedRateLimiter, rateLimited, type RateLimitState, type RateLimiter } from './limits.js';
export { IDEMPOTENCY_TTL_MS, createIdempotencyStore, requestFingerprint, type IdempotencyDecision, type IdempotencyStore } from './idempotency.js';
