// Every table's entity, each defined once beside its statements in store/<table>.ts: the model MikroORM's migrations
// and schema comparison work from (orm.ts), and what `feedback-service/engine` exports as `entities`.

export { ApiKey } from './api-keys.js';
export { AuditEntry } from './audit-entries.js';
export { Board } from './boards.js';
export { ChangelogEntry, ChangelogEntryPost } from './changelog-entries.js';
export { CodeFailure } from './code-failures.js';
export { Comment } from './comments.js';
export { Contact } from './contacts.js';
export { Delivery } from './deliveries.js';
export { DeliveryAttempt } from './delivery-attempts.js';
export { Event } from './events.js';
export { IdempotencyKey } from './idempotency-keys.js';
export { Mail } from './mail.js';
export { MailPreference } from './mail-preferences.js';
export { MailSubscription } from './mail-subscriptions.js';
export { MailUnsubscribe } from './mail-unsubscribes.js';
export { Organization } from './organizations.js';
export { PortalCode } from './portal-codes.js';
export { PortalSession } from './portal-sessions.js';
export { PostImpact } from './post-impacts.js';
export { PostNote } from './post-notes.js';
export { PostRedirect } from './post-redirects.js';
export { PostTag } from './post-tags.js';
export { Post } from './posts.js';
export { RateLimitWindow } from './rate-limits.js';
export { SsoDomain } from './sso-domains.js';
export { Suppression } from './suppressions.js';
export { Tag } from './tags.js';
export { TeamMember } from './team-members.js';
export { TeamSessionSso } from './team-session-sso.js';
export { TeamSession } from './team-sessions.js';
export { TeamSignIn } from './team-sign-ins.js';
export { Vote } from './votes.js';
export { Webhook } from './webhooks.js';
export { WorkspaceSso } from './workspace-sso.js';
