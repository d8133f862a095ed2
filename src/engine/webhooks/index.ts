export { createWebhooksService, type WebhookConfig, type WebhooksService } from './service.js';
