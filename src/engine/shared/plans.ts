import type { Plan } from '../../schemas/plans.js';

export { BILLING_STATES, type BillingState, PLANS, type Plan } from '../../schemas/plans.js';

/** Contact cap per plan when the organization does not override it; null is unlimited. */
export const PLAN_CONTACT_CAPS: Record<Plan, number | null> = { free: 1000, paid: null };
/** Requests per minute per key unless the workspace sets its own. */
export const DEFAULT_RATE_LIMIT = 600;

/** A workspace's cap columns: its plan, and whether and how it overrides the plan's cap. */
export interface CapColumns {
  plan: string;
  contactCapOverride: boolean;
  contactCap: number | null;
}

/** The contact cap in force: the override when set (null = unlimited), else the plan's default. */
export function effectiveContactCap(org: CapColumns): number | null {
  if (org.contactCapOverride) return org.contactCap;
  return PLAN_CONTACT_CAPS[org.plan as Plan] ?? null;
}
