import { createContactBodySchema, updateContactBodySchema, type Contact, type ContactDetail, type DeletedContact } from '../../schemas/contacts.js';
import { FeedbackError, parseInput } from '../errors.js';
import { readContactCap } from '../shared/caps.js';
import { applyContactPatch, CONFLICT_MESSAGE, insertContact, toContact, traitPatch } from '../shared/contacts.js';
import * as contacts from '../store/contacts.js';
import { emit } from '../store/events.js';
import * as mail from '../store/mail.js';
import type { Database, Sql } from '../store/sql.js';
import { backfill } from './backfill.js';
import { MAX_ROUNDS } from '../shared/contacts.js';
import type { WorkspaceContext } from '../shared/context.js';
import { changeTime } from '../shared/time.js';
import { identify } from './identify.js';
import { list } from './list.js';

/** Workspace-scoped contact operations. Every statement names the workspace. */
export function createContactsService(db: Database, organizationId: string, clock: () => Date) {
  const ctx: WorkspaceContext = { db, organizationId, clock };
  const org = organizationId;

  async function read(sql: Sql, id: string, lock = false) {
    const contact = await contacts.find(sql, org, id, lock);
    if (!contact) throw new FeedbackError('ERR_NOT_FOUND', `No contact with id ${id}.`);
    return contact;
  }

  return {
    /** `POST /v1/contacts`: always inserts; source `admin`, consentBasis `admin_created`. */
    async create(body: unknown): Promise<Contact> {
      const input = parseInput(createContactBodySchema, body);
      const record = await insertContact(
        db,
        org,
        {
          externalUserId: input.externalUserId ?? null,
          email: input.email ?? null,
          name: input.name ?? null,
          plan: input.plan ?? null,
          mrrCents: input.mrrCents ?? null,
          currency: input.currency ?? null,
          metadata: input.metadata ?? {},
          source: 'admin',
          consentBasis: 'admin_created',
        },
        clock(),
        await readContactCap(db, org),
      );
      if (!record) throw new FeedbackError('ERR_CONFLICT', CONFLICT_MESSAGE);
      return toContact(record);
    },

    identify: (body: unknown) => identify(ctx, body),

    backfill: (users: Parameters<typeof backfill>[1]) => backfill(ctx, users),

    /** `GET /v1/contacts/{id}` with postCount (exact) and voteCount/commentCount (by email hash). */
    async retrieve(id: string): Promise<ContactDetail> {
      const found = await contacts.findWithCounts(db, org, id);
      if (!found) throw new FeedbackError('ERR_NOT_FOUND', `No contact with id ${id}.`);
      return { ...toContact(found.contact), postCount: found.postCount, voteCount: found.voteCount, commentCount: found.commentCount };
    },

    /** `PATCH /v1/contacts/{id}`: omitted fields unchanged, null clears, metadata merged. */
    async update(id: string, body: unknown): Promise<Contact> {
      const patch = traitPatch(parseInput(updateContactBodySchema, body));
      for (let round = 0; round < MAX_ROUNDS; round++) {
        const current = await read(db, id);
        const updated = await applyContactPatch(db, current, patch, changeTime(clock, current.updatedAt), { seen: false });
        if (updated) return toContact(updated);
      }
      throw new FeedbackError('ERR_CONFLICT', 'The contact kept changing concurrently; retry the request.');
    },

    /** `DELETE /v1/contacts/{id}`: attached posts stay, with contactId null; mail not yet sent to it is cancelled. */
    async delete(id: string): Promise<DeletedContact> {
      await db.transaction(async (tx) => {
        const current = await read(tx, id, true);
        const now = changeTime(clock, current.updatedAt);
        await contacts.remove(tx, id);
        await mail.cancelPending(tx, org, id, now);
        await emit(tx, { event: 'contact.deleted', organizationId: org, contact: { id, externalUserId: current.externalUserId } }, now);
      });
      return { id, deleted: true };
    },

    list: (query?: Parameters<typeof list>[1]) => list(ctx, query),
  };
}
export type ContactsService = ReturnType<typeof createContactsService>;
