import type { ListContactsQueryInput } from '../../schemas/contacts.js';
import type { BackfillUser } from '../../schemas/interactions.js';
import type { PageQueryInput } from '../../schemas/posts.js';
import { answer, type Bindings } from '../shared/index.js';
import { contactLists, type WorkspaceContext } from '../store/index.js';
import { activity } from './activity.js';
import { backfill } from './backfill.js';
import { remove, retrieve, update } from './change.js';
import { create } from './create.js';
import { identify } from './identify.js';
import { list, listForCompany } from './list.js';

/** A workspace's contacts: each method one module's `(context, input)` function. Built once per workspace. */
export function createContactsService(ctx: WorkspaceContext) {
  return {
    /** `POST /v1/contacts`: always inserts; source `admin`, consentBasis `admin_created`. */
    create: (body: unknown) => create(ctx, body),
    /** `POST /v1/contacts/identify`: upsert by externalUserId; `created` tells 201 from 200; `mayWrite` gates its writes. */
    identify: (body: unknown, mayWrite?: () => Promise<void>) => identify(ctx, body, mayWrite),
    /** Import historical end-users as `legacy_inferred` contacts. */
    backfill: (users: readonly BackfillUser[]) => backfill(ctx, users),
    /** `GET /v1/contacts/{id}` with its counts. */
    retrieve: (id: string) => retrieve(ctx, id),
    /** `PATCH /v1/contacts/{id}`. */
    update: (id: string, body: unknown) => update(ctx, id, body),
    /** `DELETE /v1/contacts/{id}`. */
    delete: (id: string) => remove(ctx, id),
    /** A contact's page in the console: the contact with its counts, and their newest posts, votes and comments. */
    activity: (id: string) => activity(ctx, id),
    /** `GET /v1/companies/{id}/contacts`. */
    listForCompany: (companyId: string, query?: PageQueryInput) => listForCompany(ctx, companyId, query),
    /** `GET /v1/contacts`. */
    list: (query?: ListContactsQueryInput, options?: { currency?: string }) => list(ctx, query, options),
    /** The currencies the workspace's paying contacts pay in, alphabetically. */
    currencies: () => contactLists.currencies(ctx.db, ctx.organizationId),
  };
}
export type ContactsService = ReturnType<typeof createContactsService>;

/** The contract's contact operations, on this service. */
export const CONTACT_OPERATIONS = {
  listContacts: (contacts, { input }) => answer(contacts.list(input)),
  createContact: (contacts, { input }) => answer(contacts.create(input)),
  identifyContact: async (contacts, { input, mayWrite }) => {
    const { contact, created } = await contacts.identify(input, mayWrite);
    return { value: contact, created };
  },
  retrieveContact: (contacts, { params }) => answer(contacts.retrieve(params.contactId!)),
  updateContact: (contacts, { params, input }) => answer(contacts.update(params.contactId!, input)),
  deleteContact: (contacts, { params }) => answer(contacts.delete(params.contactId!)),
  listCompanyContacts: (contacts, { params, input }) => answer(contacts.listForCompany(params.companyId!, input)),
} satisfies Bindings<ContactsService>;
