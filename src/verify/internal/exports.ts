export {
  DEFAULT_DEDUPE_RETENTION_SECONDS,
  DEFAULT_TOLERANCE_SECONDS,
  DELIVERY_HEADER,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  WEBHOOK_HEADERS,
  parseSignatureHeader,
  type HeadersLike,
  type RawBody,
  type VerifiedWebhook,
  type VerifyOptions,
} from './core.js';
export { createMemoryDedupeStore, type DedupeStore, type MemoryDedupeStoreOptions } from './dedupe.js';
export { WebhookVerificationError, type WebhookVerificationErrorCode } from './errors.js';
export type { NodeRequestLike } from './api.js';
export type * from './events.js';
