import {
  CONTACT_TRAIT_FIELDS,
  type ConsentBasis,
  type Contact,
  type ContactSource,
  type ContactTraitField,
} from '../../schemas/contacts.js';
import type { EventContact } from '../../schemas/events.js';
import { canonicalTag } from '../i18n/index.js';
import { patchOf } from '../shared/index.js';
import type { contacts } from '../store/index.js';

export type ContactRecord = contacts.ContactRecord;

export const CONFLICT_MESSAGE = 'external_user_id already taken';
/** Optimistic rounds before giving up: each round, one of the concurrent writers of a contact wins. */
export const MAX_ROUNDS = 20;
export const KEPT_CHANGING = 'The contact kept changing concurrently; retry the request.';

type Traits = Pick<ContactRecord, ContactTraitField>;
/** The traits a request sets: only the keys present; metadata is a patch to merge. */
export type TraitPatch = Partial<{
  [K in ContactTraitField]: K extends 'metadata' ? Record<string, unknown> : Traits[K];
}>;

export interface NewContact
  extends Pick<
    ContactRecord,
    'externalUserId' | 'email' | 'name' | 'plan' | 'mrrCents' | 'currency' | 'metadata' | 'locale'
  > {
  source: ContactSource;
  consentBasis: ConsentBasis;
  firstSeenAt?: Date;
  lastSeenAt?: Date;
}

export function toContact(r: ContactRecord): Contact {
  return {
    id: r.id,
    organizationId: r.organizationId,
    externalUserId: r.externalUserId,
    email: r.email,
    name: r.name,
    plan: r.plan,
    mrrCents: r.mrrCents,
    currency: r.currency,
    metadata: r.metadata,
    locale: r.locale,
    source: r.source,
    consentBasis: r.consentBasis,
    firstSeenAt: r.firstSeenAt.toISOString(),
    lastSeenAt: r.lastSeenAt.toISOString(),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** The contact as event payloads carry it: the contact without email and organizationId. */
export function toEventContact(r: ContactRecord): EventContact {
  const { email: _email, organizationId: _organizationId, ...contact } = toContact(r);
  return contact;
}

/** The trait patch a validated body carries: only the keys present. */
export function traitPatch(body: Record<string, unknown>): TraitPatch {
  const patch: TraitPatch = patchOf(body, CONTACT_TRAIT_FIELDS);
  // A language tag as we keep it: in its canonical case (`pt-br` as `pt-BR`).
  if (typeof patch.locale === 'string') patch.locale = canonicalTag(patch.locale) ?? patch.locale;
  return patch;
}

/** The fields of a new contact from a validated body: what it omits is null (metadata: empty). */
export function newContactOf(
  input: {
    externalUserId?: string | null;
    email?: string | null;
    name?: string | null;
    plan?: string | null;
    mrrCents?: number | null;
    currency?: string | null;
    metadata?: Record<string, unknown>;
    locale?: string | null;
  },
  provenance: { source: ContactSource; consentBasis: ConsentBasis },
): NewContact {
  return {
    externalUserId: input.externalUserId ?? null,
    email: input.email ?? null,
    name: input.name ?? null,
    plan: input.plan ?? null,
    mrrCents: input.mrrCents ?? null,
    currency: input.currency ?? null,
    metadata: input.metadata ?? {},
    locale: input.locale ? (canonicalTag(input.locale) ?? null) : null,
    source: provenance.source,
    consentBasis: provenance.consentBasis,
  };
}
