import { dataSchema } from '../../schemas/common.js';
import { pageQuerySchema } from '../../schemas/posts.js';
import {
  createWebhookBodySchema,
  createdWebhookSchema,
  deletedWebhookSchema,
  deliveryPageSchema,
  deliverySchema,
  updateWebhookBodySchema,
  webhookPageSchema,
  webhookSchema,
} from '../../schemas/webhooks.js';
import type { CreateWebhookBody, UpdateWebhookBody } from '../../schemas/webhooks.js';
import { defineRoute } from '../internal/route.js';

export const webhookRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v1/webhooks',
    doc: {
      operationId: 'createWebhook',
      summary: 'Register a webhook (the response carries its signing secret, once)',
      body: createWebhookBodySchema,
      responses: { 201: dataSchema(createdWebhookSchema) },
      errors: [402],
    },
    scope: 'read:write',
    body: true,
    handler: async ({ workspace, body }) => ({ status: 201, body: { data: await workspace.webhooks.create(body as CreateWebhookBody) } }),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/webhooks',
    doc: { operationId: 'listWebhooks', summary: 'List webhooks', query: pageQuerySchema, responses: { 200: webhookPageSchema } },
    scope: 'read',
    handler: async ({ workspace, query }) => ({ body: await workspace.webhooks.list(query) }),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/webhooks/:webhookId',
    doc: { operationId: 'retrieveWebhook', summary: 'Retrieve a webhook', responses: { 200: dataSchema(webhookSchema) } },
    scope: 'read',
    handler: async ({ workspace, params }) => ({ body: { data: await workspace.webhooks.retrieve(params.webhookId!) } }),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/webhooks/:webhookId',
    doc: { operationId: 'updateWebhook', summary: 'Update or re-enable a webhook', body: updateWebhookBodySchema, responses: { 200: dataSchema(webhookSchema) } },
    scope: 'read:write',
    body: true,
    handler: async ({ workspace, params, body }) => ({ body: { data: await workspace.webhooks.update(params.webhookId!, body as UpdateWebhookBody) } }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/webhooks/:webhookId',
    doc: { operationId: 'deleteWebhook', summary: 'Delete a webhook and its deliveries', responses: { 200: dataSchema(deletedWebhookSchema) } },
    scope: 'read:write',
    handler: async ({ workspace, params }) => ({ body: { data: await workspace.webhooks.delete(params.webhookId!) } }),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/webhooks/:webhookId/deliveries',
    doc: {
      operationId: 'listWebhookDeliveries',
      summary: "List a webhook's deliveries, newest first, with their attempts",
      query: pageQuerySchema,
      responses: { 200: deliveryPageSchema },
    },
    scope: 'read',
    handler: async ({ workspace, params, query }) => ({ body: await workspace.webhooks.listDeliveries(params.webhookId!, query) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/webhooks/:webhookId/deliveries/:deliveryId/replay',
    doc: {
      operationId: 'replayWebhookDelivery',
      summary: 'Replay a delivery as a new delivery of the same payload',
      responses: { 201: dataSchema(deliverySchema) },
      errors: [409],
    },
    scope: 'read:write',
    handler: async ({ workspace, params }) => ({
      status: 201,
      body: { data: await workspace.webhooks.replayDelivery(params.webhookId!, params.deliveryId!) },
    }),
  }),
];
