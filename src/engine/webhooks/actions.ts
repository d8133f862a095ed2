import type { CreateWebhookBody, UpdateWebhookBody } from '../../schemas/webhooks.js';
import { type Actor, actAs, auditOf } from '../members/index.js';
import type { WebhooksContext } from './registration.js';
import { createWebhooksService } from './service.js';

/** A workspace's webhooks, as one team member (or the command line): owners and admins, each change audited. */
export function createWebhookActions(ctx: WebhooksContext, actor: Actor) {
  const audit = auditOf('webhook');
  return {
    /** The secret is in this result and nowhere else. */
    create: (body: CreateWebhookBody) =>
      actAs(ctx, actor, 'manage', async (inner) => {
        const webhook = await createWebhooksService(inner).create(body);
        return {
          result: webhook,
          audit: audit('webhook.created', webhook.id, { url: webhook.url, events: webhook.events }),
        };
      }),
    /** As PATCH: `enabled: true` re-enables and resets the failure counter. */
    update: (webhookId: string, body: UpdateWebhookBody) =>
      actAs(ctx, actor, 'manage', async (inner) => {
        const webhook = await createWebhooksService(inner).update(webhookId, body);
        const action =
          body.enabled === true ? 'webhook.enabled' : body.enabled === false ? 'webhook.disabled' : 'webhook.updated';
        return { result: webhook, audit: audit(action, webhookId, { fields: Object.keys(body) }) };
      }),
    delete: (webhookId: string) =>
      actAs(ctx, actor, 'manage', async (inner) => ({
        result: await createWebhooksService(inner).delete(webhookId),
        audit: audit('webhook.deleted', webhookId),
      })),
    replay: (webhookId: string, deliveryId: string) =>
      actAs(ctx, actor, 'manage', async (inner) => {
        const delivery = await createWebhooksService(inner).replayDelivery(webhookId, deliveryId);
        return {
          result: delivery,
          audit: audit('webhook.delivery_replayed', webhookId, { delivery: deliveryId, replay: delivery.id }),
        };
      }),
  };
}
