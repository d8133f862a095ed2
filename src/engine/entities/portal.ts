import { defineEntity, p } from '@mikro-orm/core';
import { Organization } from './organization.js';

/**
 * A signed-in end-user on a workspace's portal: verified by a workspace-signed token, or by a one-time code mailed to
 * their address. The browser holds the random token; the row is keyed by its SHA-256 and removed once expired.
 */
export const PortalSession = defineEntity({
  name: 'PortalSession',
  tableName: 'portal_session',
  indexes: [
    { name: 'portal_session_expires_idx', properties: ['expiresAt'] },
    { name: 'portal_session_organization_idx', properties: ['organization'] },
  ],
  properties: {
    /** SHA-256 (hex) of the cookie's token. */
    id: p.string().primary().length(64),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    /** The workspace's user id (`sub`) for a token session; null for an email-code session. */
    externalUserId: p.string().length(255).nullable(),
    email: p.string().length(320),
    name: p.string().length(200).nullable(),
    /** Whether the workspace vouched for this person with a signed token. */
    verified: p.boolean(),
    createdAt: p.datetime().length(3),
    expiresAt: p.datetime().length(3),
  },
});

/** A one-time code mailed to an anonymous end-user, and what they asked to do once it is confirmed. */
export const PortalCode = defineEntity({
  name: 'PortalCode',
  tableName: 'portal_code',
  indexes: [
    { name: 'portal_code_expires_idx', properties: ['expiresAt'] },
    { name: 'portal_code_organization_idx', properties: ['organization'] },
  ],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    email: p.string().length(320),
    name: p.string().length(200).nullable(),
    /** SHA-256 (hex) of the code and the row id. */
    codeHash: p.string().length(64),
    /** The pending post, vote or comment (JSON). */
    action: p.text(),
    attempts: p.integer().default(0),
    createdAt: p.datetime().length(3),
    expiresAt: p.datetime().length(3),
  },
});
