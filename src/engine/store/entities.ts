// Every table's entity, each defined once beside its statements in store/<table>.ts: the model MikroORM's migrations
// and schema comparison work from (orm.ts), and what `feedback-service/engine` exports as `entities`.
export { Organization } from './organizations.js';
export { ApiKey } from './api-keys.js';
export { Contact } from './contacts.js';
export { Board } from './boards.js';
export { Post } from './posts.js';
export { Tag } from './tags.js';
export { PostTag } from './post-tags.js';
export { Vote } from './votes.js';
export { Comment } from './comments.js';
export { Event } from './events.js';
export { ChangelogEntry } from './changelog-entries.js';
export { Webhook } from './webhooks.js';
export { Delivery } from './deliveries.js';
export { DeliveryAttempt } from './delivery-attempts.js';
export { IdempotencyKey } from './idempotency-keys.js';
export { PortalSession } from './portal-sessions.js';
export { PortalCode } from './portal-codes.js';
export { Mail } from './mail.js';
export { MailSubscription } from './mail-subscriptions.js';
export { MailUnsubscribe } from './mail-unsubscribes.js';
export { MailPreference } from './mail-preferences.js';
export { Suppression } from './suppressions.js';
export { RateLimitWindow } from './rate-limits.js';
