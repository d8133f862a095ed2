import type { Plan } from '../../schemas/plans.js';

export { BILLING_STATES, PLANS, type BillingState, type Plan } from '../../schemas/plans.js';

/** Contact cap per plan when the organization does not override it; null is unlimited. */
export const PLAN_CONTACT_CAPS: Record<Plan, number | null> = { free: 1000, paid: null };
/** Requests per minute per key unless the workspace sets its own. */
export const DEFAULT_RATE_LIMIT = 600;
