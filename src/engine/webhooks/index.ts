// Webhooks: registration, the delivery log and replay, and disabling (the scheduler's delivery/ sends them).
export { createWebhooksService, type WebhooksService } from './service.js';
export { type WebhookConfig, type WebhooksContext } from './registration.js';
export { disableWebhook } from './disable.js';
