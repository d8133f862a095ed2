import { defineEntity, p } from '@mikro-orm/core';
import { expressionIndex, onlyOn } from './dialects.js';
import { Organization } from './organization.js';

/** One end-user of the workspace's customer. */
export const Contact = defineEntity({
  name: 'Contact',
  tableName: 'contact',
  uniques: [{ name: 'contact_org_external_user_id_unique', properties: ['organization', 'externalUserId'] }],
  indexes: [
    { name: 'contact_org_created_idx', properties: ['organization', 'createdAt', 'id'] },
    { name: 'contact_org_last_seen_idx', properties: ['organization', 'lastSeenAt', 'id'] },
    { name: 'contact_org_mrr_idx', properties: ['organization', 'mrrCents', 'id'] },
    { name: 'contact_org_email_hash_idx', properties: ['organization', 'emailHash'] },
    // The list's `q` (case-insensitive substring of email or name) as index scans: pg_trgm, created by the migration.
    onlyOn('postgresql', expressionIndex('contact_email_trgm_idx', 'on "contact" using gin ("email" gin_trgm_ops)')),
    onlyOn('postgresql', expressionIndex('contact_name_trgm_idx', 'on "contact" using gin ("name" gin_trgm_ops)')),
  ],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    externalUserId: p.string().length(255).nullable(),
    email: p.string().length(320).nullable(),
    /** SHA-256 hex of the trimmed, lower-cased email: matches votes and comments. */
    emailHash: p.string().length(64).nullable(),
    name: p.string().length(200).nullable(),
    plan: p.string().length(100).nullable(),
    mrrCents: p.integer().nullable(),
    currency: p.string().length(3).nullable(),
    metadata: p.json<Record<string, unknown>>(),
    source: p.string().length(40),
    consentBasis: p.string().length(40),
    firstSeenAt: p.datetime().length(3),
    lastSeenAt: p.datetime().length(3),
    createdAt: p.datetime().length(3),
    updatedAt: p.datetime().length(3),
    /** Bumped by every trait change; contact writes are conditional on it (optimistic concurrency). */
    version: p.integer().default(1),
  },
});
