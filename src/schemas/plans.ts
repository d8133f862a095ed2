// A workspace's plan and billing state. Plain lists, no zod: the command line validates its flags against them
// without loading a schema library or the engine.
export const PLANS = ['free', 'paid'] as const;
export type Plan = (typeof PLANS)[number];
export const BILLING_STATES = ['active', 'read_only'] as const;
export type BillingState = (typeof BILLING_STATES)[number];
