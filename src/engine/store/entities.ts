// Every table's entity, each defined once beside its statements in store/<table>.ts: the model MikroORM's migrations
// and schema comparison work from (orm.ts), and what `feedback-service/engine` exports as `entities`.

export { ApiKey } from './tables/api-keys.js';
export { AuditEntry } from './tables/audit-entries.js';
export { Board } from './tables/boards.js';
export { ChangelogEntry, ChangelogEntryPost } from './tables/changelog-entries.js';
export { CodeFailure } from './tables/code-failures.js';
export { Comment } from './tables/comments.js';
export { Contact } from './tables/contacts.js';
export { Delivery } from './tables/deliveries.js';
export { DeliveryAttempt } from './tables/delivery-attempts.js';
export { Event } from './tables/events.js';
export { IdempotencyKey } from './tables/idempotency-keys.js';
export { Mail } from './tables/mail.js';
export { MailPreference } from './tables/mail-preferences.js';
export { MailSubscription } from './tables/mail-subscriptions.js';
export { MailUnsubscribe } from './tables/mail-unsubscribes.js';
export { Organization } from './tables/organizations.js';
export { PortalCode } from './tables/portal-codes.js';
export { PortalSession } from './tables/portal-sessions.js';
export { PostImpact } from './tables/post-impacts.js';
export { PostNote } from './tables/post-notes.js';
export { PostRedirect } from './tables/post-redirects.js';
export { PostTag } from './tables/post-tags.js';
export { Post } from './tables/posts.js';
export { RateLimitWindow } from './tables/rate-limits.js';
export { SsoDomain } from './tables/sso-domains.js';
export { Suppression } from './tables/suppressions.js';
export { Tag } from './tables/tags.js';
export { TeamMember } from './tables/team-members.js';
export { TeamSessionSso } from './tables/team-session-sso.js';
export { TeamSession } from './tables/team-sessions.js';
export { TeamSignIn } from './tables/team-sign-ins.js';
export { Vote } from './tables/votes.js';
export { Webhook } from './tables/webhooks.js';
export { WorkspaceSso } from './tables/workspace-sso.js';
