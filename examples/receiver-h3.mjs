// An h3 receiver: read the raw body, never readBody() (which parses it).
//   npm install feedback-service h3
//   FEEDBACK_WEBHOOK_SECRET=whsec_... PORT=4000 node receiver-h3.mjs
// then register http://YOUR_HOST:4000/webhooks/feedback as the webhook's url.

import { createMemoryDedupeStore, verifyWebhook, WebhookVerificationError } from 'feedback-service/verify';
import { H3, readRawBody, serve } from 'h3';

const dedupe = createMemoryDedupeStore();
const app = new H3().post('/webhooks/feedback', async (event) => {
  try {
    const raw = (await readRawBody(event, false)) ?? new Uint8Array();
    const { event: payload } = await verifyWebhook(raw, event.req.headers, {
      secret: process.env.FEEDBACK_WEBHOOK_SECRET,
      dedupe,
    });
    console.log('received', payload.event);
    return new Response(null, { status: 204 });
  } catch (err) {
    if (err instanceof WebhookVerificationError)
      return new Response(err.code, { status: err.code === 'duplicate' ? 200 : 400 });
    throw err;
  }
});
export const server = serve(app, { port: Number(process.env.PORT ?? 4000) });
