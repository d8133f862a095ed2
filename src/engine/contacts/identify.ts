import { type Contact, identifyContactBodySchema } from '../../schemas/contacts.js';
import { changeTime, effectiveContactCap, FeedbackError, parseInput } from '../shared/index.js';
import { contacts, type WorkspaceContext } from '../store/index.js';
import { KEPT_CHANGING, MAX_ROUNDS, mergeMetadata, newContactOf, toContact, traitPatch } from './records.js';
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
