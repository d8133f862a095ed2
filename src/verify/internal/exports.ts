export type { NodeRequestLike } from './api.js';
export {
  DEFAULT_DEDUPE_RETENTION_SECONDS,
  DEFAULT_TOLERANCE_SECONDS,
  DELIVERY_HEADER,
  EVENT_HEADER,
  type HeadersLike,
  parseSignatureHeader,
  type RawBody,
  SIGNATURE_HEADER,
  type VerifiedWebhook,
  type VerifyOptions,
  WEBHOOK_HEADERS,
} from './core.js';
export { createMemoryDedupeStore, type DedupeStore, type MemoryDedupeStoreOptions } from './dedupe.js';
export { WebhookVerificationError, type WebhookVerificationErrorCode } from './errors.js';
export type * from './events.js';
