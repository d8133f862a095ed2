// The language a person reads the portal in (docs/portal.md, "Languages"): kept on their contact, so that their mail
// speaks it too. Their choice on the portal changes it, with `contact.updated`, as identify would.
import { applyContactPatch } from '../contacts/index.js';
import { hashEmail } from '../shared/index.js';
import { contacts } from '../store/index.js';
import type { PortalContext, PortalIdentity } from './participants.js';

const whoOf = (identity: PortalIdentity) => ({
  externalUserId: identity.externalUserId,
  emailHash: hashEmail(identity.email)!,
});

/** The language tag on the person's contact, if they have one and it has one. */
export async function personLocale(ctx: PortalContext, identity: PortalIdentity): Promise<string | null> {
  return (await contacts.personOf(ctx.db, ctx.organizationId, whoOf(identity)))?.locale ?? null;
}

/**
 * The person chose a language on the portal: their contact keeps it (a person without a contact yet keeps it in
 * their browser only). Written as any trait change is, conditional on the contact's version, tried again if it moved.
 */
export async function chooseLocale(ctx: PortalContext, identity: PortalIdentity, locale: string): Promise<void> {
  const person = await contacts.personOf(ctx.db, ctx.organizationId, whoOf(identity));
  if (!person || person.locale === locale) return;
  for (let round = 0; round < 5; round++) {
    const current = await contacts.find(ctx.db, ctx.organizationId, person.id);
    if (!current || current.locale === locale) return;
    if (await applyContactPatch(ctx.db, current, { locale }, ctx.clock(), { seen: false })) return;
  }
}
