// The engine's one door: other faces import the engine from here and nowhere else (enforced by `npm run lint:layers`, .dependency-cruiser.cjs).
export { MAIL_RETENTION_DAYS, createEngine, type Engine, type EngineOptions, type MailOptions, type WebhookOptions, type Workspace } from './engine.js';
export { DEFAULT_TIMEOUTS, type DatabaseTimeouts } from './orm.js';
export type { AttemptReport, DeliveryScheduler, MailSummary, RunSummary, SchedulerOptions } from './delivery/scheduler.js';
export { MAIL_RETRY_SCHEDULE_MS } from './delivery/mail-lane.js';
export { nonPublicReason } from './shared/addresses.js';
export { FeedbackError, parseInput, validationError } from './errors.js';
export { operationRefusal, runOperation, type Caller, type OperationRequest, type OperationResult } from './operations.js';
export { newId } from './shared/ids.js';
export { errorLine, logErrorLine, logToLogger, type Logger } from './log.js';
export { UNAVAILABLE_RETRY_AFTER_SECONDS, isDatabaseUnavailable, type CheckResult, type Readiness } from './health.js';
export {
  SECRET_KEY_ENV,
  SECRET_KEY_FALLBACKS_ENV,
  SecretKeyError,
  generateSecretKey,
  secretKeyFileOf,
  type SecretKeys,
} from './secrets.js';
export type { ResealReport } from './sealing.js';
export { hashEmail } from './shared/email.js';
export { IDEMPOTENCY_TTL_MS, requestFingerprint, type IdempotencyDecision, type IdempotencyStore } from './idempotency.js';
export type { ContactsService } from './contacts/index.js';
export type { BoardsService, CreateBoardInput } from './boards.js';
export type { EventsService, StoredEvent } from './events.js';
export type { PostsService } from './posts.js';
export type { InteractionsService } from './interactions.js';
export type { ChangelogService } from './changelog.js';
export {
  PORTAL_COMMENT_LIMIT,
  PORTAL_SORTS,
  ROADMAP_STATUSES,
  type PortalBoard,
  type PortalChangelogEntry,
  type PortalComment,
  type PortalPost,
  type PortalPostsQuery,
  type PortalReader,
  type PortalSort,
} from './portal.js';
export {
  DEFAULT_ROTATION_GRACE_SECONDS,
  PORTAL_CODE,
  PORTAL_SESSION_SECONDS,
  PORTAL_TOKEN_MAX_SECONDS,
  type Participation,
  type PortalAction,
  type PortalActionResult,
  type PortalIdentity,
  type PortalSession,
} from './participation.js';
export type { TagsService, Tag } from './tags.js';
export type { WebhooksService } from './webhooks/index.js';
export type { ApiKeyInfo } from './store/api-keys.js';
export { API_KEY_PREFIX, KEY_CACHE_MS, accessRefusal, hashApiKey, type AuthenticatedKey, type CreatedApiKey, type KeysService } from './keys.js';
export type { RateLimiter, RateLimitState } from './limits.js';
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
  HANDLE_PATTERN,
} from './organizations.js';
export * as entities from './entities/index.js';
export { MAIL_PURPOSES, mayEmail, type MailFacts, type MailPurpose } from './notifications/consent.js';
export { MAIL_PAGES, PORTAL_PATH, RESERVED_HANDLES, pathsOf, type Paths } from './shared/portal-paths.js';
export { DIGESTS, MAX_FOLLOWED_POSTS, type Digest, type MailPreferences, type MailPreferencesChange, type NotificationsService } from './notifications/service.js';
export { MAIL_TOKEN_DAYS, type MailRecipient, type MailTokens } from './notifications/tokens.js';
export { DIGEST_AFTER } from './notifications/outbox.js';
export type { PrivacyService } from './privacy/service.js';
