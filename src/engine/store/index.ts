// The store's door for the concepts: one namespace per table (its entity, record type, row mapping and statements,
// each defined once in store/<table>.ts), and the statement layer they run on.

export type { ApiKeyInfo } from './api-keys.js';
export * as apiKeys from './api-keys.js';
export * as auditEntries from './audit-entries.js';
export * as boards from './boards.js';
export * as changelogEntries from './changelog-entries.js';
export * as codeFailures from './code-failures.js';
export * as comments from './comments.js';
export * as contacts from './contacts.js';
export { inTransaction, type WorkspaceContext } from './context.js';
export { createDatabase } from './database.js';
export * as deliveries from './deliveries.js';
export * as deliveryClaims from './delivery-claims.js';
export * as deliveryOutcomes from './delivery-outcomes.js';
/** For the engine's root: the model MikroORM works from, and the database on its connections. */
export * as entities from './entities.js';
export * as events from './events.js';
/** A change and its events commit together: the mechanism every change goes through (events.ts). */
export { emit, writeWithEvent } from './events.js';
export * as idempotencyKeys from './idempotency-keys.js';
export * as leases from './leases.js';
export * as mail from './mail.js';
export * as mailPreferences from './mail-preferences.js';
export * as mailRecipients from './mail-recipients.js';
export * as mailSubscriptions from './mail-subscriptions.js';
export * as mailUnsubscribes from './mail-unsubscribes.js';
export { modelFor } from './model.js';
export * as organizations from './organizations.js';
export * as portalCodes from './portal-codes.js';
export * as portalPages from './portal-pages.js';
export * as portalSessions from './portal-sessions.js';
export * as postImpacts from './post-impacts.js';
export * as postNotes from './post-notes.js';
export * as postRedirects from './post-redirects.js';
export * as postTags from './post-tags.js';
export * as posts from './posts.js';
export * as rateLimits from './rate-limits.js';
export * from './rows.js';
/** Full-text search over posts and contacts (SQLite's FTS5 tables, PostgreSQL's GIN and trigram indexes). */
export * as search from './search.js';
export * from './sql.js';
export * as ssoDomains from './sso-domains.js';
export * from './subjects.js';
export * as suppressions from './suppressions.js';
export * as tags from './tags.js';
export * as teamMembers from './team-members.js';
export * as teamSessionSso from './team-session-sso.js';
export * as teamSessions from './team-sessions.js';
export * as teamSignIns from './team-sign-ins.js';
export * as triage from './triage.js';
export * as votes from './votes.js';
export * as webhooks from './webhooks.js';
export * as workspaceSso from './workspace-sso.js';
