import {
  type Contact,
  type ContactDetail,
  type DeletedContact,
  updateContactBodySchema,
} from '../../schemas/contacts.js';
import { toCompanyRef } from '../companies/index.js';
import { changeTime, FeedbackError, parseInput } from '../shared/index.js';
import { companies, contacts, emit, mail, type Sql, type WorkspaceContext } from '../store/index.js';
import { type ContactRecord, KEPT_CHANGING, MAX_ROUNDS, toContact, traitPatch } from './records.js';
import { applyContactPatch } from './write.js';

async function read(sql: Sql, organizationId: string, id: string, lock = false): Promise<ContactRecord> {
  const contact = await contacts.find(sql, organizationId, id, lock);
  if (!contact) throw new FeedbackError('ERR_NOT_FOUND', `No contact with id ${id}.`);
  return contact;
}

/** `GET /v1/contacts/{id}` with postCount (exact) and voteCount/commentCount (by email hash). */
export async function retrieve({ db, organizationId }: WorkspaceContext, id: string): Promise<ContactDetail> {
  const found = await contacts.findWithCounts(db, organizationId, id);
  if (!found) throw new FeedbackError('ERR_NOT_FOUND', `No contact with id ${id}.`);
  const memberships = await companies.ofContacts(db, [id]);
  return {
    ...toContact(found.contact),
    postCount: found.postCount,
    companies: (memberships.get(id) ?? []).map(toCompanyRef),
    voteCount: found.voteCount,
    commentCount: found.commentCount,
  };
}

/** `PATCH /v1/contacts/{id}`: omitted fields unchanged, null clears, metadata merged. */
export async function update(
  { db, organizationId, clock }: WorkspaceContext,
  id: string,
  body: unknown,
): Promise<Contact> {
  const patch = traitPatch(parseInput(updateContactBodySchema, body));
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const current = await read(db, organizationId, id);
    const updated = await applyContactPatch(db, current, patch, changeTime(clock, current.updatedAt), { seen: false });
    if (updated) return toContact(updated);
  }
  throw new FeedbackError('ERR_CONFLICT', KEPT_CHANGING);
}

/** `DELETE /v1/contacts/{id}`: attached posts stay, with contactId null; mail not yet sent to it is cancelled. */
export async function remove({ db, organizationId, clock }: WorkspaceContext, id: string): Promise<DeletedContact> {
  await db.transaction(async (tx) => {
    const current = await read(tx, organizationId, id, true);
    const now = changeTime(clock, current.updatedAt);
    await contacts.remove(tx, id);
    await mail.cancelPending(tx, organizationId, id, now);
    await emit(
      tx,
      { event: 'contact.deleted', organizationId, contact: { id, externalUserId: current.externalUserId } },
      now,
    );
  });
  return { id, deleted: true };
}
