import { WEBHOOK_LIMITS } from '../../schemas/webhooks.js';
import { disableWebhook } from '../shared/webhooks.js';
import type { Database } from '../store/sql.js';
import * as webhooks from '../store/webhooks.js';
import type { Mailer } from './mailer.js';

const LIMIT = WEBHOOK_LIMITS.consecutiveFailures;

/**
 * The 50th consecutive failure disables the webhook, exactly once: the update is conditional, and re-checks the count,
 * so a success recorded meanwhile by another process wins. Whether this call disabled it.
 */
export function disableAfterFailures(db: Database, webhookId: string, now: Date): Promise<boolean> {
  return db.transaction((tx) => disableWebhook(tx, webhookId, now, LIMIT));
}

/** Email the workspace's admins that a webhook was disabled (once: only the disabling call gets here). */
export async function notifyDisabled(db: Database, mailer: Mailer, webhookId: string, log: (message: string, error?: unknown) => void): Promise<void> {
  try {
    const webhook = await webhooks.findWithAdmins(db, webhookId);
    if (!webhook) return;
    await mailer.send({
      to: webhook.adminEmails,
      subject: `Webhook disabled after ${LIMIT} failed deliveries: ${webhook.url}`,
      text:
        `The webhook ${webhookId} (${webhook.url}) of workspace "${webhook.name}" (${webhook.organizationId}) was disabled after ` +
        `${LIMIT} consecutive failed delivery attempts.\n\n` +
        `Its pending deliveries were ended as failed (reason webhook_disabled). Once the receiver works again, re-enable it with\n` +
        `PATCH /v1/webhooks/${webhookId} {"enabled": true}\n` +
        `and replay the deliveries you need with POST /v1/webhooks/${webhookId}/deliveries/{deliveryId}/replay.\n`,
    });
  } catch (err) {
    log(`[feedback-service] could not notify the admins that webhook ${webhookId} was disabled`, err);
  }
}
