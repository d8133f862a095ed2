import { randomBytes } from 'node:crypto';
import type { Page } from '../../schemas/common.js';
import { pageQuerySchema, type PageQueryInput } from '../../schemas/posts.js';
import {
  WEBHOOK_LIMITS,
  createWebhookBodySchema,
  updateWebhookBodySchema,
  type CreateWebhookBody,
  type CreatedWebhook,
  type UpdateWebhookBody,
  type Webhook,
} from '../../schemas/webhooks.js';
import { FeedbackError, parseInput, validationError } from '../errors.js';
import { checkReceiverUrl } from '../shared/addresses.js';
import { newId } from '../shared/ids.js';
import { readCursor, toPage } from '../shared/pages.js';
import { changeTime } from '../shared/time.js';
import { disableWebhook } from '../shared/webhooks.js';
import * as organizations from '../store/organizations.js';
import { sealedAt } from '../sealing.js';
import type { SecretBox } from '../secrets.js';
import type { Database } from '../store/sql.js';
import * as webhooks from '../store/webhooks.js';
import type { WorkspaceContext } from '../shared/context.js';
import { listDeliveries, replayDelivery, requireWebhook, retrieveDelivery } from './deliveries.js';

export interface WebhookConfig {
  /** Accept receivers on loopback and private networks (tests, local development). */
  allowPrivateNetworks: boolean;
  /** Seals the signing secret before it is stored. */
  secrets: SecretBox;
}

/** Workspace-scoped webhooks: registration, reads, changes, the delivery log and replay. */
export function createWebhooksService(db: Database, organizationId: string, clock: () => Date, config: WebhookConfig) {
  const ctx: WorkspaceContext = { db, organizationId, clock };

  async function assertReachable(url: string): Promise<void> {
    if (config.allowPrivateNetworks) return;
    const refusal = await checkReceiverUrl(url);
    if (refusal) throw validationError([{ path: 'url', code: 'url_not_public', message: refusal }]);
  }

  return {
    /** `POST /v1/webhooks`: paid plans only, at most 25 per workspace. The secret is in this response and nowhere else, ever. */
    async create(body: CreateWebhookBody): Promise<CreatedWebhook> {
      const input = parseInput(createWebhookBodySchema, body);
      await assertReachable(input.url);
      const now = clock().toISOString();
      const webhook: Webhook = {
        id: newId('wh', Date.parse(now)),
        url: input.url,
        events: input.events,
        description: input.description ?? null,
        enabled: true,
        disabledAt: null,
        createdAt: now,
        updatedAt: now,
      };
      const secret = `whsec_${randomBytes(32).toString('base64url')}`;
      await db.transaction(async (tx) => {
        // The workspace's row lock serializes registrations, so the count below cannot be raced past 25.
        const org = await organizations.lockForLimits(tx, organizationId);
        if (!org) throw new FeedbackError('ERR_NOT_FOUND', `No organization with id ${organizationId}.`);
        if (org.plan !== 'paid') throw new FeedbackError('ERR_PLAN_LIMIT', 'Webhooks need a paid plan.', { resource: 'webhook', limit: 0, current: 0 });
        const count = await webhooks.count(tx, organizationId);
        if (count >= WEBHOOK_LIMITS.perWorkspace)
          throw new FeedbackError('ERR_PLAN_LIMIT', `A workspace can have at most ${WEBHOOK_LIMITS.perWorkspace} webhooks.`, {
            resource: 'webhook',
            limit: WEBHOOK_LIMITS.perWorkspace,
            current: count,
          });
        await webhooks.insert(tx, organizationId, webhook, config.secrets.seal(secret, sealedAt.webhookSecret(webhook.id)));
      });
      return { ...webhook, secret };
    },

    /** `GET /v1/webhooks`: oldest first, keyset pages on (createdAt, id). */
    async list(query: PageQueryInput = {}): Promise<Page<Webhook>> {
      const q = parseInput(pageQuerySchema, query);
      const key = readCursor(q.cursor, 'webhooks');
      const rows = await webhooks.list(db, organizationId, q.limit + 1, key && { at: key[0] as number, id: key[1] as string });
      return toPage(rows, q.limit, 'webhooks', (last) => [Date.parse(last.createdAt), last.id]);
    },

    /** `GET /v1/webhooks/{id}` (without the secret). */
    retrieve: (id: string): Promise<Webhook> => requireWebhook(db, organizationId, id),

    /**
     * `PATCH /v1/webhooks/{id}`: `url`, `events`, `description`, `enabled`. `enabled: true` re-enables and resets the
     * failure counter; `enabled: false` disables as the 50th failure would (pending deliveries end as failed, reason
     * `webhook_disabled`, and can be replayed once it is enabled again).
     */
    async update(id: string, body: UpdateWebhookBody): Promise<Webhook> {
      const input = parseInput(updateWebhookBodySchema, body);
      if (input.url !== undefined) await assertReachable(input.url);
      return db.transaction(async (tx) => {
        const current = await requireWebhook(tx, organizationId, id, true);
        const now = changeTime(clock, current.updatedAt);
        await webhooks.update(
          tx,
          id,
          { url: input.url, events: input.events, description: input.description, resetFailures: input.enabled === true, enable: input.enabled === true && !current.enabled },
          now,
        );
        if (input.enabled === false) await disableWebhook(tx, id, now);
        return requireWebhook(tx, organizationId, id);
      });
    },

    /** `DELETE /v1/webhooks/{id}`: the webhook, its deliveries and their log; in-flight attempts are not recorded. */
    async delete(id: string): Promise<{ id: string; deleted: true }> {
      if (!(await webhooks.remove(db, organizationId, id))) throw new FeedbackError('ERR_NOT_FOUND', `No webhook with id ${id}.`);
      return { id, deleted: true };
    },

    listDeliveries: (webhookId: string, query?: PageQueryInput) => listDeliveries(ctx, webhookId, query),
    retrieveDelivery: (id: string) => retrieveDelivery(ctx, id),
    replayDelivery: (webhookId: string, deliveryId: string) => replayDelivery(ctx, webhookId, deliveryId),
  };
}
export type WebhooksService = ReturnType<typeof createWebhooksService>;
