import { FeedbackError } from '../errors.js';
import { newId } from '../internal/ids.js';
import { toBool, toIntOrNull, toIso, toJson, ts, type Database } from '../internal/sql.js';

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

const ORG_COLUMNS =
  'id, name, plan, billing_state, contact_cap_override, contact_cap, rate_limit, admin_emails, created_at, updated_at';

function toInfo(row: Record<string, unknown>): OrganizationInfo {
  return {
    id: row.id as string,
    name: row.name as string,
    plan: row.plan as Plan,
    billingState: row.billing_state as BillingState,
    contactCap: effectiveContactCap(row),
    contactCapOverride: toBool(row.contact_cap_override),
    rateLimit: toIntOrNull(row.rate_limit) ?? DEFAULT_RATE_LIMIT,
    adminEmails: toJson<string[]>(row.admin_emails),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
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

/**
 * Operator-level workspace administration (the CLI's `org` commands). Explicit statements like the rest of
 * the engine: the ORM's unit of work turns on AsyncLocalStorage for the whole process at its first flush, which
 * makes every later await in the process (requests, deliveries) several times dearer.
 */
export function createOrganizationsService(db: Database, clock: () => Date, keyCache: { clear(): void }) {
  const read = (id: string) => db.one<Record<string, unknown>>(`SELECT ${ORG_COLUMNS} FROM organization WHERE id = ?`, [id]);
  return {
    async create(input: CreateOrganizationInput): Promise<OrganizationInfo> {
      check(input);
      const now = clock();
      const id = newId('org', now.getTime());
      await db.all(
        `INSERT INTO organization (${ORG_COLUMNS}) VALUES (?, ?, ?, 'active', ?, ?, ?, ?, ?, ?)`,
        [
          id,
          input.name,
          input.plan ?? 'free',
          input.contactCap !== undefined,
          input.contactCap ?? null,
          input.rateLimit ?? null,
          JSON.stringify(input.adminEmails ?? []),
          ts(db, now),
          ts(db, now),
        ],
      );
      return toInfo((await read(id))!);
    },

    async update(id: string, input: UpdateOrganizationInput): Promise<OrganizationInfo> {
      check(input);
      const sets: string[] = ['updated_at = ?'];
      const params: unknown[] = [ts(db, clock())];
      const set = (column: string, value: unknown) => {
        sets.push(`${column} = ?`);
        params.push(value);
      };
      if (input.name !== undefined) set('name', input.name);
      if (input.plan !== undefined) set('plan', input.plan);
      if (input.billingState !== undefined) set('billing_state', input.billingState);
      if (input.adminEmails !== undefined) set('admin_emails', JSON.stringify(input.adminEmails));
      if (input.rateLimit !== undefined) set('rate_limit', input.rateLimit);
      if (input.contactCap === 'default') {
        set('contact_cap_override', false);
        set('contact_cap', null);
      } else if (input.contactCap !== undefined) {
        set('contact_cap_override', true);
        set('contact_cap', input.contactCap);
      }
      const updated = await db.all(`UPDATE organization SET ${sets.join(', ')} WHERE id = ? RETURNING id`, [...params, id]);
      // Billing state, plan and rate limit travel with authenticated keys.
      keyCache.clear();
      if (updated.length === 0) throw new FeedbackError('ERR_NOT_FOUND', `No organization with id ${id}.`);
      return toInfo((await read(id))!);
    },

    async get(id: string): Promise<OrganizationInfo | null> {
      const row = await read(id);
      return row ? toInfo(row) : null;
    },

    async count(): Promise<number> {
      return Number((await db.one<{ n: unknown }>('SELECT count(*) AS n FROM organization'))!.n);
    },
  };
}
export type OrganizationsService = ReturnType<typeof createOrganizationsService>;
