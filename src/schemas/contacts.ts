import { z } from 'zod';
import { cursorSchema, pageLimitSchema, pageSchema, timestampSchema } from './common.js';
import { companyRefSchema, identifyCompaniesSchema } from './companies.js';
import { checkMrrPairing, contactPlanSchema, currencySchema, metadataSchema, mrrCentsSchema } from './traits.js';

export {
  checkMrrPairing,
  contactPlanSchema,
  currencySchema,
  MAX_METADATA_KEYS,
  MAX_MRR_CENTS,
  metadataSchema,
  mrrCentsSchema,
} from './traits.js';

/** Open enum: consumers must accept values added in minor releases. */
export const CONTACT_SOURCES = ['identify', 'admin', 'public_post', 'public_vote', 'public_comment'] as const;
export const CONSENT_BASES = ['sdk_identify', 'public_interaction_opt_in', 'admin_created', 'legacy_inferred'] as const;
export type ContactSource = (typeof CONTACT_SOURCES)[number];
export type ConsentBasis = (typeof CONSENT_BASES)[number];

/** The trait fields: the ones whose change emits `contact.updated`. */
export const CONTACT_TRAIT_FIELDS = [
  'externalUserId',
  'email',
  'name',
  'plan',
  'mrrCents',
  'currency',
  'metadata',
  'locale',
] as const;
export type ContactTraitField = (typeof CONTACT_TRAIT_FIELDS)[number];

export const externalUserIdSchema = z.string().min(1).max(255);
export const emailSchema = z.email().max(320);
export const contactNameSchema = z.string().min(1).max(200);
/** A BCP 47 language tag (`de`, `pt-BR`): the language the person reads the portal and its mail in. */
export const localeTagSchema = z
  .string()
  .min(2)
  .max(35)
  .refine((tag) => {
    try {
      return Intl.getCanonicalLocales(tag).length === 1;
    } catch {
      return false;
    }
  }, 'must be a BCP 47 language tag, e.g. de or pt-BR')
  .describe('The language the person reads the portal and its mail in (BCP 47, e.g. de or pt-BR).');
const traitShape = {
  email: emailSchema.nullable().optional(),
  name: contactNameSchema.nullable().optional(),
  plan: contactPlanSchema.nullable().optional(),
  mrrCents: mrrCentsSchema.nullable().optional(),
  currency: currencySchema.nullable().optional(),
  metadata: metadataSchema.optional(),
  locale: localeTagSchema.nullable().optional(),
};

/** Body of `POST /v1/contacts`. */
export const createContactBodySchema = z
  .strictObject({ externalUserId: externalUserIdSchema.optional(), ...traitShape })
  .superRefine((v, ctx) => checkMrrPairing(v, ctx));
export type CreateContactBody = z.infer<typeof createContactBodySchema>;

/**
 * Body of `POST /v1/contacts/identify`. `companies`, when given, are upserted by `externalCompanyId` and become the
 * contact's companies exactly (`[]` takes them all away); without the key, the contact's companies stay as they are.
 */
export const identifyContactBodySchema = z
  .strictObject({ externalUserId: externalUserIdSchema, ...traitShape, companies: identifyCompaniesSchema.optional() })
  .superRefine((v, ctx) => checkMrrPairing(v, ctx));
export type IdentifyContactBody = z.infer<typeof identifyContactBodySchema>;

/** Body of `PATCH /v1/contacts/{contactId}`. */
export const updateContactBodySchema = z
  .strictObject({ externalUserId: externalUserIdSchema.nullable().optional(), ...traitShape })
  .superRefine((v, ctx) => checkMrrPairing(v, ctx));
export type UpdateContactBody = z.infer<typeof updateContactBodySchema>;

export const CONTACT_SORTS = ['created', 'last_seen', 'mrr'] as const;
export type ContactSort = (typeof CONTACT_SORTS)[number];

/** `plan` filter: repeated or comma-separated, exact and case-sensitive. */
const planFilterSchema = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : [v]).flatMap((s) => s.split(',')).filter((s) => s.length > 0))
  .pipe(z.array(contactPlanSchema).min(1, 'plan must name at least one plan').max(100, 'at most 100 plans'));

/** Query of `GET /v1/contacts`. */
export const listContactsQuerySchema = z.strictObject({
  q: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('Contacts whose email or name contains this text (case-insensitive).'),
  sort: z
    .enum(CONTACT_SORTS)
    .default('created')
    .describe('created and last_seen newest first, mrr highest first (default created).'),
  plan: planFilterSchema.optional().describe('Only contacts on these plans: repeat it or separate plans with commas.'),
  cursor: cursorSchema.optional(),
  limit: pageLimitSchema,
});
export type ListContactsQuery = z.infer<typeof listContactsQuerySchema>;
export type ListContactsQueryInput = z.input<typeof listContactsQuerySchema>;

/** A contact, as create, identify, update and read return it. */
export const contactSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  externalUserId: z.string().nullable(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  plan: z.string().nullable(),
  mrrCents: z.number().int().nullable(),
  currency: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  /** The language the person reads the portal and its mail in (BCP 47), or null: their browser's, else the workspace's. */
  locale: z.string().nullable(),
  /** Open enum: see CONTACT_SOURCES. */
  source: z.string(),
  /** Open enum: see CONSENT_BASES. */
  consentBasis: z.string(),
  firstSeenAt: timestampSchema,
  lastSeenAt: timestampSchema,
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type Contact = z.infer<typeof contactSchema>;

/** A contact as the reads (list, retrieve) give it: with its post count and the companies it belongs to. */
export const contactListItemSchema = contactSchema.extend({
  postCount: z.number().int(),
  companies: z.array(companyRefSchema),
});
export type ContactListItem = z.infer<typeof contactListItemSchema>;

export const contactDetailSchema = contactListItemSchema.extend({
  voteCount: z.number().int(),
  commentCount: z.number().int(),
});
export type ContactDetail = z.infer<typeof contactDetailSchema>;

export const contactPageSchema = pageSchema(contactListItemSchema);

export const deletedContactSchema = z.object({ id: z.string(), deleted: z.literal(true) });
export type DeletedContact = z.infer<typeof deletedContactSchema>;
