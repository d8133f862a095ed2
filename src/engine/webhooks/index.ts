// Webhooks: registration, the delivery log and replay, and disabling (the scheduler's delivery/ sends them).

export { createWebhookActions } from './actions.js';
export { disableWebhook } from './disable.js';
export type { WebhookConfig, WebhooksContext } from './registration.js';
export { createWebhooksService, WEBHOOK_OPERATIONS, type WebhooksService } from './service.js';
