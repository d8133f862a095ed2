// Identify a user and list contacts over REST with plain fetch.
// Run the server first (`npm start`), then: FEEDBACK_API_KEY=fsk_... node examples/identify-and-list.mjs
const baseUrl = process.env.FEEDBACK_BASE_URL ?? 'http://127.0.0.1:3000';
const apiKey = process.env.FEEDBACK_API_KEY;
if (!apiKey) throw new Error('Set FEEDBACK_API_KEY to the key `feedback-service serve` printed.');

async function call(method, path, body) {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${res.status} ${json.error.code}: ${json.error.message}`);
  return { status: res.status, ...json };
}

const identified = await call('POST', '/v1/contacts/identify', {
  externalUserId: 'user_42',
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  plan: 'pro',
  mrrCents: 4900,
  currency: 'USD',
  metadata: { company: 'Analytical Engines' },
});
console.log(identified.status === 201 ? 'created' : 'updated', identified.data.id);

// Walk every contact on the pro plan, highest mrr first.
let cursor = null;
do {
  const page = await call(
    'GET',
    `/v1/contacts?plan=pro&sort=mrr&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
  );
  for (const c of page.data) console.log(c.id, c.email, c.mrrCents, c.postCount);
  cursor = page.nextCursor;
} while (cursor);
