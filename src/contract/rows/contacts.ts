// The contract's rows for Contacts: end-users, identified by the workspace's own user id.
import type { OperationDefinition, OperationDocs } from '../definition.js';

export const CONTACTS = {
  listContacts: {
    method: 'GET',
    path: '/v1/contacts',
    scope: 'read',
    resource: 'contacts',
    query: 'listContactsQuerySchema',
    answers: { page: 'contactPageSchema' },
    tool: 'list_contacts',
    client: 'contacts.list',
  },
  createContact: {
    method: 'POST',
    path: '/v1/contacts',
    scope: 'read:write',
    resource: 'contacts',
    body: 'createContactBodySchema',
    answers: { data: 'contactSchema', statuses: [201] },
    idempotency: 'key',
    errors: [402, 409],
    tool: 'create_contact',
    client: 'contacts.create',
  },
  identifyContact: {
    method: 'POST',
    path: '/v1/contacts/identify',
    scope: 'read:write',
    resource: 'contacts',
    body: 'identifyContactBodySchema',
    answers: { data: 'contactSchema', statuses: [200, 201] },
    idempotency: 'natural',
    errors: [402, 409],
    tool: 'identify_contact',
    client: 'contacts.identify',
    readsWhileCounting: true,
  },
  retrieveContact: {
    method: 'GET',
    path: '/v1/contacts/:contactId',
    scope: 'read',
    resource: 'contacts',
    answers: { data: 'contactDetailSchema' },
    tool: 'get_contact',
    client: 'contacts.retrieve',
  },
  updateContact: {
    method: 'PATCH',
    path: '/v1/contacts/:contactId',
    scope: 'read:write',
    resource: 'contacts',
    body: 'updateContactBodySchema',
    answers: { data: 'contactSchema' },
    errors: [409],
    tool: 'update_contact',
    client: 'contacts.update',
  },
  deleteContact: {
    method: 'DELETE',
    path: '/v1/contacts/:contactId',
    scope: 'read:write',
    resource: 'contacts',
    answers: { data: 'deletedContactSchema' },
    tool: 'delete_contact',
    client: 'contacts.delete',
  },
  listContactPosts: {
    method: 'GET',
    path: '/v1/contacts/:contactId/posts',
    scope: 'read',
    resource: 'posts',
    query: 'pageQuerySchema',
    answers: { page: 'postPageSchema' },
    tool: 'list_contact_posts',
    client: 'contacts.listPosts',
  },
} as const satisfies Record<string, OperationDefinition>;

/** What people and agents read of these operations (the OpenAPI document, the tools); the client carries none of it. */
export const CONTACT_DOCS = {
  listContacts: {
    summary: 'List contacts',
    description:
      'List the workspace contacts, newest first by default; filter with q (email or name), plan, and sort by created, last_seen or mrr. Returns a page: follow nextCursor for more.',
    title: 'List contacts',
  },
  createContact: {
    summary: 'Create a contact',
    description:
      'Create a contact. externalUserId must be new in the workspace (ERR_CONFLICT otherwise); mrrCents and currency go together. Use identifyContact to create-or-update.',
    title: 'Create a contact',
  },
  identifyContact: {
    summary: 'Create or update a contact by externalUserId',
    description:
      'Create or update the contact with this externalUserId (required), and mark it seen now. Safe to repeat.',
    title: 'Identify a contact',
  },
  retrieveContact: {
    summary: 'Retrieve a contact',
    description: 'One contact by id, with its post count.',
    title: 'Get a contact',
  },
  updateContact: {
    summary: 'Update a contact',
    description: 'Change some fields of a contact; fields not given keep their values, null clears one.',
    title: 'Update a contact',
  },
  deleteContact: {
    summary: 'Delete a contact',
    description: 'Delete a contact for good. Its posts stay, without the contact.',
    title: 'Delete a contact',
  },
  listContactPosts: {
    summary: "List a contact's posts",
    description: 'The posts a contact wrote, newest first, as a page.',
    title: "List a contact's posts",
  },
} satisfies OperationDocs<typeof CONTACTS>;
