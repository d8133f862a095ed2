import { deliveries, type Sql, webhooks } from '../store/index.js';

/**
 * Disable a webhook at most once, in the caller's transaction, and end its pending deliveries as failed with reason
 * `webhook_disabled` (they can be replayed once it is enabled again). `minFailures`: only when it has at least that
 * many consecutive failures (the scheduler's 50th; a success recorded meanwhile wins). Whether this call disabled it.
 */
export async function disableWebhook(tx: Sql, webhookId: string, now: Date, minFailures = 0): Promise<boolean> {
  if (!(await webhooks.disable(tx, webhookId, now, minFailures))) return false;
  await deliveries.endPending(tx, webhookId, now);
  return true;
}
