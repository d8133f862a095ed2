// The contract's rows for Webhooks: receivers of signed event deliveries.
import type { OperationDefinition, OperationDocs } from '../definition.js';

export const WEBHOOKS = {
  createWebhook: {
    method: 'POST',
    path: '/v1/webhooks',
    scope: 'read:write',
    resource: 'webhooks',
    body: 'createWebhookBodySchema',
    answers: { data: 'createdWebhookSchema', statuses: [201] },
    idempotency: 'key',
    errors: [402],
    tool: 'create_webhook',
    client: 'webhooks.create',
  },
  listWebhooks: {
    method: 'GET',
    path: '/v1/webhooks',
    scope: 'read',
    resource: 'webhooks',
    query: 'pageQuerySchema',
    answers: { page: 'webhookPageSchema' },
    tool: 'list_webhooks',
    client: 'webhooks.list',
  },
  retrieveWebhook: {
    method: 'GET',
    path: '/v1/webhooks/:webhookId',
    scope: 'read',
    resource: 'webhooks',
    answers: { data: 'webhookSchema' },
    tool: 'get_webhook',
    client: 'webhooks.retrieve',
  },
  updateWebhook: {
    method: 'PATCH',
    path: '/v1/webhooks/:webhookId',
    scope: 'read:write',
    resource: 'webhooks',
    body: 'updateWebhookBodySchema',
    answers: { data: 'webhookSchema' },
    tool: 'update_webhook',
    client: 'webhooks.update',
  },
  deleteWebhook: {
    method: 'DELETE',
    path: '/v1/webhooks/:webhookId',
    scope: 'read:write',
    resource: 'webhooks',
    answers: { data: 'deletedWebhookSchema' },
    tool: 'delete_webhook',
    client: 'webhooks.delete',
  },
  listWebhookDeliveries: {
    method: 'GET',
    path: '/v1/webhooks/:webhookId/deliveries',
    scope: 'read',
    resource: 'webhooks',
    query: 'pageQuerySchema',
    answers: { page: 'deliveryPageSchema' },
    tool: 'list_webhook_deliveries',
    client: 'webhooks.listDeliveries',
  },
  replayWebhookDelivery: {
    method: 'POST',
    path: '/v1/webhooks/:webhookId/deliveries/:deliveryId/replay',
    scope: 'read:write',
    resource: 'webhooks',
    answers: { data: 'deliverySchema', statuses: [201] },
    idempotency: 'key',
    errors: [409],
    tool: 'replay_webhook_delivery',
    client: 'webhooks.replayDelivery',
  },
} as const satisfies Record<string, OperationDefinition>;

/** What people and agents read of these operations (the OpenAPI document, the tools); the client carries none of it. */
export const WEBHOOK_DOCS = {
  createWebhook: {
    summary: 'Register a webhook (the response carries its signing secret, once)',
    description:
      'Register a receiver url (public http or https) for a list of event kinds. Paid plans only. The result carries the signing secret, shown this once.',
    title: 'Create a webhook',
  },
  listWebhooks: {
    summary: 'List webhooks',
    description: 'The workspace webhooks (receivers of signed event deliveries), as a page.',
    title: 'List webhooks',
  },
  retrieveWebhook: {
    summary: 'Retrieve a webhook',
    description: 'One webhook: url, subscribed events, whether it is enabled.',
    title: 'Get a webhook',
  },
  updateWebhook: {
    summary: 'Update or re-enable a webhook',
    description:
      'Change url, events or description; enabled true re-enables a disabled webhook and resets its failure count.',
    title: 'Update a webhook',
  },
  deleteWebhook: {
    summary: 'Delete a webhook and its deliveries',
    description: 'Delete a webhook with its deliveries and their log.',
    title: 'Delete a webhook',
  },
  listWebhookDeliveries: {
    summary: "List a webhook's deliveries, newest first, with their attempts",
    description:
      'Deliveries of a webhook, newest first, each with its status and every attempt (status code, error, duration).',
    title: "List a webhook's deliveries",
  },
  replayWebhookDelivery: {
    summary: 'Replay a delivery as a new delivery of the same payload',
    description:
      'Send a past delivery again as a new delivery with the same payload. Refused while the webhook is disabled or no longer subscribes to the event.',
    title: 'Replay a delivery',
  },
} satisfies OperationDocs<typeof WEBHOOKS>;
