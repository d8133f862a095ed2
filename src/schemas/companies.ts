import { z } from 'zod';
import { cursorSchema, pageLimitSchema, pageSchema, timestampSchema } from './common.js';
import { checkMrrPairing, contactPlanSchema, currencySchema, metadataSchema, mrrCentsSchema } from './traits.js';

/** How many companies one contact may belong to. */
export const MAX_COMPANIES_PER_CONTACT = 10;

/** The company fields whose change emits `company.updated`. */
export const COMPANY_FIELDS = [
  'externalCompanyId',
  'name',
  'domain',
  'plan',
  'mrrCents',
  'currency',
  'metadata',
] as const;
export type CompanyField = (typeof COMPANY_FIELDS)[number];

export const externalCompanyIdSchema = z.string().min(1).max(255);
export const companyNameSchema = z.string().min(1).max(200);
/** A domain name (`acme.com`), kept in lower case. */
export const companyDomainSchema = z
  .string()
  .max(253)
  .regex(
    /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/i,
    'domain must be a domain name such as acme.com',
  )
  .transform((d) => d.toLowerCase());

const companyShape = {
  name: companyNameSchema.nullable().optional(),
  domain: companyDomainSchema.nullable().optional(),
  plan: contactPlanSchema.nullable().optional(),
  mrrCents: mrrCentsSchema.nullable().optional(),
  currency: currencySchema.nullable().optional(),
  metadata: metadataSchema.optional(),
};

/**
 * Body of `POST /v1/companies`, and each of identify's `companies`: upsert by `externalCompanyId`; fields not given keep
 * their values, null clears one, `metadata` merges (a null value removes its key).
 */
export const upsertCompanyBodySchema = z
  .strictObject({ externalCompanyId: externalCompanyIdSchema, ...companyShape })
  .superRefine((v, ctx) => checkMrrPairing(v, ctx));
export type UpsertCompanyBody = z.infer<typeof upsertCompanyBodySchema>;

/** Body of `PATCH /v1/companies/{companyId}`. */
export const updateCompanyBodySchema = z
  .strictObject({ externalCompanyId: externalCompanyIdSchema.optional(), ...companyShape })
  .superRefine((v, ctx) => checkMrrPairing(v, ctx));
export type UpdateCompanyBody = z.infer<typeof updateCompanyBodySchema>;

/** Identify's `companies`: the contact's companies, exactly (`[]` takes them all away), each upserted. */
export const identifyCompaniesSchema = z
  .array(upsertCompanyBodySchema)
  .max(MAX_COMPANIES_PER_CONTACT, `a contact belongs to at most ${MAX_COMPANIES_PER_CONTACT} companies`)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((c, i) => {
      if (seen.has(c.externalCompanyId))
        ctx.addIssue({
          code: 'custom',
          path: [i, 'externalCompanyId'],
          message: `externalCompanyId ${c.externalCompanyId} is listed twice`,
          params: { code: 'duplicate' },
        });
      seen.add(c.externalCompanyId);
    });
  });

export const COMPANY_SORTS = ['created', 'mrr'] as const;
export type CompanySort = (typeof COMPANY_SORTS)[number];

/** Query of `GET /v1/companies`. */
export const listCompaniesQuerySchema = z.strictObject({
  q: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('Companies whose name or domain contains this text (case-insensitive).'),
  sort: z
    .enum(COMPANY_SORTS)
    .default('created')
    .describe('created newest first, mrr highest first (companies without revenue last); default created.'),
  cursor: cursorSchema.optional(),
  limit: pageLimitSchema,
});
export type ListCompaniesQuery = z.infer<typeof listCompaniesQuerySchema>;
export type ListCompaniesQueryInput = z.input<typeof listCompaniesQuerySchema>;

/** A company: one paying account of the workspace's customer, with the contacts who belong to it. */
export const companySchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  externalCompanyId: z.string(),
  name: z.string().nullable(),
  domain: z.string().nullable(),
  plan: z.string().nullable(),
  mrrCents: z.number().int().nullable(),
  currency: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  /** How many contacts belong to it. */
  memberCount: z.number().int(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type Company = z.infer<typeof companySchema>;

export const companyPageSchema = pageSchema(companySchema);

export const deletedCompanySchema = z.object({ id: z.string(), deleted: z.literal(true) });
export type DeletedCompany = z.infer<typeof deletedCompanySchema>;

/** A company as a contact's reads name it. */
export const companyRefSchema = z.object({
  id: z.string(),
  externalCompanyId: z.string(),
  name: z.string().nullable(),
});
export type CompanyRef = z.infer<typeof companyRefSchema>;
