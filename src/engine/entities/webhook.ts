import { defineEntity, p } from '@mikro-orm/core';
import { expressionIndex } from './dialects.js';
import { Organization } from './organization.js';

/**
 * A receiver registered by a workspace. `events` holds the subscribed kinds as `,kind,kind,` so the
 * fan-out trigger matches a kind with one substring test in either database.
 */
export const Webhook = defineEntity({
  name: 'Webhook',
  tableName: 'webhook',
  indexes: [{ name: 'webhook_org_created_idx', properties: ['organization', 'createdAt', 'id'] }],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    url: p.string().length(2048),
    events: p.string().length(400),
    description: p.string().length(500).nullable(),
    /**
     * The signing secret (`whsec_...`), sealed with the server's key (engine/secrets.ts): returned once at
     * registration, never read back through the API.
     */
    secret: p.string().length(255),
    enabled: p.boolean().default(true),
    consecutiveFailures: p.integer().default(0),
    disabledAt: p.datetime().length(3).nullable(),
    createdAt: p.datetime().length(3),
    updatedAt: p.datetime().length(3),
  },
});

/**
 * One event to one webhook. Pending deliveries are due at `nextAttemptAt`; a claim sets `leaseToken` and
 * `leaseExpiresAt`, so a claim that is never recorded becomes claimable again by itself.
 */
export const Delivery = defineEntity({
  name: 'Delivery',
  tableName: 'delivery',
  indexes: [
    { name: 'delivery_webhook_created_idx', properties: ['webhook', 'createdAt', 'eventId', 'id'] },
    // What the scheduler claims: each webhook's due deliveries, oldest first; settled ones are not in it.
    expressionIndex('delivery_pending_idx', `on "delivery" ("webhook_id", "next_attempt_at", "id") where "status" = 'pending'`),
  ],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    webhook: () => p.manyToOne(Webhook).deleteRule('cascade'),
    /** The event whose payload this delivers. A plain column: events live as long as their workspace, and a
     *  foreign key would add an index to every delivery write. */
    eventId: p.string().length(40),
    eventType: p.string().length(40),
    /** `pending`, `succeeded` or `failed`. */
    status: p.string().length(20),
    attemptCount: p.integer().default(0),
    nextAttemptAt: p.datetime().length(3).nullable(),
    leaseToken: p.string().length(40).nullable(),
    /** Until when the claim holds; not indexed, so claiming and renewing are HOT updates on PostgreSQL. */
    leaseExpiresAt: p.datetime().length(3).nullable(),
    succeededAt: p.datetime().length(3).nullable(),
    failedAt: p.datetime().length(3).nullable(),
    /** `attempts_exhausted` or `webhook_disabled`. */
    failureReason: p.string().length(40).nullable(),
    replayOfId: p.string().length(40).nullable(),
    createdAt: p.datetime().length(3),
  },
});

/** One attempt of a delivery, as the log shows it. */
export const DeliveryAttempt = defineEntity({
  name: 'DeliveryAttempt',
  tableName: 'delivery_attempt',
  properties: {
    delivery: () => p.manyToOne(Delivery).primary().deleteRule('cascade'),
    number: p.integer().primary(),
    attemptedAt: p.datetime().length(3),
    statusCode: p.integer().nullable(),
    error: p.string().length(500).nullable(),
    durationMs: p.integer(),
    responseBody: p.text().nullable(),
  },
});
