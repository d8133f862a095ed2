import type { HmacBackend } from './crypto.js';
import type { DedupeStore } from './dedupe.js';
import { WebhookVerificationError } from './errors.js';
import type { EventKind, WebhookEvent } from './events.js';

/** The delivery headers, named as the server sends them. Header names are case-insensitive; the constants below are the lower-case forms receivers look up. */
export const WEBHOOK_HEADERS = Object.freeze({
  event: 'X-Service-Event',
  delivery: 'X-Service-Delivery',
  signature: 'X-Service-Signature',
} as const);
export const SIGNATURE_HEADER = 'x-service-signature' satisfies Lowercase<typeof WEBHOOK_HEADERS.signature>;
export const DELIVERY_HEADER = 'x-service-delivery' satisfies Lowercase<typeof WEBHOOK_HEADERS.delivery>;
export const EVENT_HEADER = 'x-service-event' satisfies Lowercase<typeof WEBHOOK_HEADERS.event>;
/** Receivers reject timestamps further than this from now, in either direction. */
export const DEFAULT_TOLERANCE_SECONDS = 300;
/** How long a delivery id stays claimed: our retries span 1 h 12 min; a day covers unacknowledged successes. */
export const DEFAULT_DEDUPE_RETENTION_SECONDS = 24 * 60 * 60;

/** The raw body exactly as received. A parsed object cannot be verified. */
export type RawBody = string | Uint8Array | ArrayBuffer;
export type HeadersLike = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** The webhook's signing secret (`whsec_...`), used whole as the HMAC key. */
  secret: string;
  /** Seconds a timestamp may differ from now. Default 300. */
  tolerance?: number;
  /** The clock, epoch milliseconds. */
  now?: () => number;
  /** A dedupe store, or false to skip deduplication. Default: none (pass one to enable). */
  dedupe?: DedupeStore | false;
  /** Seconds a delivery id stays claimed. Default 86,400. */
  retention?: number;
}

export interface VerifiedWebhook<E extends WebhookEvent = WebhookEvent> {
  /** The parsed payload, one of the eight event kinds. */
  event: E;
  /** `X-Service-Delivery`: unique per delivery, the dedupe key. */
  deliveryId: string;
  /** The signed body's `event` (`X-Service-Event` must agree with it). */
  eventKind: EventKind;
  /** The signature's timestamp (unix seconds). */
  timestamp: number;
}

const HEADER_PATTERN = /^t=(0|[1-9][0-9]{0,15}),v1=([0-9a-f]{64})$/;

/** Parse `t=<digits>,v1=<64 lowercase hex>` strictly: anything else is malformed. */
export function parseSignatureHeader(header: string): { timestamp: number; signature: string } {
  const match = HEADER_PATTERN.exec(header);
  if (!match) {
    throw new WebhookVerificationError(
      'malformed_header',
      'X-Service-Signature must be exactly t=<unix seconds>,v1=<64 lowercase hex characters>.',
    );
  }
  return { timestamp: Number(match[1]), signature: match[2]! };
}

