import { FeedbackError } from './errors.js';
import { isUniqueViolation } from './store/sql.js';
import { effectiveContactCap } from './shared/caps.js';
import { newId } from './shared/ids.js';
import { RESERVED_HANDLES } from './shared/portal-paths.js';
import { BILLING_STATES, DEFAULT_RATE_LIMIT, PLANS, type BillingState, type Plan } from './shared/plans.js';
import * as organizations from './store/organizations.js';
import type { Database } from './store/sql.js';

export { BILLING_STATES, DEFAULT_RATE_LIMIT, PLANS, PLAN_CONTACT_CAPS, type BillingState, type Plan } from './shared/plans.js';

export interface OrganizationInfo {
  id: string;
  name: string;
  plan: Plan;
  billingState: BillingState;
  /** The cap in force (null = unlimited) and whether it overrides the plan's default. */
  contactCap: number | null;
  contactCapOverride: boolean;
  rateLimit: number;
  adminEmails: string[];
  /** The portal's public handle (`/portal/<handle>/`), or null. */
  handle: string | null;
  /** Whether the portal answers (it also needs a handle). */
  portalEnabled: boolean;
  /** Whether only end-users signed in with a workspace-signed token may post, vote and comment on the portal. */
  portalVerifiedOnly: boolean;
  /** Whether anonymous portal posts wait as `pending` until approved (`feedback-service post approve`). */
  portalModeration: boolean;
  /** Origins whose pages may frame the portal (the widget): its `Content-Security-Policy: frame-ancestors`. */
  portalFrameOrigins: string[];
  /** Whether notifications go to contacts its admins created (consentBasis `admin_created`); off unless turned on. */
  notifyAdminCreated: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface CreateOrganizationInput {
  name: string;
  plan?: Plan;
  /** A number overrides the plan's cap; null means unlimited; undefined keeps the plan default. */
  contactCap?: number | null;
  adminEmails?: string[];
  rateLimit?: number;
}

export interface UpdateOrganizationInput {
  name?: string;
  plan?: Plan;
  billingState?: BillingState;
  /** A number or null (unlimited) overrides; 'default' returns to the plan's cap. */
  contactCap?: number | null | 'default';
  adminEmails?: string[];
  /** Requests per minute per key; null returns to the server default. */
  rateLimit?: number | null;
  /** The portal's public handle; null removes it. */
  handle?: string | null;
  portalEnabled?: boolean;
  portalVerifiedOnly?: boolean;
  portalModeration?: boolean;
  /** Replaces the list; each an origin (`https://app.example.com`, `http://localhost:3000`); at most 20. */
  portalFrameOrigins?: string[];
  /** Mail contacts its admins created (`admin_created`): the admin attests the lawful basis. */
  notifyAdminCreated?: boolean;
}

/** The origins a workspace lets frame its portal, as the CSP names them; what is not one is ERR_VALIDATION. */
export function frameOrigins(list: readonly string[]): string[] {
  if (list.length > 20) throw new FeedbackError('ERR_VALIDATION', 'At most 20 origins may frame the portal.');
  return [
    ...new Set(
      list.map((text) => {
        let url: URL | undefined;
        try {
          url = new URL(text);
        } catch {}
        if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || url.pathname !== '/' || url.search || url.hash)
          throw new FeedbackError('ERR_VALIDATION', `${text} is not an origin: give scheme, host and port only, e.g. https://app.example.com`);
        return url.origin;
      }),
    ),
  ];
}

/** A portal handle: 2 to 40 lower-case letters, digits and single dashes, starting and ending with a letter or digit. */
export const HANDLE_PATTERN = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){1,39}$/;

function toInfo(row: organizations.OrganizationRow): OrganizationInfo {
  return {
    ...row,
    plan: row.plan as Plan,
    billingState: row.billingState as BillingState,
    contactCap: effectiveContactCap(row),
    rateLimit: row.rateLimit ?? DEFAULT_RATE_LIMIT,
  };
}

