import type { Page } from '../../schemas/common.js';
import { type PageQueryInput, pageQuerySchema } from '../../schemas/posts.js';
import type { CreateWebhookBody, UpdateWebhookBody, Webhook } from '../../schemas/webhooks.js';
import { answer, type Bindings, pageByCreation, parseInput } from '../shared/index.js';
import { type WorkspaceContext, webhooks } from '../store/index.js';
import { listDeliveries, replayDelivery, requireWebhook, retrieveDelivery } from './deliveries.js';
import { create, remove, update, type WebhooksContext } from './registration.js';

/** `GET /v1/webhooks`: oldest first, keyset pages on (createdAt, id). */
export async function list(
  { db, organizationId }: WorkspaceContext,
  query: PageQueryInput = {},
): Promise<Page<Webhook>> {
  const page = pageByCreation('webhooks', parseInput(pageQuerySchema, query));
  return page((limit, after) => webhooks.list(db, organizationId, limit, after));
}

/** A workspace's webhooks: registration, reads, changes, the delivery log and replay. Built once per workspace. */
export function createWebhooksService(ctx: WebhooksContext) {
  return {
    /** `POST /v1/webhooks`: the secret is in this response and nowhere else, ever. */
    create: (body: CreateWebhookBody) => create(ctx, body),
    list: (query?: PageQueryInput) => list(ctx, query),
    /** `GET /v1/webhooks/{id}` (without the secret). */
    retrieve: (id: string): Promise<Webhook> => requireWebhook(ctx.db, ctx.organizationId, id),
    update: (id: string, body: UpdateWebhookBody) => update(ctx, id, body),
    delete: (id: string) => remove(ctx, id),
    listDeliveries: (webhookId: string, query?: PageQueryInput) => listDeliveries(ctx, webhookId, query),
    retrieveDelivery: (id: string) => retrieveDelivery(ctx, id),
    replayDelivery: (webhookId: string, deliveryId: string) => replayDelivery(ctx, webhookId, deliveryId),
    /** Each webhook's consecutive failed attempts, by id (the console shows how close one is to being disabled, and why it was). */
    failureCounts: () => webhooks.failureCounts(ctx.db, ctx.organizationId),
  };
}
export type WebhooksService = ReturnType<typeof createWebhooksService>;

/** The contract's webhook operations, on this service (the bodies were checked against their schemas). */
export const WEBHOOK_OPERATIONS = {
  createWebhook: (webhooks, { input }) => answer(webhooks.create(input as CreateWebhookBody)),
  listWebhooks: (webhooks, { input }) => answer(webhooks.list(input)),
  retrieveWebhook: (webhooks, { params }) => answer(webhooks.retrieve(params.webhookId!)),
  updateWebhook: (webhooks, { params, input }) =>
    answer(webhooks.update(params.webhookId!, input as UpdateWebhookBody)),
  deleteWebhook: (webhooks, { params }) => answer(webhooks.delete(params.webhookId!)),
  listWebhookDeliveries: (webhooks, { params, input }) => answer(webhooks.listDeliveries(params.webhookId!, input)),
  replayWebhookDelivery: (webhooks, { params }) =>
    answer(webhooks.replayDelivery(params.webhookId!, params.deliveryId!)),
} satisfies Bindings<WebhooksService>;
