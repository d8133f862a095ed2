import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createClient, RateLimitError } from '../../src/client/index.js';
import { createMockFeedbackService } from '../../src/msw/index.js';

const feedback = await createMockFeedbackService();
const server = setupServer(...feedback.handlers);
/** Idempotency-Key and method of every request the handlers saw, failing ones included. */
const attempts: Array<{ method: string; key: string | null }> = [];

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  server.events.on('request:start', ({ request }) =>
    attempts.push({ method: request.method, key: request.headers.get('idempotency-key') }),
  );
});
afterEach(async () => {
  server.resetHandlers();
  attempts.length = 0;
  await feedback.reset();
});
afterAll(async () => {
  server.close();
  await feedback.close();
});

const url = `${feedback.baseUrl}/v1/contacts`;

it('a POST that meets 429 (Retry-After), 503 and a dropped connection runs once, with one key on every attempt', async () => {
  const { apiKey, organizationId } = await feedback.seed();
  server.use(
    http.post(
      url,
      () =>
        HttpResponse.json(
          { error: { code: 'ERR_RATE_LIMITED', message: 'slow down' } },
          { status: 429, headers: { 'Retry-After': '0' } },
        ),
      { once: true },
    ),
    http.post(url, () => HttpResponse.json({ error: { code: 'ERR_INTERNAL', message: 'oops' } }, { status: 503 }), {
      once: true,
    }),
    http.post(url, () => HttpResponse.error(), { once: true }),
  );
  const client = createClient({ apiKey, baseUrl: feedback.baseUrl, maxRetries: 3 });
  const contact = await client.contacts.create({ externalUserId: 'retry-1' });
  expect(contact.externalUserId).toBe('retry-1');
  expect(attempts).toHaveLength(4);
  expect(attempts[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
  expect(new Set(attempts.map((a) => a.key)).size).toBe(1);
  // The real service behind the handlers created it once.
  expect((await feedback.events(organizationId)).filter((e) => e.type === 'contact.created')).toHaveLength(1);
});

it('a retried POST whose first attempt did run is replayed by the server, not run twice', async () => {
  const { apiKey, organizationId } = await feedback.seed();
  // The first attempt reaches the service, but its answer is lost on the way back.
  server.use(
    http.post(
      url,
      async ({ request }) => {
        await feedback.handlers[0]!.run({ request: request.clone(), requestId: 'lost' });
        return HttpResponse.error();
      },
      { once: true },
    ),
  );
  const client = createClient({ apiKey, baseUrl: feedback.baseUrl, maxRetries: 2 });
  const contact = await client.contacts.create({ externalUserId: 'retry-2' });
  expect(contact.externalUserId).toBe('retry-2');
  expect((await feedback.events(organizationId)).filter((e) => e.type === 'contact.created')).toHaveLength(1);
});

it('gives up after maxRetries with the last error', async () => {
  const { apiKey } = await feedback.seed();
  server.use(
    http.get(`${feedback.baseUrl}/v1/whoami`, () =>
      HttpResponse.json(
        { error: { code: 'ERR_RATE_LIMITED', message: 'no' } },
        { status: 429, headers: { 'Retry-After': '0' } },
      ),
    ),
  );
  const error = await createClient({ apiKey, baseUrl: feedback.baseUrl, maxRetries: 2 })
    .whoami()
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RateLimitError);
  expect(attempts).toHaveLength(3);
});
