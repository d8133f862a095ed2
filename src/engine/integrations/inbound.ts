// Inbound webhooks: each verified by its service's own scheme before anything in it is read, then written as one job
// per delivery id (a delivery sent twice, or replayed, is one job) and answered at once; the lane does the work after,
// so Slack's 3 s and GitHub's 10 s are met whatever the work costs.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IntegrationService } from '../../schemas/integrations.js';
import { type Database, integrations } from '../store/index.js';
import { type Credentials, type IntegrationsParts, openCredentials } from './context.js';
import { enqueue } from './runner.js';

/** What the inbound endpoint answers. */
export interface InboundAnswer {
  status: number;
  body: string;
  contentType?: string;
}

/** A verified delivery: the job it makes (none: only answered), and its delivery id. */
type Verified = { job: { kind: string; payload: unknown; deliveryId: string } | null; answer?: InboundAnswer };
type Refused = { refused: InboundAnswer };

const refuse = (status: number, message: string): Refused => ({
  refused: { status, body: JSON.stringify({ error: { message } }), contentType: 'application/json' },
});
const OK: InboundAnswer = { status: 200, body: '' };

/** Linear signs webhooks within this long of their `webhookTimestamp`; Slack within five minutes. */
export const LINEAR_WINDOW_MS = 60_000;
export const SLACK_WINDOW_MS = 300_000;

const hmacHex = (secret: string, data: Buffer | string) => createHmac('sha256', secret).update(data).digest('hex');

/** A constant-time comparison of two hex signatures (of any length: a wrong length is simply unequal). */
function sameHex(expected: string, given: string | null): boolean {
  if (!given) return false;
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given.trim().toLowerCase(), 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

function parseJson(raw: Buffer): Record<string, unknown> | null {
  try {
    const value = JSON.parse(raw.toString('utf8')) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Linear: `Linear-Signature` is the hex HMAC-SHA256 of the raw body; the body's `webhookTimestamp` (ms) within 60 s. */
function linear(secret: string, headers: Headers, raw: Buffer, now: Date): Verified | Refused {
  if (!sameHex(hmacHex(secret, raw), headers.get('linear-signature'))) return refuse(401, 'Invalid signature.');
  const body = parseJson(raw);
  const at = body?.webhookTimestamp;
  if (typeof at !== 'number' || Math.abs(now.getTime() - at) > LINEAR_WINDOW_MS)
    return refuse(401, 'The webhook timestamp is missing or outside the 60 s window.');
  const deliveryId = headers.get('linear-delivery');
  if (!deliveryId) return refuse(400, 'The Linear-Delivery header is missing.');
  return { job: { kind: 'linear.webhook', payload: body, deliveryId } };
}

/** GitHub: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>`; one job per `X-GitHub-Delivery`. */
function github(secret: string, headers: Headers, raw: Buffer): Verified | Refused {
  const given = headers.get('x-hub-signature-256');
  if (!given?.startsWith('sha256=') || !sameHex(hmacHex(secret, raw), given.slice(7)))
    return refuse(401, 'Invalid signature.');
  const deliveryId = headers.get('x-github-delivery');
  const event = headers.get('x-github-event');
  const body = parseJson(raw);
  if (!deliveryId || !event || !body) return refuse(400, 'Not a GitHub webhook delivery.');
  // `ping` (sent when the webhook is made) and events we do not act on are only answered.
  if (event !== 'issues') return { job: null };
  return { job: { kind: 'github.webhook', payload: body, deliveryId } };
}

/**
 * Slack: `X-Slack-Signature: v0=<hex HMAC-SHA256 of "v0:<X-Slack-Request-Timestamp>:<raw body>">`, the timestamp (s)
 * within five minutes. Interactions come as a form with a `payload` field; the Events API's URL check as JSON.
 */
function slack(secret: string, headers: Headers, raw: Buffer, now: Date): Verified | Refused {
  const at = Number(headers.get('x-slack-request-timestamp'));
  if (!Number.isFinite(at) || Math.abs(now.getTime() - at * 1000) > SLACK_WINDOW_MS)
    return refuse(401, 'The request timestamp is missing or outside the five-minute window.');
  const given = headers.get('x-slack-signature');
  const expected = hmacHex(
    secret,
    Buffer.concat([Buffer.from(`v0:${headers.get('x-slack-request-timestamp')}:`), raw]),
  );
  if (!given?.startsWith('v0=') || !sameHex(expected, given.slice(3))) return refuse(401, 'Invalid signature.');
  const json = parseJson(raw);
  if (json?.type === 'url_verification')
    return { job: null, answer: { status: 200, body: String(json.challenge ?? ''), contentType: 'text/plain' } };
  const form = new URLSearchParams(raw.toString('utf8'));
  const payload = form.get('payload');
  const interaction = payload ? parseJson(Buffer.from(payload)) : null;
  if (!interaction) return refuse(400, 'Not a Slack interaction.');
  const type = String(interaction.type ?? '');
  const view = interaction.view as { id?: string } | undefined;
  const deliveryId =
    type === 'message_action'
      ? `trigger:${String(interaction.trigger_id ?? '')}`
      : type === 'view_submission' && view?.id
        ? `view:${view.id}`
        : null;
  if (!deliveryId) return { job: null };
  return { job: { kind: 'slack.interaction', payload: interaction, deliveryId } };
}

function verify(
  service: IntegrationService,
  credentials: Credentials,
  headers: Headers,
  raw: Buffer,
  now: Date,
): Verified | Refused {
  const secret = service === 'slack' ? credentials.signingSecret : credentials.webhookSecret;
  if (!secret) return refuse(404, 'This connection takes no webhooks: it has no signing secret.');
  if (service === 'linear') return linear(secret, headers, raw, now);
  if (service === 'github') return github(secret, headers, raw);
  return slack(secret, headers, raw, now);
}

/**
 * An inbound webhook to `/integrations/<id>/webhook`: the connection named, its service's signature checked, then one
 * job per delivery id. The same delivery again is answered 200 and does nothing.
 */
export async function receive(
  db: Database,
  clock: () => Date,
  parts: IntegrationsParts,
  integrationId: string,
  headers: Headers,
  raw: Buffer,
): Promise<InboundAnswer> {
  const integration = await integrations.findById(db, integrationId);
  if (!integration) return refuse(404, 'No such integration.').refused;
  const outcome = verify(integration.service, openCredentials(parts.secrets, integration), headers, raw, clock());
  if ('refused' in outcome) return outcome.refused;
  if (outcome.job) {
    const job = outcome.job;
    await db.transaction((tx) =>
      enqueue(tx, clock(), {
        organizationId: integration.organizationId,
        integrationId: integration.id,
        kind: job.kind,
        deliveryId: job.deliveryId,
        payload: job.payload,
      }),
    );
  }
  return outcome.answer ?? OK;
}
