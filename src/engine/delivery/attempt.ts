import { RETRY_SCHEDULE_MS } from '../../schemas/webhooks.js';
import { signPayload, WEBHOOK_HEADERS } from '../../verify/node.js';
import { type SecretBox, sealedAt } from '../secrets/index.js';
import type { deliveryClaims } from '../store/index.js';
import type { AttemptOutcome, Sender } from './sender.js';

type Held = deliveryClaims.Held;

export type { Held };

/** One delivery attempt, as the server logs and counts it. */
export interface AttemptReport {
  webhookId: string;
  deliveryId: string;
  eventType: string;
  /** 1 to 5. */
  attempt: number;
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** No attempt follows: it succeeded, or it was the last. */
  final: boolean;
}

/** What the recorder writes for one held delivery. */
export interface Result {
  id: string;
  token: string;
  webhookId: string;
  /** null: the webhook was disabled before the attempt; the delivery ends without one. */
  attempt: (AttemptOutcome & { number: number; attemptedAt: Date; nextAt: Date | null }) | null;
}

/**
 * One attempt: the payload's exact bytes, signed at this attempt's time (so a late retry still passes a receiver's
 * 300 s window), with the next attempt's time from the retry schedule.
 */
export async function attemptDelivery(
  d: Held,
  sender: Sender,
  clock: () => Date,
  signingSecret: (d: Held) => string,
): Promise<Result> {
  if (!d.enabled) return { id: d.id, token: d.token, webhookId: d.webhookId, attempt: null };
  const number = d.attemptCount + 1;
  const attemptedAt = clock();
  const outcome = await send(d, sender, attemptedAt, signingSecret);
  const wait = RETRY_SCHEDULE_MS[number];
  const nextAt = outcome.ok || wait === undefined ? null : new Date(clock().getTime() + wait);
  // Field by field: a spread followed by more properties takes a slow path in V8 (about 2 us, per delivery).
  const { ok, statusCode, error, durationMs, responseBody } = outcome;
  return {
    id: d.id,
    token: d.token,
    webhookId: d.webhookId,
    attempt: { ok, statusCode, error, durationMs, responseBody, number, attemptedAt, nextAt },
  };
}

/** Send one attempt, signed with the webhook's secret; a secret no configured key opens is a failed attempt, unsent. */
async function send(
  d: Held,
  sender: Sender,
  attemptedAt: Date,
  signingSecret: (d: Held) => string,
): Promise<AttemptOutcome> {
  let secret: string;
  try {
    secret = signingSecret(d);
  } catch (err) {
    // A key rotation left out a key: the attempt fails, visibly in the deliveries log, and is retried on schedule.
    return {
      ok: false,
      statusCode: null,
      error: `not sent: ${(err as Error).message}`,
      durationMs: 0,
      responseBody: null,
    };
  }
  return sender.send(
    d.url,
    deliveryHeaders(d.eventType, d.id, await signPayload(secret, d.payload, Math.floor(attemptedAt.getTime() / 1000))),
    d.payload,
  );
}

/**
 * The headers of a delivery's attempt (spec: Webhooks): what the sender sends, and what the console shows of an
 * attempt (with its signature's value left out: it is the body's HMAC under the signing secret).
 */
export function deliveryHeaders(event: string, deliveryId: string, signature: string): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': 'Service-Webhooks/1.0',
    [WEBHOOK_HEADERS.event]: event,
    [WEBHOOK_HEADERS.delivery]: deliveryId,
    [WEBHOOK_HEADERS.signature]: signature,
  };
}

/**
 * The signing secret of a held delivery, opened from its sealed form. Opened secrets are remembered by their sealed
 * form (a bounded map), so a busy webhook is not decrypted at every attempt; a resealed or new secret is a new entry.
 */
export function createSecretOpener(secrets: SecretBox, capacity = 1024): (d: Held) => string {
  const opened = new Map<string, string>();
  return (d) => {
    // Keyed by the webhook too: a sealed value opens only for the webhook it was sealed for.
    const cacheKey = `${d.webhookId} ${d.secret}`;
    let secret = opened.get(cacheKey);
    if (secret === undefined) {
      secret = secrets.open(d.secret, sealedAt.webhookSecret(d.webhookId));
      if (opened.size >= capacity) opened.delete(opened.keys().next().value!);
      opened.set(cacheKey, secret);
    }
    return secret;
  };
}
