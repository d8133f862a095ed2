import type { CreateWebhookBody, UpdateWebhookBody } from '../../schemas/webhooks.js';
import { defineRoute } from '../internal/route.js';

export const webhookRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v1/webhooks',
    scope: 'read:write',
    body: true,
    handler: async ({ workspace, body }) => ({ status: 201, body: { data: await workspace.webhooks.create(body as CreateWebhookBody) } }),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/webhooks',
    scope: 'read',
    handler: async ({ workspace, query }) => ({ body: await workspace.webhooks.list(query) }),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/webhooks/:webhookId',
    scope: 'read',
    handler: async ({ workspace, params }) => ({ body: { data: await workspace.webhooks.retrieve(params.webhookId!) } }),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/webhooks/:webhookId',
    scope: 'read:write',
    body: true,
    handler: async ({ workspace, params, body }) => ({ body: { data: await workspace.webhooks.update(params.webhookId!, body as UpdateWebhookBody) } }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/webhooks/:webhookId',
    scope: 'read:write',
    handler: async ({ workspace, params }) => ({ body: { data: await workspace.webhooks.delete(params.webhookId!) } }),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/webhooks/:webhookId/deliveries',
    scope: 'read',
    handler: async ({ workspace, params, query }) => ({ body: await workspace.webhooks.listDeliveries(params.webhookId!, query) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/webhooks/:webhookId/deliveries/:deliveryId/replay',
    scope: 'read:write',
    handler: async ({ workspace, params }) => ({
      status: 201,
      body: { data: await workspace.webhooks.replayDelivery(params.webhookId!, params.deliveryId!) },
    }),
  }),
];
