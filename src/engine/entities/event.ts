import { defineEntity, p } from '@mikro-orm/core';
import { Organization } from './organization.js';

/**
 * An emitted event, written in the same transaction as the change that caused it.
 * `payload` holds the exact JSON bytes receivers will get.
 */
export const Event = defineEntity({
  name: 'Event',
  tableName: 'event',
  indexes: [{ name: 'event_org_created_idx', properties: ['organization', 'createdAt', 'id'] }],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    type: p.string().length(40),
    payload: p.text(),
    /** When an erasure took the person's data out of the payload (docs/privacy.md). */
    redactedAt: p.datetime().length(3).nullable(),
    createdAt: p.datetime().length(3),
  },
});
