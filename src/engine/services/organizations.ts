import type { InferEntity, MikroORM } from '@mikro-orm/core';
import { Organization } from '../entities/organization.js';
import { FeedbackError } from '../errors.js';
import { newId } from '../internal/ids.js';
import { toBool, toIntOrNull } from '../internal/sql.js';

export const PLANS = ['free', 'paid'] as const;
export type Plan = (typeof PLANS)[number];
export const BILLING_STATES = ['active', 'read_only'] as const;
export type BillingState = (typeof BILLING_STATES)[number];

/** Contact cap per plan when the organization does not override it; null is unlimited. */
export const PLAN_CONTACT_CAPS: Record<Plan, number | null> = { free: 1000, paid: null };
export const DEFAULT_RATE_LIMIT = 600;

/** The cap in force: the override when set (null = unlimited), else the plan's default. */
export function effectiveContactCap(row: Record<string, unknown>): number | null {
  if (toBool(row.contact_cap_override)) return toIntOrNull(row.contact_cap);
  return PLAN_CONTACT_CAPS[(row.plan as Plan) ?? 'free'] ?? null;
}

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
}

type OrgEntity = InferEntity<typeof Organization>;

function toInfo(o: OrgEntity): OrganizationInfo {
  const row = { plan: o.plan, contact_cap_override: o.contactCapOverride, contact_cap: o.contactCap };
  return {
    id: o.id,
    name: o.name,
    plan: o.plan as Plan,
    billingState: o.billingState as BillingState,
    contactCap: effectiveContactCap(row),
    contactCapOverride: o.contactCapOverride,
    rateLimit: o.rateLimit ?? DEFAULT_RATE_LIMIT,
    adminEmails: o.adminEmails,
    createdAt: o.createdAt.toISOString(),
    updatedAt: o.updatedAt.toISOString(),
  };
}

function check(input: { plan?: string; billingState?: string; contactCap?: unknown; rateLimit?: unknown; name?: string }) {
  if (input.name !== undefined && (input.name.length < 1 || input.name.length > 200))
    throw new FeedbackError('ERR_VALIDATION', 'name must be 1 to 200 characters');
  if (input.plan !== undefined && !PLANS.includes(input.plan as Plan))
    throw new FeedbackError('ERR_VALIDATION', `plan must be one of ${PLANS.join(', ')}`);
  if (input.billingState !== undefined && !BILLING_STATES.includes(input.billingState as BillingState))
    throw new FeedbackError('ERR_VALIDATION', `billing must be one of ${BILLING_STATES.join(', ')}`);
  const cap = input.contactCap;
  if (typeof cap === 'number' && !(Number.isInteger(cap) && cap >= 0))
    throw new FeedbackError('ERR_VALIDATION', 'contact cap must be a non-negative integer');
  const rate = input.rateLimit;
  if (rate !== undefined && rate !== null && !(typeof rate === 'number' && Number.isInteger(rate) && rate >= 1))
    throw new FeedbackError('ERR_VALIDATION', 'rate limit must be a positive integer');
}

/** Operator-level workspace administration (the CLI's `org` commands). Ordinary ORM operations. */
export function createOrganizationsService(orm: MikroORM, clock: () => Date) {
  return {
    async create(input: CreateOrganizationInput): Promise<OrganizationInfo> {
      check(input);
      const em = orm.em.fork();
      const now = clock();
      const org = em.create(Organization, {
        id: newId('org', now.getTime()),
        name: input.name,
        plan: input.plan ?? 'free',
        billingState: 'active',
        contactCapOverride: input.contactCap !== undefined,
        contactCap: input.contactCap ?? null,
        rateLimit: input.rateLimit ?? null,
        adminEmails: input.adminEmails ?? [],
        createdAt: now,
        updatedAt: now,
      });
      await em.flush();
      return toInfo(org);
    },

    async update(id: string, input: UpdateOrganizationInput): Promise<OrganizationInfo> {
      check(input);
      const em = orm.em.fork();
      const org = await em.findOne(Organization, { id });
      if (!org) throw new FeedbackError('ERR_NOT_FOUND', `No organization with id ${id}.`);
      if (input.name !== undefined) org.name = input.name;
      if (input.plan !== undefined) org.plan = input.plan;
      if (input.billingState !== undefined) org.billingState = input.billingState;
      if (input.adminEmails !== undefined) org.adminEmails = input.adminEmails;
      if (input.rateLimit !== undefined) org.rateLimit = input.rateLimit;
      if (input.contactCap === 'default') {
        org.contactCapOverride = false;
        org.contactCap = null;
      } else if (input.contactCap !== undefined) {
        org.contactCapOverride = true;
        org.contactCap = input.contactCap;
      }
      org.updatedAt = clock();
      await em.flush();
      return toInfo(org);
    },

    async get(id: string): Promise<OrganizationInfo | null> {
      const org = await orm.em.fork().findOne(Organization, { id });
      return org ? toInfo(org) : null;
    },

    async count(): Promise<number> {
      return orm.em.fork().count(Organization, {});
    },
  };
}
export type OrganizationsService = ReturnType<typeof createOrganizationsService>;
