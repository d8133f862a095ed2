import { defineEntity, p } from '@mikro-orm/core';

/** A workspace: every other row belongs to exactly one. */
export const Organization = defineEntity({
  name: 'Organization',
  tableName: 'organization',
  properties: {
    id: p.string().primary().length(40),
    name: p.string().length(200),
    /** `free` or `paid`; drives the default contact cap and webhook access. */
    plan: p.string().length(20),
    /** `active` or `read_only`; read-only workspaces refuse writes with ERR_FORBIDDEN. */
    billingState: p.string().length(20),
    /** Whether `contactCap` overrides the plan default; when set, a null cap means unlimited. */
    contactCapOverride: p.boolean().default(false),
    contactCap: p.integer().nullable(),
    /** Requests per minute per key; null means the server default (600). */
    rateLimit: p.integer().nullable(),
    adminEmails: p.json<string[]>(),
    /** The public handle of its portal (`/portal/<handle>/`): lower-case letters, digits and dashes; unique. */
    handle: p.string().length(40).nullable().unique('organization_handle_unique'),
    /** Whether its portal and widget answer. */
    portalEnabled: p.boolean().default(false),
    /** Whether only end-users signed in with a workspace-signed token may post, vote and comment. */
    portalVerifiedOnly: p.boolean().default(false),
    /** Whether anonymous portal posts wait as `pending` until approved. */
    portalModeration: p.boolean().default(false),
    /** The origins (`https://app.example.com`) whose pages may frame the portal (the widget); none by default. */
    portalFrameOrigins: p.json<string[]>().default('[]'),
    /** The secret portal tokens are signed with (HS256), sealed. */
    portalSecret: p.text().nullable(),
    /** The secret before the last rotation, sealed; it verifies until `portalPreviousSecretUntil`. */
    portalPreviousSecret: p.text().nullable(),
    portalPreviousSecretUntil: p.datetime().length(3).nullable(),
    /** Whether notifications go to contacts its admins created (consentBasis `admin_created`): off unless turned on. */
    notifyAdminCreated: p.boolean().default(false),
    /** The random salt of its suppression list's hashes (made at its first erasure). */
    privacySalt: p.string().length(64).nullable(),
    createdAt: p.datetime().length(3),
    updatedAt: p.datetime().length(3),
  },
});
