import { WEBHOOK_LIMITS } from '../../schemas/webhooks.js';
import { notifyWebhookDisabled } from '../notifications/index.js';
import { newId } from '../shared/index.js';
import { type Database, webhooks } from '../store/index.js';
import { disableWebhook } from '../webhooks/index.js';

const LIMIT = WEBHOOK_LIMITS.consecutiveFailures;

/**
 * The 50th consecutive failure disables the webhook, exactly once: the update is conditional, and re-checks the count,
 * so a success recorded meanwhile by another process wins. In the same transaction, a notice to each of the
 * workspace's admins goes into the mail outbox: the disable and its notices commit together. Whether this call
 * disabled it.
 */
export function disableAfterFailures(db: Database, webhookId: string, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await disableWebhook(tx, webhookId, now, LIMIT))) return false;
    const webhook = await webhooks.findWithAdmins(tx, webhookId);
    if (webhook)
      await notifyWebhookDisabled(
        tx,
        { organizationId: webhook.organizationId, changeId: newId('whd', now.getTime()), now },
        { id: webhookId, ...webhook },
        LIMIT,
      );
    return true;
  });
}
