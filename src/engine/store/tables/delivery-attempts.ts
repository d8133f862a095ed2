import { defineEntity, p } from '@mikro-orm/core';
import { Delivery } from './deliveries.js';

/** One attempt of a delivery, as the log shows it. */
export const DeliveryAttempt = defineEntity({
  name: 'DeliveryAttempt',
  tableName: 'delivery_attempt',
  properties: {
    delivery: () => p.manyToOne(Delivery).primary().deleteRule('cascade'),
    number: p.integer().primary(),
    attemptedAt: p.datetime().length(3),
    statusCode: p.integer().nullable(),
    error: p.string().length(500).nullable(),
    durationMs: p.integer(),
    responseBody: p.text().nullable(),
  },
});