function header(headers: HeadersLike, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const value = record[name] ?? Object.entries(record).find(([k]) => k.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? (value.length === 1 ? value[0] : value.join(',')) : value;
}

/** The raw body as the HMAC takes it: a string stays a string (no copy), binary forms become bytes. */
function toRaw(body: unknown): string | Uint8Array {
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  throw new WebhookVerificationError(
    'body_not_raw',
    'The body must be the raw request body (string, Uint8Array, ArrayBuffer or Request), not a parsed object: ' +
      're-serializing JSON changes its bytes and breaks the signature. In Express use express.raw({ type: "application/json" }) ' +
      'on this route; in h3 use readRawBody(event); in a fetch handler pass the Request itself or await request.text().',
  );
}

/** Hex HMAC-SHA256 of `<t>.<rawBody>`: the one definition of the signature, for signing and verifying. */
function computeSignature(backend: HmacBackend, secret: string, timestamp: number, raw: string | Uint8Array) {
  return backend.hmacHex(secret, `${timestamp}.`, raw);
}

/** Build the header value for a body: what our server sends, and what tests use to sign. */
export async function signPayloadWith(
  backend: HmacBackend,
  secret: string,
  body: RawBody,
  timestamp: number,
): Promise<string> {
  return `t=${timestamp},v1=${await computeSignature(backend, secret, timestamp, toRaw(body))}`;
}

const decoder = new TextDecoder();

/**
 * Verify one delivery: header shape, freshness, signature over the exact bytes, then dedupe.
 * Throws WebhookVerificationError; on success returns the parsed event and the delivery's headers.
 */
export async function verifyWith(
  backend: HmacBackend,
  body: RawBody | Request,
  headers: HeadersLike,
  options: VerifyOptions,
): Promise<VerifiedWebhook> {
  if (typeof options.secret !== 'string' || options.secret.length === 0)
    throw new TypeError('verify needs the webhook secret');
  const signatureHeader = header(headers, SIGNATURE_HEADER);
  if (signatureHeader === undefined || signatureHeader === '') {
    throw new WebhookVerificationError('missing_header', 'The X-Service-Signature header is missing.');
  }
  const { timestamp, signature } = parseSignatureHeader(signatureHeader);
  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
  if (Math.abs(nowSeconds - timestamp) > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      `The signature timestamp is ${nowSeconds - timestamp} s from now; at most ${tolerance} s is accepted (check the clock or a replay).`,
    );
  }
  const raw =
    typeof Request !== 'undefined' && body instanceof Request ? new Uint8Array(await body.arrayBuffer()) : toRaw(body);
  const computed = computeSignature(backend, options.secret, timestamp, raw);
  const expected = typeof computed === 'string' ? computed : await computed;
  if (!backend.timingSafeEqualHex(expected, signature)) {
    throw new WebhookVerificationError('signature_mismatch', 'The signature does not match the body and secret.');
  }
  const deliveryId = header(headers, DELIVERY_HEADER);
  const eventKind = header(headers, EVENT_HEADER);
  if (!deliveryId) throw new WebhookVerificationError('missing_header', 'The X-Service-Delivery header is missing.');
  if (!eventKind) throw new WebhookVerificationError('missing_header', 'The X-Service-Event header is missing.');
  // Parse and check before claiming, so a body that cannot be used does not use up its delivery id.
  let event: WebhookEvent;
  try {
    event = JSON.parse(typeof raw === 'string' ? raw : decoder.decode(raw)) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('malformed_body', 'The signed body is not JSON.');
  }
  if (event === null || typeof event !== 'object' || typeof (event as { event?: unknown }).event !== 'string') {
    throw new WebhookVerificationError('malformed_body', 'The signed body is not a JSON object with a string "event".');
  }
  // The header is not signed; the body is. Trust the body, and refuse a request whose header says otherwise.
  if (eventKind !== event.event) {
    throw new WebhookVerificationError(
      'event_mismatch',
      `X-Service-Event says ${JSON.stringify(eventKind)} but the signed body is a ${JSON.stringify(event.event)} event.`,
    );
  }
  if (options.dedupe) {
    // Await only an asynchronous store: the memory store answers at once, without a microtask hop.
    const byId = options.dedupe.claim(`delivery:${deliveryId}`, options.retention ?? DEFAULT_DEDUPE_RETENTION_SECONDS);
    if (!(typeof byId === 'boolean' ? byId : await byId)) {
      throw new WebhookVerificationError('duplicate', `Delivery ${deliveryId} was already received.`);
    }
    // The delivery id is not signed: a captured request re-sent with a fresh X-Service-Delivery would pass
    // the id check. Its signature is the same bytes, though, and within the window it must be unique.
    const bySignature = options.dedupe.claim(`signature:${signature}`, 2 * tolerance);
    if (!(typeof bySignature === 'boolean' ? bySignature : await bySignature)) {
      throw new WebhookVerificationError(
        'duplicate',
        'This signature was already received under another delivery id (a replayed request).',
      );
    }
  }
  return { event, deliveryId, eventKind: event.event, timestamp };
}
