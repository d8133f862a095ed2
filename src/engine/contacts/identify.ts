import { type Contact, type IdentifyContactBody, identifyContactBodySchema } from '../../schemas/contacts.js';
import { namedFields, sameCompanies, toCompanyRef, upsertCompanies } from '../companies/index.js';
import {
  changeTime,
  effectiveContactCap,
  FeedbackError,
  hashEmail,
  mergeMetadata,
  parseInput,
} from '../shared/index.js';
import { companies, contacts, type Sql, type WorkspaceContext } from '../store/index.js';
import {
  type ContactRecord,
  KEPT_CHANGING,
  MAX_ROUNDS,
  newContactOf,
  type TraitPatch,
  toContact,
  traitPatch,
} from './records.js';
import { applyContactPatch, insertContact } from './write.js';

/**
 * `POST /v1/contacts/identify`: upsert by externalUserId; `created` tells 201 from 200. The hot path: one read (the
 * contact and the workspace's cap together), then one version-conditional write with its event; a concurrent writer
 * makes it read again. With `mayWrite` (REST on PostgreSQL: the request's rate-limit count, on its way while the read
 * runs), nothing is written before it resolves; it throws to refuse the request.
 */
export async function identify(
  { db, organizationId, clock }: WorkspaceContext,
  body: unknown,
  mayWrite?: () => Promise<void>,
): Promise<{ contact: Contact; created: boolean }> {
  const input = parseInput(identifyContactBodySchema, body);
  const patch = traitPatch(input);
  if (input.companies !== undefined) {
    // One read of the contact with its companies: when they are the companies named, as they are, the write is the
    // contact's alone, as without `companies`; otherwise everything in one transaction.
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const { found, companies: had } = await companies.findForIdentify(
        db,
        organizationId,
        input.externalUserId,
        namedFields(input.companies),
      );
      if (!found) throw new FeedbackError('ERR_NOT_FOUND', 'Workspace not found.');
      if (mayWrite) await mayWrite();
      if (!found.contact || !sameCompanies(had, input.companies))
        return db.transaction((tx) => identifyWithCompanies(tx, { organizationId, clock }, input, patch));
      const updated = await applyContactPatch(db, found.contact, patch, changeTime(clock, found.contact.updatedAt), {
        seen: true,
      });
      if (updated) return { contact: toContact(updated), created: false };
    }
    throw new FeedbackError('ERR_CONFLICT', KEPT_CHANGING);
  }
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const found = await contacts.findForIdentify(db, organizationId, input.externalUserId);
    if (!found) throw new FeedbackError('ERR_NOT_FOUND', 'Workspace not found.');
    if (mayWrite) await mayWrite();
    // The time is read after the read the write depends on, each attempt anew: a write's timestamps and its event's are
    // those of the attempt that lands, after the version it replaces.
    if (found.contact) {
      const updated = await applyContactPatch(db, found.contact, patch, changeTime(clock, found.contact.updatedAt), {
        seen: true,
      });
      if (updated) return { contact: toContact(updated), created: false };
      continue;
    }
    const adopted = await adopt(db, organizationId, input, patch, clock());
    if (adopted) return { contact: toContact(adopted), created: false };
    if (adopted === null) continue;
    const fields = newContactOf(
      { ...input, metadata: mergeMetadata({}, input.metadata ?? {}) },
      { source: 'identify', consentBasis: 'sdk_identify' },
    );
    const inserted = await insertContact(db, organizationId, fields, clock(), effectiveContactCap(found.cap));
    // Null: a concurrent identify inserted this externalUserId first; the next round updates it.
    if (inserted) return { contact: toContact(inserted), created: true };
  }
  throw new FeedbackError('ERR_CONFLICT', KEPT_CHANGING);
}

/**
 * The contact the workspace's user already is, without a user id yet: one with their address, made by a mailed code's
 * opt-in on the portal or by an import. Identify links it (its `contact.updated` names externalUserId, from null)
 * rather than making a second contact for one person (docs/identity.md). Undefined: none to link; null: it changed
 * meanwhile (read again).
 */
async function adopt(
  sql: Sql,
  organizationId: string,
  input: IdentifyContactBody,
  patch: TraitPatch,
  now: Date,
): Promise<ContactRecord | null | undefined> {
  if (!input.email) return undefined;
  const unlinked = (await contacts.findByEmailHash(sql, organizationId, hashEmail(input.email)!)).find(
    (c) => c.externalUserId === null,
  );
  if (!unlinked) return undefined;
  return applyContactPatch(sql, unlinked, patch, now, { seen: true });
}

/**
 * Identify with `companies`: the companies upserted, the contact written, and its companies made exactly the list, in
 * one transaction with every event (`company.created` or `.updated` for each company that changed, then
 * `contact.created`, or `contact.updated` whose `changes` name `companies` when they changed). The contact is locked
 * while its companies change.
 */
async function identifyWithCompanies(
  tx: Sql,
  { organizationId, clock }: Pick<WorkspaceContext, 'organizationId' | 'clock'>,
  input: IdentifyContactBody,
  patch: TraitPatch,
): Promise<{ contact: Contact; created: boolean }> {
  const now = clock();
  const wanted = (await upsertCompanies(tx, organizationId, input.companies ?? [], now))
    .map(({ company }) => company)
    .sort((a, b) => (a.externalCompanyId < b.externalCompanyId ? -1 : 1));
  for (let round = 0; round < 2; round++) {
    const found = await contacts.findForIdentify(tx, organizationId, input.externalUserId);
    if (!found) throw new FeedbackError('ERR_NOT_FOUND', 'Workspace not found.');
    if (!found.contact) {
      // The person's contact without a user id yet is linked (the next round sets its companies as any contact's).
      if ((await adopt(tx, organizationId, input, patch, now)) !== undefined) continue;
      const fields = newContactOf(
        { ...input, metadata: mergeMetadata({}, input.metadata ?? {}) },
        { source: 'identify', consentBasis: 'sdk_identify' },
      );
      const inserted = await insertContact(tx, organizationId, fields, now, effectiveContactCap(found.cap));
      // Null: a concurrent identify inserted this externalUserId first (and committed); the next round updates it.
      if (!inserted) continue;
      await companies.setForContact(
        tx,
        inserted.id,
        wanted.map((c) => c.id),
      );
      return { contact: toContact(inserted), created: true };
    }
    const current = (await contacts.find(tx, organizationId, found.contact.id, true)) ?? found.contact;
    const had = (await companies.ofContacts(tx, [current.id])).get(current.id) ?? [];
    const same = had.length === wanted.length && had.every((c, i) => c.id === wanted[i]!.id);
    const also = same ? undefined : { companies: { from: had.map(toCompanyRef), to: wanted.map(toCompanyRef) } };
    const updated = await applyContactPatch(
      tx,
      current,
      patch,
      changeTime(() => now, current.updatedAt),
      {
        seen: true,
        also,
      },
    );
    if (!updated) throw new FeedbackError('ERR_CONFLICT', KEPT_CHANGING);
    if (!same)
      await companies.setForContact(
        tx,
        current.id,
        wanted.map((c) => c.id),
      );
    return { contact: toContact(updated), created: false };
  }
  throw new FeedbackError('ERR_CONFLICT', KEPT_CHANGING);
}
