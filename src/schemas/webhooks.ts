import { z } from 'zod';
import { pageSchema, timestampSchema } from './common.js';
import { eventKindSchema, webhookEventSchema } from './events.js';

/** Limits of the webhook resource (spec: Limits; decisions: Webhooks). */
export const WEBHOOK_LIMITS = Object.freeze({
  /** Webhooks per workspace (402 ERR_PLAN_LIMIT, resource "webhook"). */
  perWorkspace: 25,
  /** Attempts per delivery before it is terminal. */
  attempts: 5,
  /** Consecutive failed attempts, across deliveries, that disable a webhook. */
  consecutiveFailures: 50,
  /** Per-attempt receiver time-out. */
  timeoutMs: 10_000,
  /** Bytes of the receiver's response body kept in the attempt log. */
  responseBodyBytes: 1024,
  urlLength: 2048,
  descriptionLength: 500,
});

/**
 * Wait before attempt n (index n - 1): immediate, 30 s, 2 min, 10 min, 1 h (spec: Delivery and retries).
 */
export const RETRY_SCHEDULE_MS = Object.freeze([0, 30_000, 120_000, 600_000, 3_600_000] as const);

/**
 * A receiver address: `http` or `https`, no credentials, at most 2048 characters. Whether its host is a
 * public address is checked by the engine (it needs DNS).
 */
export const webhookUrlSchema = z
  .string()
  .max(WEBHOOK_LIMITS.urlLength, `url must be at most ${WEBHOOK_LIMITS.urlLength} characters`)
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({
        code: 'custom',
        message: 'url must be an absolute http or https URL',
        params: { code: 'invalid_url' },
      });
      return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      ctx.addIssue({ code: 'custom', message: 'url must use http or https', params: { code: 'invalid_url' } });
    else if (url.username !== '' || url.password !== '')
      ctx.addIssue({ code: 'custom', message: 'url must not carry credentials', params: { code: 'invalid_url' } });
  });

/** A non-empty list of known event kinds; repeats are folded. */
export const webhookEventsSchema = z
  .array(eventKindSchema)
  .min(1, 'events must list at least one event kind')
  .transform((kinds) => [...new Set(kinds)]);

export const webhookDescriptionSchema = z
  .string()
  .max(WEBHOOK_LIMITS.descriptionLength, `description must be at most ${WEBHOOK_LIMITS.descriptionLength} characters`);

/** `POST /v1/webhooks` body. */
export const createWebhookBodySchema = z.strictObject({
  url: webhookUrlSchema,
  events: webhookEventsSchema,
  description: webhookDescriptionSchema.nullable().optional(),
});
export type CreateWebhookBody = z.input<typeof createWebhookBodySchema>;

/** `PATCH /v1/webhooks/{id}` body: `enabled: true` re-enables and resets the failure counter. */
export const updateWebhookBodySchema = z.strictObject({
  url: webhookUrlSchema.optional(),
  events: webhookEventsSchema.optional(),
  description: webhookDescriptionSchema.nullable().optional(),
  enabled: z.boolean().optional(),
});
export type UpdateWebhookBody = z.input<typeof updateWebhookBodySchema>;

/** A webhook as every read returns it; the signing secret is never part of it. */
export const webhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  /** The subscribed event kinds, in the order of the Events table. */
  events: z.array(eventKindSchema),
  description: z.string().nullable(),
  enabled: z.boolean(),
  /** When the 50th consecutive failure disabled it; null while enabled. */
  disabledAt: timestampSchema.nullable(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type Webhook = z.infer<typeof webhookSchema>;

/** The registration response: the webhook plus its signing secret, shown this once. */
export const createdWebhookSchema = webhookSchema.extend({
  /** `whsec_` + 32 random bytes in base64url; the HMAC key is this whole string. */
  secret: z.string(),
});
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export const deliveryStatusSchema = z.enum(DELIVERY_STATUSES);
export type DeliveryStatus = z.infer<typeof deliveryStatusSchema>;

/** Why a delivery failed for good. */
export const DELIVERY_FAILURE_REASONS = ['attempts_exhausted', 'webhook_disabled'] as const;
export const deliveryFailureReasonSchema = z.enum(DELIVERY_FAILURE_REASONS);

/** One attempt of a delivery, as the log keeps it. */
export const deliveryAttemptSchema = z.object({
  /** 1 to 5. */
  number: z.number().int(),
  attemptedAt: timestampSchema,
  /** The receiver's status code; null when no response came (network error, time-out, refused address). */
  statusCode: z.number().int().nullable(),
  /** Why the attempt failed without a 2xx: null on success. */
  error: z.string().nullable(),
  durationMs: z.number().int(),
  /** The first 1 KiB of the response body (UTF-8), null when there was none. */
  responseBody: z.string().nullable(),
});
export type DeliveryAttempt = z.infer<typeof deliveryAttemptSchema>;

/** A delivery of one event to one webhook, with every attempt so far. */
export const deliverySchema = z.object({
  id: z.string(),
  webhookId: z.string(),
  /** The event kind (`X-Service-Event`). */
  event: eventKindSchema,
  eventId: z.string(),
  status: deliveryStatusSchema,
  /** The exact payload sent on every attempt. */
  payload: webhookEventSchema,
  /** When the next attempt is due; null once the delivery is final. */
  nextAttemptAt: timestampSchema.nullable(),
  succeededAt: timestampSchema.nullable(),
  failedAt: timestampSchema.nullable(),
  failureReason: deliveryFailureReasonSchema.nullable(),
  /** The delivery this one replays, if it is a replay. */
  replayOf: z.string().nullable(),
  createdAt: timestampSchema,
  attempts: z.array(deliveryAttemptSchema),
});
export type Delivery = z.infer<typeof deliverySchema>;

export const webhookPageSchema = pageSchema(webhookSchema);
export const deliveryPageSchema = pageSchema(deliverySchema);
export const deletedWebhookSchema = z.object({ id: z.string(), deleted: z.literal(true) });
