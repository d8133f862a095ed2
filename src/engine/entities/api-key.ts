import { defineEntity, p } from '@mikro-orm/core';
import { onlyOn } from './dialects.js';
import { Organization } from './organization.js';

/** An API key; only the SHA-256 hash of the secret is stored. */
export const ApiKey = defineEntity({
  name: 'ApiKey',
  tableName: 'api_key',
  // SQLite's first migration indexed every foreign key; this one leads no other index, so it stayed.
  indexes: [onlyOn('sqlite', { name: 'api_key_organization_id_index', properties: 'organization' })],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    keyHash: p.string().length(64).unique('api_key_key_hash_unique'),
    scope: p.string().length(20),
    revokedAt: p.datetime().length(3).nullable(),
    /** When a request last presented it, to the minute (written at most once a minute per key and process). */
    lastUsedAt: p.datetime().length(3).nullable(),
    createdAt: p.datetime().length(3),
  },
});
