// Verifications per second of a 1 KB delivery: ours (node:crypto and Web Crypto builds, dedupe off and on)
// against stripe.webhooks.constructEvent, measured in the same run. Appends its section to docs/benchmarks.md.
import { createRequire } from 'node:module';
import * as webBuild from '../src/verify/index.js';
import * as nodeBuild from '../src/verify/node.js';
import { writeSection } from './doc.js';

const Stripe = createRequire(import.meta.url)('stripe');
const stripe = new Stripe('sk_test_unused');
const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const body = JSON.stringify({
  event: 'comment.created',
  organizationId: 'org_1',
  boardId: 'brd_1',
  comment: {
    id: 'cmt_1',
    postId: 'post_1',
    parentId: null,
    authorUserId: null,
    bodyText: 'x'.repeat(800),
    createdAt: new Date().toISOString(),
  },
});
const MS = Number(process.env.BENCH_VERIFY_MS ?? 500);
const ROUNDS = Number(process.env.BENCH_VERIFY_ROUNDS ?? 7);

async function rate(fn: (i: number) => unknown): Promise<number> {
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
    return {
      raw,
      signature,
      headers: {
        'x-service-signature': signature,
        'x-service-delivery': `dlv_${i}`,
        'x-service-event': 'comment.created',
      },
    };
  }),
);
const at = (i: number) => deliveries[i % DELIVERIES]!;
let store = nodeBuild.createMemoryDedupeStore();
const cases: [string, () => Promise<number>][] = [
  [
    'stripe.webhooks.constructEvent (reference)',
    () => rate((i) => stripe.webhooks.constructEvent(at(i).raw, at(i).signature, secret)),
  ],
  ['ours, node:crypto, dedupe off', () => rate((i) => nodeBuild.verifyWebhook(at(i).raw, at(i).headers, { secret }))],
  [
    'ours, node:crypto, memory dedupe on',
    () =>
      rate((i) => {
        // A new store each time the set repeats, so every claim is a first claim.
        if (i % DELIVERIES === 0) store = nodeBuild.createMemoryDedupeStore();
        return nodeBuild.verifyWebhook(at(i).raw, at(i).headers, { secret, dedupe: store });
      }),
  ],
  [
    'ours, Web Crypto build, dedupe off',
    () => rate((i) => webBuild.verifyWebhook(at(i).raw, at(i).headers, { secret })),
  ],
  [
    'ours, Web Crypto build, dedupe off, 64 in flight',
    () => rateConcurrent((i) => webBuild.verifyWebhook(at(i).raw, at(i).headers, { secret }), 64),
  ],
];
// Interleaved rounds, medians: every verifier sees the same machine conditions (this box is shared and noisy).
const samples = cases.map(() => [] as number[]);
for (let round = 0; round < ROUNDS; round++) {
  for (const [c, [, measure]] of cases.entries()) samples[c]!.push(await measure());
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows: [string, number][] = cases.map(([label], c) => [label, median(samples[c]!)]);
const stripeRate = rows[0]![1];

const section = `## Webhook verification (\`feedback-service/verify\`)

A ${body.length}-byte delivery verified in-process: ${ROUNDS} interleaved rounds of ${MS} ms per verifier, median, each
verification a distinct delivery (own body, signature and id). Rows are sequential unless they say otherwise: Web
Crypto's \`subtle.sign\` is asynchronous and gains most from concurrency.
Target on Node: at least 1.0 times stripe's rate.

| verifier | verifications/s | vs stripe |
|---|---|---|
${rows.map(([label, r]) => `| ${label} | ${Math.round(r).toLocaleString('en')} | ${(r / stripeRate).toFixed(2)} |`).join('\n')}
`;
for (const [label, r] of rows) console.log(`${label}: ${Math.round(r)}/s (${(r / stripeRate).toFixed(2)}x stripe)`);
writeSection(section);
