// Mock the whole feedback API in your own tests: MSW hands each request to a real, in-memory feedback
// service, so your code gets real validation errors, real cursors and real counts. Copy this file.
// Needs: npm i -D msw vitest

import { createClient, ValidationError } from 'feedback-service/client';
import { createMockFeedbackService } from 'feedback-service/msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';

const feedback = await createMockFeedbackService(); // answers for https://feedback.test
const server = setupServer(...feedback.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => feedback.reset());
afterAll(async () => {
  server.close();
  await feedback.close();
});

it('identifies a user and lists contacts, with real cursors and counts', async () => {
  const { apiKey, organizationId } = await feedback.seed({ contacts: [{ externalUserId: 'u_1', plan: 'pro' }] });
  const client = createClient({ apiKey, baseUrl: feedback.baseUrl, maxRetries: 0 });

  const contact = await client.contacts.identify({ externalUserId: 'u_2', email: 'ada@example.com', plan: 'pro' });
  expect(contact.email).toBe('ada@example.com');

  const first = await client.contacts.list({ plan: 'pro', limit: 1 });
  expect(first.data).toHaveLength(1);
  expect(first.hasMore).toBe(true);
  const all = [];
  for await (const c of client.contacts.list({ plan: 'pro', limit: 1 })) all.push(c.externalUserId);
  expect(all.sort()).toEqual(['u_1', 'u_2']);

  // The events your webhooks would receive.
  expect((await feedback.events(organizationId)).map((e) => e.type)).toEqual(['contact.created', 'contact.created']);
});

it("names a user's companies on identify, and reads them back page by page", async () => {
  const { apiKey, organizationId } = await feedback.seed();
  const client = createClient({ apiKey, baseUrl: feedback.baseUrl, maxRetries: 0 });

  await client.contacts.identify({
    externalUserId: 'u_1',
    companies: [{ externalCompanyId: 'acme', name: 'Acme', mrrCents: 200_000, currency: 'USD' }],
  });
  await client.contacts.identify({ externalUserId: 'u_2', companies: [{ externalCompanyId: 'acme' }] });

  const [acme] = (await client.companies.list({ sort: 'mrr' })).data;
  expect(acme).toMatchObject({ externalCompanyId: 'acme', name: 'Acme', memberCount: 2 });
  const people = [];
  for await (const c of client.companies.listContacts(acme!.id, { limit: 1 })) people.push(c.externalUserId);
  expect(people).toEqual(['u_2', 'u_1']);
  expect((await client.companies.upsert({ externalCompanyId: 'acme', plan: 'enterprise' })).plan).toBe('enterprise');
  expect((await feedback.events(organizationId)).map((e) => e.type)).toEqual([
    'company.created',
    'contact.created',
    'contact.created',
    'company.updated',
  ]);
});

it('gets the real validation errors', async () => {
  const { apiKey } = await feedback.seed();
  const client = createClient({ apiKey, baseUrl: feedback.baseUrl, maxRetries: 0 });
  const error = await client.contacts.create({ externalUserId: 'u_3', mrrCents: 4900 }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ValidationError);
  expect((error as ValidationError).issues.map((i) => i.path)).toContain('currency');
});

it('starts every test from an empty service', async () => {
  const { apiKey } = await feedback.seed();
  const client = createClient({ apiKey, baseUrl: feedback.baseUrl });
  expect((await client.contacts.list()).data).toEqual([]);
});
