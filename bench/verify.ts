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

// Distinct deliveries (own body, signature and id), signed up front: with dedupe on, every verification is a
// fresh delivery, as in production. The same set is used for every row.
/** The same with `inFlight` verifications awaited together (a server with concurrent requests). */
async function rateConcurrent(fn: (i: number) => Promise<unknown>, inFlight: number): Promise<number> {
  let n = 0;
  const end = performance.now() + MS;
  while (performance.now() < end) {
    await Promise.all(Array.from({ length: inFlight }, () => fn(n++)));
  }
  return n / (MS / 1000);
}

const t = Math.floor(Date.now() / 1000);
const DELIVERIES = 5000;
const deliveries = await Promise.all(
  Array.from({ length: DELIVERIES }, async (_, i) => {
    const raw = body.replace('cmt_1', `cmt_${i}`);
    const signature = await nodeBuild.signPayload(secret, raw, t);
    return { raw, signature, headers: { 'x-service-signature': signature, 'x-service-delivery': `dlv_${i}`, 'x-service-event': 'comment.created' } };
  }),
);
const at = (i: number) => deliveries[i % DELIVERIES]!;
let store = nodeBuild.createMemoryDedupeStore();
const rows: [string, number][] = [];
const stripeRate = await rate((i) => stripe.webhooks.constructEvent(at(i).raw, at(i).signature, secret));
rows.push(['stripe.webhooks.constructEvent (reference)', stripeRate]);
rows.push(['ours, node:crypto, dedupe off', await rate((i) => nodeBuild.verifyWebhook(at(i).raw, at(i).headers, { secret }))]);
rows.push([
  'ours, node:crypto, memory dedupe on',
  await rate((i) => {
    // A new store each time the set repeats, so every claim is a first claim.
    if (i % DELIVERIES === 0) store = nodeBuild.createMemoryDedupeStore();
    return nodeBuild.verifyWebhook(at(i).raw, at(i).headers, { secret, dedupe: store });
  }),
]);
rows.push(['ours, Web Crypto build, dedupe off', await rate((i) => webBuild.verifyWebhook(at(i).raw, at(i).headers, { secret }))]);
rows.push([
  'ours, Web Crypto build, dedupe off, 64 in flight',
  await rateConcurrent((i) => webBuild.verifyWebhook(at(i).raw, at(i).headers, { secret }), 64),
]);

const section = `## Webhook verification (\`feedback-service/verify\`)

A ${body.length}-byte delivery verified in-process, ${MS / 1000} s per row after a warm-up, in the same run, each
verification a distinct delivery (own body, signature and id). Rows are sequential unless they say otherwise: Web
Crypto's \`subtle.sign\` is asynchronous and gains most from concurrency.
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
