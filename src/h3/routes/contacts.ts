import {
  contactDetailSchema,
  contactPageSchema,
  contactSchema,
  createContactBodySchema,
  deletedContactSchema,
  identifyContactBodySchema,
  listContactsQuerySchema,
  updateContactBodySchema,
} from '../../schemas/contacts.js';
import { dataSchema } from '../../schemas/common.js';
import { defineRoute } from '../internal/route.js';

export const contactRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/contacts',
    doc: { operationId: 'listContacts', summary: 'List contacts', query: listContactsQuerySchema, responses: { 200: contactPageSchema } },
    scope: 'read',
    handler: async ({ workspace, query }) => ({ body: await workspace.contacts.list(query) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/contacts',
    doc: { operationId: 'createContact', summary: 'Create a contact', body: createContactBodySchema, responses: { 201: dataSchema(contactSchema) }, errors: [402, 409] },
    scope: 'read:write',
    body: true,
    handler: async ({ workspace, body }) => ({ status: 201, body: { data: await workspace.contacts.create(body) } }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/contacts/identify',
    doc: {
      operationId: 'identifyContact',
      summary: 'Create or update a contact by externalUserId',
      body: identifyContactBodySchema,
      responses: { 200: dataSchema(contactSchema), 201: dataSchema(contactSchema) },
      errors: [402, 409],
    },
    scope: 'read:write',
    body: true,
    handler: async ({ workspace, body }) => {
      const { contact, created } = await workspace.contacts.identify(body);
      return { status: created ? 201 : 200, body: { data: contact } };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/contacts/:contactId',
    doc: { operationId: 'retrieveContact', summary: 'Retrieve a contact', responses: { 200: dataSchema(contactDetailSchema) } },
    scope: 'read',
    handler: async ({ workspace, params }) => ({ body: { data: await workspace.contacts.retrieve(params.contactId!) } }),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/contacts/:contactId',
    doc: { operationId: 'updateContact', summary: 'Update a contact', body: updateContactBodySchema, responses: { 200: dataSchema(contactSchema) }, errors: [409] },
    scope: 'read:write',
    body: true,
    handler: async ({ workspace, params, body }) => ({
      body: { data: await workspace.contacts.update(params.contactId!, body) },
    }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/contacts/:contactId',
    doc: { operationId: 'deleteContact', summary: 'Delete a contact', responses: { 200: dataSchema(deletedContactSchema) } },
    scope: 'read:write',
    handler: async ({ workspace, params }) => ({ body: { data: await workspace.contacts.delete(params.contactId!) } }),
  }),
];
