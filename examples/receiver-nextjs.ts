// app/api/webhooks/feedback/route.ts in a Next.js (app router) project. Pass the Request itself.
import { createMemoryDedupeStore, verifyRequest, WebhookVerificationError } from 'feedback-service/verify';

const dedupe = createMemoryDedupeStore();

export async function POST(request: Request): Promise<Response> {
  try {
    const { event } = await verifyRequest(request, { secret: process.env.FEEDBACK_WEBHOOK_SECRET!, dedupe });
    if (event.event === 'post.status_changed')
      console.log(event.post.id, event.previousStatus, '->', event.post.status);
    return new Response(null, { status: 204 });
  } catch (err) {
    if (err instanceof WebhookVerificationError)
      return new Response(err.code, { status: err.code === 'duplicate' ? 200 : 400 });
    throw err;
  }
}
