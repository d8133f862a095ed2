import { defineEntity, p } from '@mikro-orm/core';
import { Organization } from './organization.js';

/**
 * A POST's `Idempotency-Key`, per workspace, kept 24 hours: the request it was first used with (a hash) and,
 * once that request finished, its response, which repeats get back instead of running it again.
 */
export const IdempotencyKey = defineEntity({
  name: 'IdempotencyKey',
  tableName: 'idempotency_key',
  indexes: [{ name: 'idempotency_key_expires_idx', properties: ['expiresAt'] }],
  properties: {
    organization: () => p.manyToOne(Organization).primary().deleteRule('cascade'),
    key: p.string().primary().length(255),
    requestHash: p.string().length(64),
    /** `in_progress` or `completed`. */
    status: p.string().length(20),
    responseStatus: p.integer().nullable(),
    responseBody: p.text().nullable(),
    createdAt: p.datetime().length(3),
    expiresAt: p.datetime().length(3),
  },
});
