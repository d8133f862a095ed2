import { COMPANY_FIELDS, type Company, type CompanyField, type CompanyRef } from '../../schemas/companies.js';
import type { EventCompany } from '../../schemas/events.js';
import { applyPatch, patchOf } from '../shared/index.js';
import type { companies } from '../store/index.js';

export type CompanyRecord = companies.CompanyRecord;

export const CONFLICT_MESSAGE = 'external_company_id already taken';

/** The fields a request sets: only the keys present; metadata is a patch to merge. */
export type CompanyPatch = Partial<{
  [K in CompanyField]: K extends 'metadata' ? Record<string, unknown> : CompanyRecord[K];
}>;

/** The patch a validated body carries: only the keys present. */
export const companyPatch = (body: Record<string, unknown>): CompanyPatch => patchOf(body, COMPANY_FIELDS);

export function toCompany(r: CompanyRecord, memberCount: number): Company {
  return {
    id: r.id,
    organizationId: r.organizationId,
    externalCompanyId: r.externalCompanyId,
    name: r.name,
    domain: r.domain,
    plan: r.plan,
    mrrCents: r.mrrCents,
    currency: r.currency,
    metadata: r.metadata,
    memberCount,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** The company as event payloads carry it: without organizationId and memberCount. */
export function toEventCompany(r: CompanyRecord): EventCompany {
  const { organizationId: _o, memberCount: _m, ...company } = toCompany(r, 0);
  return company;
}

export const toCompanyRef = (r: CompanyRecord): CompanyRef => ({
  id: r.id,
  externalCompanyId: r.externalCompanyId,
  name: r.name,
});

/** `current` with the patch applied, and what changed (`{ from, to }` per field); metadata merged. */
export const patched = (current: CompanyRecord, patch: CompanyPatch) => applyPatch(current, patch, COMPANY_FIELDS);

/** The fields beside externalCompanyId that any of identify's `companies` names, in one order. */
export function namedFields(inputs: readonly Record<string, unknown>[]): companies.NamedField[] {
  return NAMED_FIELDS.filter((field) => inputs.some((input) => field in input));
}
const NAMED_FIELDS = COMPANY_FIELDS.filter((f): f is companies.NamedField => f !== 'externalCompanyId');

/**
 * Whether an identify's `companies` are exactly the contact's companies as they are: then it writes none of them.
 * `had` holds the fields the inputs name (namedFields), and only those are compared.
 */
export function sameCompanies(
  had: readonly companies.NamedCompany[],
  inputs: readonly Record<string, unknown>[],
): boolean {
  if (had.length !== inputs.length) return false;
  return inputs.every((input) => {
    const current = had.find((c) => c.externalCompanyId === input.externalCompanyId);
    return (
      current !== undefined &&
      Object.keys(applyPatch(current as CompanyRecord, companyPatch(input), COMPANY_FIELDS).changes).length === 0
    );
  });
}
