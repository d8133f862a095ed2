export { createEngine, type Engine, type EngineOptions, type WebhookOptions, type Workspace } from './engine.js';
export type { DeliveryScheduler, RunSummary, SchedulerOptions } from './delivery/scheduler.js';
export { nonPublicReason } from './delivery/addresses.js';
export type { WebhooksService } from './services/webhooks.js';
export { IDEMPOTENCY_TTL_MS, requestFingerprint, type IdempotencyDecision, type IdempotencyStore } from './services/idempotency.js';
export { FeedbackError, parseInput, validationError } from './errors.js';
export { operationRefusal, runOperation, type Caller, type OperationRequest, type OperationResult } from './operations.js';
export { newId } from './internal/ids.js';
export { hashEmail } from './internal/email.js';
export type { ContactsService } from './services/contacts.js';
export type { BoardsService, CreateBoardInput } from './services/boards.js';
export type { EventsService, StoredEvent } from './services/events.js';
export type { PostsService } from './services/posts.js';
export type { InteractionsService } from './services/interactions.js';
export type { ChangelogService } from './services/changelog.js';
export type { TagsService, Tag } from './services/tags.js';
export { API_KEY_PREFIX, accessRefusal, hashApiKey, type AuthenticatedKey, type CreatedApiKey, type KeysService } from './services/keys.js';
export type { RateLimiter, RateLimitState } from './services/limits.js';
export {
  BILLING_STATES,
  DEFAULT_RATE_LIMIT,
  PLANS,
  PLAN_CONTACT_CAPS,
  type BillingState,
  type CreateOrganizationInput,
  type OrganizationInfo,
  type OrganizationsService,
  type Plan,
  type UpdateOrganizationInput,
} from './services/organizations.js';
export * as entities from './entities/index.js';
