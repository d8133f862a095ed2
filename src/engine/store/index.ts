// The store's door for the concepts: one namespace per table (its entity, record type, row mapping and statements,
// each defined once in store/<table>.ts), and the statement layer they run on.

export { inTransaction, type WorkspaceContext } from './context.js';
export { createDatabase } from './database.js';
/** For the engine's root: the model MikroORM works from, and the database on its connections. */
export * as entities from './entities.js';
export { modelFor } from './model.js';
export * as contactLists from './queries/contact-lists.js';
export * as deliveryClaims from './queries/delivery-claims.js';
export * as deliveryOutcomes from './queries/delivery-outcomes.js';
export * as leases from './queries/leases.js';
export * as mailClaims from './queries/mail-claims.js';
export * as mailRecipients from './queries/mail-recipients.js';
export * as portalPages from './queries/portal-pages.js';
export * as triage from './queries/triage.js';
export * from './rows.js';
export * from './sql.js';
export * from './subjects.js';
export type { ApiKeyInfo } from './tables/api-keys.js';
export * as apiKeys from './tables/api-keys.js';
export * as auditEntries from './tables/audit-entries.js';
export * as boards from './tables/boards.js';
export * as changelogEntries from './tables/changelog-entries.js';
export * as codeFailures from './tables/code-failures.js';
export * as comments from './tables/comments.js';
export * as contacts from './tables/contacts.js';
export * as deliveries from './tables/deliveries.js';
export * as events from './tables/events.js';
/** A change and its events commit together: the mechanism every change goes through (events.ts). */
export { emit, writeWithEvent } from './tables/events.js';
export * as idempotencyKeys from './tables/idempotency-keys.js';
export * as mail from './tables/mail.js';
export * as mailPreferences from './tables/mail-preferences.js';
export * as mailSubscriptions from './tables/mail-subscriptions.js';
export * as mailUnsubscribes from './tables/mail-unsubscribes.js';
export * as organizations from './tables/organizations.js';
export * as portalCodes from './tables/portal-codes.js';
export * as portalSessions from './tables/portal-sessions.js';
export * as postImpacts from './tables/post-impacts.js';
export * as postNotes from './tables/post-notes.js';
export * as postRedirects from './tables/post-redirects.js';
export * as postTags from './tables/post-tags.js';
export * as posts from './tables/posts.js';
export * as rateLimits from './tables/rate-limits.js';
export type { PostSearchScope, SearchTerm } from './tables/search.js';
/** Full-text search over posts and contacts (SQLite's FTS5 tables, PostgreSQL's GIN and trigram indexes). */
export * as search from './tables/search.js';
export * as ssoDomains from './tables/sso-domains.js';
export * as suppressions from './tables/suppressions.js';
export * as tags from './tables/tags.js';
export * as teamMembers from './tables/team-members.js';
export * as teamSessionSso from './tables/team-session-sso.js';
export * as teamSessions from './tables/team-sessions.js';
export * as teamSignIns from './tables/team-sign-ins.js';
export * as votes from './tables/votes.js';
export * as webhooks from './tables/webhooks.js';
export * as workspaceSso from './tables/workspace-sso.js';
