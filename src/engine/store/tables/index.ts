// Every table of the store, one module each (its entity, record type, row mapping and statements, each defined once),
// as a namespace: what the concepts use (`contacts.findById`), and where the model's entities are found (entities.ts).

export * as apiKeys from './api-keys.js';
export * as auditEntries from './audit-entries.js';
export * as boards from './boards.js';
export * as changelogEntries from './changelog-entries.js';
export * as codeFailures from './code-failures.js';
export * as comments from './comments.js';
export * as contacts from './contacts.js';
export * as deliveries from './deliveries.js';
export * as deliveryAttempts from './delivery-attempts.js';
export * as events from './events.js';
export * as idempotencyKeys from './idempotency-keys.js';
export * as mail from './mail.js';
export * as mailPreferences from './mail-preferences.js';
export * as mailSubscriptions from './mail-subscriptions.js';
export * as mailUnsubscribes from './mail-unsubscribes.js';
export * as organizations from './organizations.js';
export * as portalCodes from './portal-codes.js';
export * as portalSessions from './portal-sessions.js';
export * as postImpacts from './post-impacts.js';
export * as postNotes from './post-notes.js';
export * as postRedirects from './post-redirects.js';
export * as postTags from './post-tags.js';
export * as posts from './posts.js';
export * as rateLimits from './rate-limits.js';
export * as search from './search.js';
export * as ssoDomains from './sso-domains.js';
export * as suppressions from './suppressions.js';
export * as tags from './tags.js';
export * as teamMembers from './team-members.js';
export * as teamSessionSso from './team-session-sso.js';
export * as teamSessions from './team-sessions.js';
export * as teamSignIns from './team-sign-ins.js';
export * as votes from './votes.js';
export * as webhooks from './webhooks.js';
export * as workspaceSso from './workspace-sso.js';
