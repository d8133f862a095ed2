import type { H3 } from 'h3';
import type { Engine } from '../../engine/index.js';
import { MAX_BODY_BYTES, readBodyText } from './body.js';
import { scopeOf } from './scope.js';

/** Where Linear, GitHub and Slack send a connection's webhooks (and Slack its interactions): no key, their signature. */
export const INBOUND_PATH = '/integrations/:integrationId/webhook';

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
