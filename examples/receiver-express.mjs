// An Express receiver. express.raw keeps the exact bytes; express.json() on this route would break signatures.
//   npm install feedback-service express
//   FEEDBACK_WEBHOOK_SECRET=whsec_... PORT=4000 node receiver-express.mjs
// then register http://YOUR_HOST:4000/webhooks/feedback as the webhook's url.
import express from 'express';
import { createMemoryDedupeStore, verifyWebhook, WebhookVerificationError } from 'feedback-service/verify';

const app = express();
const dedupe = createMemoryDedupeStore();
app.post('/webhooks/feedback', express.raw({ type: 'application/json' }), async (req, res) => {
  try {
    const { event } = await verifyWebhook(req.body, req.headers, {
      secret: process.env.FEEDBACK_WEBHOOK_SECRET,
      dedupe,
    });
    console.log('received', event.event);
    res.sendStatus(204);
  } catch (err) {
    if (err instanceof WebhookVerificationError) return res.status(err.code === 'duplicate' ? 200 : 400).send(err.code);
    throw err;
  }
});
export const server = app.listen(Number(process.env.PORT ?? 4000), () =>
  console.log(`listening on http://localhost:${server.address().port}/webhooks/feedback`),
);
