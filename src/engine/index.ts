// The engine's one door: other faces import the engine from here and nowhere else (enforced by `npm run lint:layers`, .dependency-cruiser.cjs).

export {
  API_KEY_PREFIX,
  type AuthenticatedKey,
  accessRefusal,
  type CreatedApiKey,
  hashApiKey,
  IDEMPOTENCY_TTL_MS,
  type IdempotencyDecision,
  type IdempotencyStore,
  KEY_CACHE_MS,
  type KeysService,
  type RateLimiter,
  type RateLimitState,
  rateLimited,
  requestFingerprint,
} from './access/index.js';
export type { BoardsService, CreateBoardInput } from './boards/index.js';
export { CHANGELOG_POSTS_MAX, type ChangelogEdit, type ChangelogService } from './changelog/index.js';
export type { CompaniesService, CompanyActivity } from './companies/index.js';
export type { ContactsService } from './contacts/index.js';
export { CONTACT_ACTIVITY_LIMIT, type ContactActivity } from './contacts/index.js';
export {
  type AttemptReport,
  type DeliveryScheduler,
  deliveryHeaders,
  MAIL_RETRY_SCHEDULE_MS,
  type MailSummary,
  type RunSummary,
  type SchedulerOptions,
} from './delivery/index.js';
export {
  createEngine,
  type Engine,
  type EngineOptions,
  MAIL_RETENTION_DAYS,
  type MailOptions,
  type WebhookOptions,
  type Workspace,
  type WorkspaceActions,
} from './engine.js';
export type { EventsService, StoredEvent } from './events/index.js';
export { type CheckResult, isDatabaseUnavailable, type Readiness, UNAVAILABLE_RETRY_AFTER_SECONDS } from './health.js';
export {
  acceptedLanguages,
  CATALOGS,
  type Catalog,
  type ConsoleKey,
  canonicalTag,
  checkWording,
  consoleEn,
  DEFAULT_LOCALE,
  directionOf,
  type HtmlValues,
  isLocale,
  LOCALE_NAMES,
  LOCALE_TAG_MAX,
  LOCALES,
  type Locale,
  type MessageKey,
  type MessageTags,
  type MessageValues,
  nearestLocale,
  type Translator,
  translator,
  type Wording,
  wordingLine,
} from './i18n/index.js';
export { IMPORT_KINDS, type ImportBundle, type ImportKind, type ImportSummary } from './imports/index.js';
export {
  type ConnectInput,
  type IntegrationActions,
  type IntegrationsOptions,
  type IntegrationsService,
  type IntegrationView,
  inboundPath,
  LINEAR_SCOPES,
  LINEAR_WINDOW_MS,
  SLACK_SCOPES,
  SLACK_SHORTCUT,
  SLACK_WINDOW_MS,
} from './integrations/index.js';
export {
  type Actor,
  allows,
  CLI_ACTOR,
  CONSOLE_PATH,
  DOMAIN_RECORD_LABEL,
  isTeamRole,
  type SectionCounts,
  type SignInFacts,
  SSO_CALLBACK_PATH,
  SSO_PENDING_SECONDS,
  type SsoDomainState,
  type SsoInput,
  type SsoSettings,
  TEAM_CODE_ATTEMPTS,
  TEAM_LIFETIMES,
  TEAM_ROLES,
  type Team,
  type TeamAccess,
  type TeamIdentity,
  type TeamMemberInfo,
  type TeamPermission,
  type TeamRole,
  type TeamService,
  type TeamSession,
} from './members/index.js';
export {
  DIGEST_AFTER,
  DIGESTS,
  type Digest,
  MAIL_PURPOSES,
  MAIL_TOKEN_DAYS,
  MAX_FOLLOWED_POSTS,
  type MailFacts,
  type MailPreferences,
  type MailPreferencesChange,
  type MailPurpose,
  type MailRecipient,
  type MailTokens,
  mayEmail,
  type NotificationsService,
} from './notifications/index.js';
export {
  type Caller,
  type OperationRequest,
  type OperationResult,
  operationRefusal,
  runOperation,
} from './operations.js';
export type { WorkspaceSettings } from './organizations/index.js';
export {
  type CreateOrganizationInput,
  contrastOnWhite,
  contrastRatio,
  HANDLE_PATTERN,
  type OrganizationInfo,
  type OrganizationsService,
  type UpdateOrganizationInput,
} from './organizations/index.js';
export { type DatabaseTimeouts, DEFAULT_TIMEOUTS } from './orm.js';
export {
  DEFAULT_ROTATION_GRACE_SECONDS,
  type Participation,
  PORTAL_CODE,
  PORTAL_SESSION_SECONDS,
  PORTAL_TOKEN_MAX_SECONDS,
  type PortalAction,
  type PortalActionResult,
  type PortalIdentity,
  type PortalSession,
} from './participation/index.js';
export {
  PORTAL_COMMENT_LIMIT,
  PORTAL_SORTS,
  type PortalBoard,
  type PortalChangelogEntry,
  type PortalComment,
  type PortalPost,
  type PortalPostsQuery,
  type PortalReader,
  type PortalSort,
  ROADMAP_STATUSES,
} from './portal/index.js';
export type { PostsService, Tag, TagsService } from './posts/index.js';
export { BULK_LIMIT, type BulkAction, type PostActions } from './posts/index.js';
export type { PrivacyService } from './privacy/index.js';
export { STEM_LANGUAGES, type StemLanguage } from './search/index.js';
export {
  generateSecretKey,
  type ResealReport,
  SECRET_KEY_ENV,
  SECRET_KEY_FALLBACKS_ENV,
  SecretKeyError,
  type SecretKeys,
  secretKeyFileOf,
} from './secrets/index.js';
export {
  BILLING_STATES,
  type BillingState,
  DEFAULT_RATE_LIMIT,
  errorLine,
  FeedbackError,
  hashEmail,
  html,
  type Logger,
  logErrorLine,
  logToLogger,
  MAIL_PAGES,
  markdown,
  newId,
  nonPublicReason,
  type Paths,
  PLAN_CONTACT_CAPS,
  PLANS,
  type Plan,
  PORTAL_PATH,
  parseInput,
  pathsOf,
  RESERVED_HANDLES,
  SafeHtml,
  validationError,
} from './shared/index.js';
export type { ApiKeyInfo } from './store/index.js';
export { entities } from './store/index.js';
export {
  FREE_VOTERS,
  type Impact,
  type MergeSuggestion,
  type PossibleDuplicate,
  ROADMAP_LIMIT,
  TRIAGE_POST_LIMITS,
  TRIAGE_SORTS,
  type TriageComment,
  type TriagePost,
  type TriagePostDetail,
  type TriageQuery,
  type TriageReader,
  type TriageSort,
  type TriageVoter,
  type VoterPage,
  type VotersQuery,
} from './triage/index.js';
export type { WebhooksService } from './webhooks/index.js';
