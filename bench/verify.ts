// Verifications per second of a 1 KB delivery: ours (node:crypto and Web Crypto builds, dedupe off and on)
// against stripe.webhooks.constructEvent, measured in the same run. Appends its section to docs/benchmarks.md.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import * as nodeBuild from '../src/verify/node.js';
import * as webBuild from '../src/verify/index.js';

const Stripe = createRequire(import.meta.url)('stripe');
const stripe = new Stripe('sk_test_unused');
const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const body = JSON.stringify({ event: 'comment.created', organizationId: 'org_1', boardId: 'brd_1', comment: { id: 'cmt_1', postId: 'post_1', parentId: null, authorUserId: null, bodyText: 'x'.repeat(800), createdAt: new Date().toISOString() } });
const MS = Number(process.env.BENCH_VERIFY_MS ?? 2000);

async function rate(fn: (i: number) => unknown): Promise<number> {
  for (let i = 0; i < 2000; i++) await fn(i);
  let n = 0;
  const end = performance.now() + MS;
  while (performance.now() < end) {
    for (let k = 0; k < 200; k++) await fn(n++);
  }
  return n / (MS / 1000);
}

const t = Math.floor(Date.now() / 1000);
const header = await nodeBuild.signPayload(secret, body, t);
const headers = (i: number) => ({ 'x-service-signature': header, 'x-service-delivery': `dlv_${i}`, 'x-service-event': 'comment.created' });
const rows: [string, number][] = [];
const stripeRate = await rate(() => stripe.webhooks.constructEvent(body, header, secret));
rows.push(['stripe.webhooks.constructEvent (reference)', stripeRate]);
rows.push(['ours, node:crypto, dedupe off', await rate((i) => nodeBuild.verifyWebhook(body, headers(i), { secret }))]);
{
  // Each delivery id once; the signature claim is per request here, so sign fresh bodies would be needed for a real
  // stream. Dedupe's signature check would refuse the repeated signature, so vary the id and use a store per round.
  let store = nodeBuild.createMemoryDedupeStore();
  rows.push(['ours, node:crypto, memory dedupe on', await rate(async (i) => {
    if (i % 1000 === 0) store = nodeBuild.createMemoryDedupeStore();
    await nodeBuild.verifyWebhook(body, headers(i), { secret, dedupe: { claim: (id, ttl) => (id.startsWith('signature:') ? store.claim(`${id}${i}`, ttl) : store.claim(id, ttl)) } });
  })]);
}
rows.push(['ours, Web Crypto build, dedupe off', await rate((i) => webBuild.verifyWebhook(body, headers(i), { secret }))]);

const section = `## Webhook verification (\`feedback-service/verify\`)

A ${body.length}-byte delivery verified in-process, ${MS / 1000} s per row after a warm-up, in the same run.
Target on Node: at least 1.0 times stripe's rate.

| verifier | verifications/s | vs stripe |
|---|---|---|
${rows.map(([label, r]) => `| ${label} | ${Math.round(r).toLocaleString('en')} | ${(r / stripeRate).toFixed(2)} |`).join('\n')}
`;
for (const [label, r] of rows) console.log(`${label}: ${Math.round(r)}/s (${(r / stripeRate).toFixed(2)}x stripe)`);
const file = join(import.meta.dirname, '../docs/benchmarks.md');
const doc = readFileSync(file, 'utf8');
const start = doc.indexOf('## Webhook verification');
writeFileSync(file, `${start === -1 ? doc.trimEnd() : doc.slice(0, start).trimEnd()}\n\n${section}`);
