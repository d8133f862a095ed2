import type { H3 } from 'h3';
import { type Engine, inboundPath } from '../../engine/index.js';
import { type DocumentedEndpoint, errorResponseDoc } from '../openapi.js';
import { MAX_BODY_BYTES, readBodyText } from './body.js';
import { scopeOf } from './scope.js';

/** Where Linear, GitHub and Slack send a connection's webhooks (and Slack its interactions): no key, their signature. */
export const INBOUND_PATH = inboundPath(':integrationId');

/**
 * The integrations' inbound webhooks: the raw body (at most 1 MiB) goes to the engine, which verifies it by its
 * service's own scheme before reading it, writes one job per delivery id, and answers at once.
 */
export function mountInbound(app: H3, engine: Engine): void {
  app.post(
    INBOUND_PATH,
    async (event) => {
      const { headers } = scopeOf(event);
      const request = event.req as Request;
      const raw = Buffer.from(await readBodyText(request, MAX_BODY_BYTES), 'utf8');
      const answer = await engine.integrations.receive(event.context.params!.integrationId!, request.headers, raw);
      headers['content-type'] = answer.contentType ?? 'text/plain; charset=utf-8';
      headers['cache-control'] = 'no-store';
      return new Response(answer.body, { status: answer.status, headers });
    },
    { meta: { label: INBOUND_PATH } },
  );
}

/** The inbound endpoint as the OpenAPI document shows it: no key, the service's own signature. */
export const INBOUND_DOC: DocumentedEndpoint = {
  method: 'POST',
  path: INBOUND_PATH,
  openapi: {
    operationId: 'receiveIntegrationWebhook',
    tags: ['Integrations'],
    security: [],
    summary: "A connection's inbound webhook (Linear, GitHub, Slack), verified by the service's own signature",
    description:
      "Where Linear's and GitHub's webhooks and Slack's interactions are sent. No key: Linear's Linear-Signature and signed webhookTimestamp (60 s), GitHub's X-Hub-Signature-256, Slack's v0 signature and its timestamp (5 min) are checked before the body is read; each delivery id is acted on once, after the answer.",
    parameters: [
      {
        name: 'integrationId',
        in: 'path',
        required: true,
        description: "The integration's id.",
        schema: { type: 'string' },
      },
    ],
    requestBody: {
      required: true,
      description: "The service's delivery, exactly as it sent it (JSON; Slack's interactions a form).",
      content: {
        'application/json': { schema: { type: 'object' } },
        'application/x-www-form-urlencoded': { schema: { type: 'object' } },
      },
    },
    responses: {
      '200': { description: 'Taken (or already taken: the same delivery again)' },
      '400': errorResponseDoc(400),
      '401': errorResponseDoc(401),
      '404': errorResponseDoc(404),
      '405': errorResponseDoc(405),
      '413': errorResponseDoc(413),
    },
  },
};
