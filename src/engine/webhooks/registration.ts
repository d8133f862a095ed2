import { randomBytes } from 'node:crypto';
import {
  type CreatedWebhook,
  type CreateWebhookBody,
  createWebhookBodySchema,
  type UpdateWebhookBody,
  updateWebhookBodySchema,
  WEBHOOK_LIMITS,
  type Webhook,
} from '../../schemas/webhooks.js';
import { type SecretBox, sealedAt } from '../secrets/index.js';
import { changeTime, checkReceiverUrl, FeedbackError, newId, parseInput, validationError } from '../shared/index.js';
import { organizations, type Sql, type WorkspaceContext, webhooks } from '../store/index.js';
import { requireWebhook } from './deliveries.js';
import { disableWebhook } from './disable.js';

export interface WebhookConfig {
  /** Accept receivers on loopback and private networks (tests, local development). */
  allowPrivateNetworks: boolean;
  /** Seals the signing secret before it is stored. */
  secrets: SecretBox;
}

/** What the webhook operations run with: the workspace, and the server's webhook settings. */
export interface WebhooksContext extends WorkspaceContext {
  webhooks: WebhookConfig;
}

async function assertReachable(config: WebhookConfig, url: string): Promise<void> {
  if (config.allowPrivateNetworks) return;
  const refusal = await checkReceiverUrl(url);
  if (refusal) throw validationError([{ path: 'url', code: 'url_not_public', message: refusal }]);
}

/** Paid plans only, at most 25 per workspace; the workspace's row lock serializes registrations, so the count cannot be raced past 25. */
async function assertRoom(tx: Sql, organizationId: string): Promise<void> {
  const org = await organizations.lockForLimits(tx, organizationId);
  if (!org) throw new FeedbackError('ERR_NOT_FOUND', `No organization with id ${organizationId}.`);
  if (org.plan !== 'paid')
    throw new FeedbackError('ERR_PLAN_LIMIT', 'Webhooks need a paid plan.', {
      resource: 'webhook',
      limit: 0,
      current: 0,
    });
  const count = await webhooks.count(tx, organizationId);
  if (count >= WEBHOOK_LIMITS.perWorkspace)
    throw new FeedbackError('ERR_PLAN_LIMIT', `A workspace can have at most ${WEBHOOK_LIMITS.perWorkspace} webhooks.`, {
      resource: 'webhook',
      limit: WEBHOOK_LIMITS.perWorkspace,
      current: count,
    });
}

/** `POST /v1/webhooks`: paid plans only, at most 25 per workspace. The secret is in this response and nowhere else, ever. */
export async function create(ctx: WebhooksContext, body: CreateWebhookBody): Promise<CreatedWebhook> {
  const input = parseInput(createWebhookBodySchema, body);
  await assertReachable(ctx.webhooks, input.url);
  const now = ctx.clock().toISOString();
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
  await ctx.db.transaction(async (tx) => {
    await assertRoom(tx, ctx.organizationId);
    await webhooks.insert(
      tx,
      ctx.organizationId,
      webhook,
      ctx.webhooks.secrets.seal(secret, sealedAt.webhookSecret(webhook.id)),
    );
  });
  return { ...webhook, secret };
}

/**
 * `PATCH /v1/webhooks/{id}`: `url`, `events`, `description`, `enabled`. `enabled: true` re-enables and resets the
 * failure counter; `enabled: false` disables as the 50th failure would (pending deliveries end as failed, reason
 * `webhook_disabled`, and can be replayed once it is enabled again).
 */
export async function update(ctx: WebhooksContext, id: string, body: UpdateWebhookBody): Promise<Webhook> {
  const input = parseInput(updateWebhookBodySchema, body);
  if (input.url !== undefined) await assertReachable(ctx.webhooks, input.url);
  return ctx.db.transaction(async (tx) => {
    const current = await requireWebhook(tx, ctx.organizationId, id, true);
    const now = changeTime(ctx.clock, current.updatedAt);
    const changes = {
      url: input.url,
      events: input.events,
      description: input.description,
      resetFailures: input.enabled === true,
      enable: input.enabled === true && !current.enabled,
    };
    await webhooks.update(tx, id, changes, now);
    if (input.enabled === false) await disableWebhook(tx, id, now);
    return requireWebhook(tx, ctx.organizationId, id);
  });
}

/** `DELETE /v1/webhooks/{id}`: the webhook, its deliveries and their log; in-flight attempts are not recorded. */
export async function remove(
  { db, organizationId }: WorkspaceContext,
  id: string,
): Promise<{ id: string; deleted: true }> {
  if (!(await webhooks.remove(db, organizationId, id)))
    throw new FeedbackError('ERR_NOT_FOUND', `No webhook with id ${id}.`);
  return { id, deleted: true };
}