function check(input: { plan?: string; billingState?: string; contactCap?: unknown; rateLimit?: unknown; name?: string; handle?: string | null }) {
  if (typeof input.handle === 'string' && !HANDLE_PATTERN.test(input.handle))
    throw new FeedbackError('ERR_VALIDATION', 'handle must be 2 to 40 lower-case letters, digits and single dashes, starting and ending with a letter or digit');
  if (typeof input.handle === 'string' && RESERVED_HANDLES.includes(input.handle))
    throw new FeedbackError('ERR_VALIDATION', `handle ${input.handle} is reserved: the portal's own pages live at /portal/${input.handle}/`);
  if (input.name !== undefined && (input.name.length < 1 || input.name.length > 200)) throw new FeedbackError('ERR_VALIDATION', 'name must be 1 to 200 characters');
  if (input.plan !== undefined && !PLANS.includes(input.plan as Plan)) throw new FeedbackError('ERR_VALIDATION', `plan must be one of ${PLANS.join(', ')}`);
  if (input.billingState !== undefined && !BILLING_STATES.includes(input.billingState as BillingState))
    throw new FeedbackError('ERR_VALIDATION', `billing must be one of ${BILLING_STATES.join(', ')}`);
  const cap = input.contactCap;
  if (typeof cap === 'number' && !(Number.isInteger(cap) && cap >= 0)) throw new FeedbackError('ERR_VALIDATION', 'contact cap must be a non-negative integer');
  const rate = input.rateLimit;
  if (rate !== undefined && rate !== null && !(typeof rate === 'number' && Number.isInteger(rate) && rate >= 1))
    throw new FeedbackError('ERR_VALIDATION', 'rate limit must be a positive integer');
}

/**
 * Operator-level workspace administration (the CLI's `org` commands). `keyCache` is told of every change: billing
 * state, plan and rate limit travel with authenticated keys.
 */
export function createOrganizationsService(db: Database, clock: () => Date, keyCache: { clear(): void }) {
  async function get(id: string): Promise<OrganizationInfo | null> {
    const row = await organizations.find(db, id);
    return row ? toInfo(row) : null;
  }
  return {
    async create(input: CreateOrganizationInput): Promise<OrganizationInfo> {
      check(input);
      const now = clock();
      const id = newId('org', now.getTime());
      await organizations.insert(
        db,
        {
          id,
          name: input.name,
          plan: input.plan ?? 'free',
          billingState: 'active',
          contactCapOverride: input.contactCap !== undefined,
          contactCap: input.contactCap ?? null,
          rateLimit: input.rateLimit ?? null,
          adminEmails: input.adminEmails ?? [],
          handle: null,
          portalEnabled: false,
          portalVerifiedOnly: false,
          portalModeration: false,
          portalFrameOrigins: [],
          notifyAdminCreated: false,
        },
        now,
      );
      return (await get(id))!;
    },

    async update(id: string, input: UpdateOrganizationInput): Promise<OrganizationInfo> {
      check(input);
      const cap = input.contactCap;
      let found: boolean;
      try {
        found = await organizations.update(
          db,
          id,
          {
            name: input.name,
            plan: input.plan,
            billingState: input.billingState,
            adminEmails: input.adminEmails,
            rateLimit: input.rateLimit,
            handle: input.handle,
            portalEnabled: input.portalEnabled,
            portalVerifiedOnly: input.portalVerifiedOnly,
            portalModeration: input.portalModeration,
            portalFrameOrigins: input.portalFrameOrigins && frameOrigins(input.portalFrameOrigins),
            notifyAdminCreated: input.notifyAdminCreated,
            ...(cap === 'default' ? { contactCapOverride: false, contactCap: null } : cap !== undefined ? { contactCapOverride: true, contactCap: cap } : {}),
          },
          clock(),
        );
      } catch (err) {
        if (isUniqueViolation(err)) throw new FeedbackError('ERR_CONFLICT', `The handle ${input.handle} is taken.`);
        throw err;
      }
      keyCache.clear();
      if (!found) throw new FeedbackError('ERR_NOT_FOUND', `No organization with id ${id}.`);
      return (await get(id))!;
    },

    get,

    /** The workspace whose portal answers at this handle, whether or not the portal is on. */
    async byHandle(handle: string): Promise<OrganizationInfo | null> {
      const row = await organizations.findByHandle(db, handle);
      return row ? toInfo(row) : null;
    },

    /** Every workspace, oldest first. */
    async list(): Promise<OrganizationInfo[]> {
      return (await organizations.list(db)).map(toInfo);
    },

    async count(): Promise<number> {
      return organizations.count(db);
    },

    /** Delete a workspace and everything in it (its keys, contacts, boards, webhooks and their deliveries). */
    async delete(id: string): Promise<{ id: string; deleted: true }> {
      const found = await organizations.remove(db, id);
      keyCache.clear();
      if (!found) throw new FeedbackError('ERR_NOT_FOUND', `No organization with id ${id}.`);
      return { id, deleted: true };
    },
  };
}
export type OrganizationsService = ReturnType<typeof createOrganizationsService>;
