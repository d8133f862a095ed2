// The engine's one door: other faces import the engine from here and nowhere else (enforced by `npm run lint:layers`, .dependency-cruiser.cjs).
export { MAIL_RETENTION_DAYS, createEngine, type Engine, type EngineOptions, type MailOptions, type WebhookOptions, type Workspace } from './engine.js';
export { DEFAULT_TIMEOUTS, type DatabaseTimeouts } from './orm.js';
export { READ_WHILE_COUNTING, operationRefusal, runOperation, type Caller, type OperationRequest, type OperationResult } from './operations.js';
export { UNAVAILABLE_RETRY_AFTER_SECONDS, isDatabaseUnavailable, type CheckResult, type Readiness } from './health.js';
export { MAIL_RETRY_SCHEDULE_MS, type AttemptReport, type DeliveryScheduler, type MailSummary, type RunSummary, type SchedulerOptions } from './delivery/index.js';
export {
  BILLING_STATES,
  DEFAULT_RATE_LIMIT,
  FeedbackError,
  MAIL_PAGES,
  PLANS,
  PLAN_CONTACT_CAPS,
  PORTAL_PATH,
  RESERVED_HANDLES,
  errorLine,
  hashEmail,
  logErrorLine,
  logToLogger,
  newId,
  nonPublicReason,
  parseInput,
  pathsOf,
  validationError,
  type BillingState,
  type Logger,
  type Paths,
  type Plan,
} from './shared/index.js';
export { SECRET_KEY_ENV, SECRET_KEY_FALLBACKS_ENV, SecretKeyError, generateSecretKey, secretKeyFileOf, type ResealReport, type SecretKeys } from './secrets/index.js';
export {
  API_KEY_PREFIX,
  IDEMPOTENCY_TTL_MS,
  KEY_CACHE_MS,
  accessRefusal,
  rateLimited,
  hashApiKey,
  requestFingerprint,
  type AuthenticatedKey,
  type CreatedApiKey,
  type IdempotencyDecision,
  type IdempotencyStore,
  type KeysService,
  type RateLimitState,
  type RateLimiter,
} from './access/index.js';
export type { ApiKeyInfo } from './store/index.js';
export { HANDLE_PATTERN, contrastOnWhite, type CreateOrganizationInput, type OrganizationInfo, type OrganizationsService, type UpdateOrganizationInput } from './organizations/index.js';
export type { ContactsService } from './contacts/index.js';
export type { BoardsService, CreateBoardInput } from './boards/index.js';
export type { EventsService, StoredEvent } from './events/index.js';
export type { PostsService, Tag, TagsService } from './posts/index.js';
export type { InteractionsService } from './interactions/index.js';
export { CHANGELOG_POSTS_MAX, type ChangelogEdit, type ChangelogService } from './changelog/index.js';
export type { Administration, WorkspaceSettings } from './administration/index.js';
export { CONTACT_ACTIVITY_LIMIT, type ContactActivity } from './contacts/index.js';
export type { WebhooksService } from './webhooks/index.js';
export type { PrivacyService } from './privacy/index.js';
export {
  DEFAULT_ROTATION_GRACE_SECONDS,
  PORTAL_CODE,
  PORTAL_COMMENT_LIMIT,
  PORTAL_SESSION_SECONDS,
  PORTAL_SORTS,
  PORTAL_TOKEN_MAX_SECONDS,
  ROADMAP_STATUSES,
  type Participation,
  type PortalAction,
  type PortalActionResult,
  type PortalBoard,
  type PortalChangelogEntry,
  type PortalComment,
  type PortalIdentity,
  type PortalPost,
  type PortalPostsQuery,
  type PortalReader,
  type PortalSession,
  type PortalSort,
} from './portal/index.js';
export {
  CLI_ACTOR,
  CONSOLE_PATH,
  SSO_CALLBACK_PATH,
  SSO_PENDING_SECONDS,
  TEAM_CODE_ATTEMPTS,
  TEAM_LIFETIMES,
  TEAM_ROLES,
  allows,
  isTeamRole,
  type Actor,
  type Team,
  type TeamAccess,
  type TeamIdentity,
  type TeamMemberInfo,
  type TeamPermission,
  type TeamRole,
  type TeamService,
  type TeamSession,
  type SsoInput,
  type SsoSettings,
  type SsoDomainState,
  type SignInFacts,
  DOMAIN_RECORD_LABEL,
} from './team/index.js';
export {
  BULK_LIMIT,
  ROADMAP_LIMIT,
  TRIAGE_POST_LIMITS,
  TRIAGE_SORTS,
  type BulkAction,
  type Impact,
  type TriageActions,
  type TriageComment,
  type TriagePost,
  type TriagePostDetail,
  type TriageQuery,
  type TriageReader,
  type TriageSort,
  type TriageVoter,
} from './triage/index.js';
export {
  DIGESTS,
  DIGEST_AFTER,
  MAIL_PURPOSES,
  MAIL_TOKEN_DAYS,
  MAX_FOLLOWED_POSTS,
  mayEmail,
  type Digest,
  type MailFacts,
  type MailPreferences,
  type MailPreferencesChange,
  type MailPurpose,
  type MailRecipient,
  type MailTokens,
  type NotificationsService,
} from './notifications/index.js';
export { entities } from './store/index.js';
