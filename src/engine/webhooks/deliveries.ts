import type { Page } from '../../schemas/common.js';
import { type PageQueryInput, pageQuerySchema } from '../../schemas/posts.js';
import type { Delivery } from '../../schemas/webhooks.js';
import { FeedbackError, isId, isTime, newId, parseInput, readCursor, toPage } from '../shared/index.js';
import { deliveries, type Sql, type WorkspaceContext, webhooks } from '../store/index.js';

/** A webhook of the workspace, or 404; locked for the transaction with `lock`. */
export async function requireWebhook(sql: Sql, organizationId: string, id: string, lock = false) {
  const webhook = await webhooks.find(sql, organizationId, id, lock);
  if (!webhook) throw new FeedbackError('ERR_NOT_FOUND', `No webhook with id ${id}.`);
  return webhook;
}

/** One delivery of the workspace with its attempts. */
export async function retrieveDelivery({ db, organizationId }: WorkspaceContext, id: string): Promise<Delivery> {
  const delivery = await deliveries.find(db, organizationId, id);
  if (!delivery) throw new FeedbackError('ERR_NOT_FOUND', `No delivery with id ${id}.`);
  return delivery;
}

/** `GET /v1/webhooks/{id}/deliveries`: newest first, keyset pages on (createdAt, eventId, id), each with every attempt. */
export async function listDeliveries(
  { db, organizationId }: WorkspaceContext,
  webhookId: string,
  query: PageQueryInput = {},
): Promise<Page<Delivery>> {
  const q = parseInput(pageQuerySchema, query);
  const key = readCursor(q.cursor, 'deliveries', (k) => k.length === 3 && isTime(k[0]) && isId(k[1]) && isId(k[2]));
  await requireWebhook(db, organizationId, webhookId);
  const rows = await deliveries.listForWebhook(
    db,
    webhookId,
    q.limit + 1,
    key && { at: key[0] as number, eventId: key[1] as string, id: key[2] as string },
  );
  return toPage(rows, q.limit, 'deliveries', (last) => [Date.parse(last.createdAt), last.eventId, last.id]);
}

/**
 * `POST /v1/webhooks/{webhookId}/deliveries/{deliveryId}/replay`: a fresh delivery of the original payload with a
 * new id, due now. Refused (409) while the webhook is disabled or no longer subscribes to the event's kind.
 */
export async function replayDelivery(ctx: WorkspaceContext, webhookId: string, deliveryId: string): Promise<Delivery> {
  const { db, organizationId, clock } = ctx;
  const id = await db.transaction(async (tx) => {
    const webhook = await requireWebhook(tx, organizationId, webhookId, true);
    const original = await deliveries.findEvent(tx, webhookId, deliveryId);
    if (!original)
      throw new FeedbackError('ERR_NOT_FOUND', `No delivery with id ${deliveryId} for webhook ${webhookId}.`);
    if (!webhook.enabled)
      throw new FeedbackError('ERR_CONFLICT', 'This webhook is disabled: enable it, then send the delivery again.', {
        reason: 'webhook_disabled',
      });
    if (!webhook.events.includes(original.eventType))
      throw new FeedbackError('ERR_CONFLICT', `The webhook no longer subscribes to ${original.eventType}.`, {
        reason: 'event_not_subscribed',
        event: original.eventType,
      });
    const now = clock();
    const replay = newId('dlv', now.getTime());
    await deliveries.insertReplay(
      tx,
      {
        id: replay,
        organizationId,
        webhookId,
        eventId: original.eventId,
        eventType: original.eventType,
        replayOf: deliveryId,
      },
      now,
    );
    return replay;
  });
  return retrieveDelivery(ctx, id);
}
