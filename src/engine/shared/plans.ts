export const PLANS = ['free', 'paid'] as const;
export type Plan = (typeof PLANS)[number];
export const BILLING_STATES = ['active', 'read_only'] as const;
export type BillingState = (typeof BILLING_STATES)[number];

/** Contact cap per plan when the organization does not override it; null is unlimited. */
export const PLAN_CONTACT_CAPS: Record<Plan, number | null> = { free: 1000, paid: null };
/** Requests per minute per key unless the workspace sets its own. */
export const DEFAULT_RATE_LIMIT = 600;
