import { defineRoute } from '../internal/route.js';

export const contactRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/contacts',
    scope: 'read',
    handler: async ({ workspace, query }) => ({ body: await workspace.contacts.list(query) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/contacts',
    scope: 'read:write',
    body: true,
    handler: async ({ workspace, body }) => ({ status: 201, body: { data: await workspace.contacts.create(body) } }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/contacts/identify',
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
    scope: 'read',
    handler: async ({ workspace, params }) => ({ body: { data: await workspace.contacts.retrieve(params.contactId!) } }),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/contacts/:contactId',
    scope: 'read:write',
    body: true,
    handler: async ({ workspace, params, body }) => ({
      body: { data: await workspace.contacts.update(params.contactId!, body) },
    }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/contacts/:contactId',
    scope: 'read:write',
    handler: async ({ workspace, params }) => ({ body: { data: await workspace.contacts.delete(params.contactId!) } }),
  }),
];
