import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import * as webBuild from '../../src/verify/index.js';
import { WebhookVerificationError } from '../../src/verify/index.js';
import * as nodeBuild from '../../src/verify/node.js';

const require = createRequire(import.meta.url);
const Stripe = require('stripe');
const stripe = new Stripe('sk_test_unused');

/** The fixed vector published in docs/webhooks.md for other languages. */
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  timestamp: 1795310400,
  body: '{"event":"contact.deleted","organizationId":"org_01m8000000000000000000000","contact":{"id":"ctc_01m8000000000000000000001","externalUserId":"user_42"}}',
  signature: 'f632006e09f3f058cbcb8f810201cd764352df0aedf40bf689cf6cc8028e107c',
};
const AT = VECTOR.timestamp * 1000;
const headersFor = (signature: string, delivery = 'dlv_1') => ({
  'x-service-signature': signature,
  'x-service-delivery': delivery,
  'x-service-event': 'contact.deleted',
});

for (const [name, build] of [
  ['node:crypto build', nodeBuild],
  ['Web Crypto build', webBuild],
] as const) {
  describe(`verify [${name}]`, () => {
    const good = `t=${VECTOR.timestamp},v1=${VECTOR.signature}`;
    const opts = { secret: VECTOR.secret, now: () => AT };

    it('signs the fixed test vector exactly', async () => {
      expect(await build.signPayload(VECTOR.secret, VECTOR.body, VECTOR.timestamp)).toBe(good);
    });

    it('accepts the vector and returns the parsed event, delivery id and kind', async () => {
      const result = await build.verifyWebhook(VECTOR.body, headersFor(good), opts);
      expect(result).toEqual({
        event: JSON.parse(VECTOR.body),
        deliveryId: 'dlv_1',
        eventKind: 'contact.deleted',
        timestamp: VECTOR.timestamp,
      });
    });

    it('accepts every raw body type: string, Uint8Array, ArrayBuffer, Request, Node stream', async () => {
      const bytes = new TextEncoder().encode(VECTOR.body);
      for (const body of [VECTOR.body, bytes, bytes.buffer.slice(0)]) {
        expect((await build.verifyWebhook(body, headersFor(good), opts)).deliveryId).toBe('dlv_1');
      }
      const request = new Request('http://r/', { method: 'POST', body: VECTOR.body, headers: headersFor(good) });
      expect((await build.verifyRequest(request, opts)).eventKind).toBe('contact.deleted');
      const stream = Object.assign(
        Readable.from([Buffer.from(VECTOR.body.slice(0, 10)), Buffer.from(VECTOR.body.slice(10))]),
        { headers: headersFor(good) },
      );
      expect((await build.verifyNodeRequest(stream, opts)).event).toEqual(JSON.parse(VECTOR.body));
    });

    it('refuses a parsed object with body_not_raw and says how to get the raw body', async () => {
      const err = await build.verifyWebhook(JSON.parse(VECTOR.body), headersFor(good), opts).catch((e) => e);
      expect(err).toBeInstanceOf(WebhookVerificationError);
      expect(err.code).toBe('body_not_raw');
      expect(err.message).toMatch(/express\.raw/);
    });

    it("the event kind is the signed body's event: an X-Service-Event that disagrees is event_mismatch, and uses up nothing", async () => {
      // The audit's reproducer: a contact.deleted body presented as post.created.
      const dedupe = build.createMemoryDedupeStore();
      const lying = { ...headersFor(good), 'x-service-event': 'post.created' };
      const err = await build.verifyWebhook(VECTOR.body, lying, { ...opts, dedupe }).catch((e) => e);
      expect(err).toBeInstanceOf(WebhookVerificationError);
      expect(err.code).toBe('event_mismatch');
      expect(err.message).toContain('contact.deleted');
      // The refused request claimed nothing: the genuine delivery still verifies.
      const ok = await build.verifyWebhook(VECTOR.body, headersFor(good), { ...opts, dedupe });
      expect(ok.eventKind).toBe('contact.deleted');
      expect(ok.eventKind).toBe(ok.event.event);
    });

    it('a signed body that is not a JSON object with a string event is malformed_body', async () => {
      for (const body of ['not json', '[1]', '{"organizationId":"org_1"}', '{"event":7}', 'null']) {
        const header = await build.signPayload(VECTOR.secret, body, VECTOR.timestamp);
        await expect(build.verifyWebhook(body, headersFor(header), opts)).rejects.toMatchObject({
          code: 'malformed_body',
        });
      }
    });

    it('the test vector in docs/webhooks.md verifies with exactly the headers the page lists', async () => {
      const page = readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');
      const section = page.slice(page.indexOf('## Test vector'));
      const row = (name: string) =>
        new RegExp(`^\\| ${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\| \`([^\`]+)\``, 'm').exec(section)?.[1];
      const headers: Record<string, string> = {};
      for (const name of ['X-Service-Signature', 'X-Service-Delivery', 'X-Service-Event', 'Content-Type'])
        headers[name] = row(`\`${name}\``)!;
      const body = row('body')!;
      const secret = row('secret')!;
      expect(Object.values(headers).every(Boolean) && body && secret).toBeTruthy();
      const result = await build.verifyWebhook(body, headers, { secret, now: () => Number(row('timestamp')) * 1000 });
      expect(result).toMatchObject({
        deliveryId: headers['X-Service-Delivery'],
        eventKind: headers['X-Service-Event'],
      });
      // Without either required header it is refused.
      for (const missing of ['X-Service-Delivery', 'X-Service-Event']) {
        const fewer = Object.fromEntries(Object.entries(headers).filter(([k]) => k !== missing));
        await expect(
          build.verifyWebhook(body, fewer, { secret, now: () => Number(row('timestamp')) * 1000 }),
        ).rejects.toMatchObject({ code: 'missing_header' });
      }
    });

    it('a re-serialized body (same JSON, other bytes) is signature_mismatch', async () => {
      const reserialized = JSON.stringify(JSON.parse(VECTOR.body), null, 1);
      await expect(build.verifyWebhook(reserialized, headersFor(good), opts)).rejects.toMatchObject({
        code: 'signature_mismatch',
      });
      await expect(
        build.verifyWebhook(VECTOR.body, headersFor(good), { ...opts, secret: 'whsec_other' }),
      ).rejects.toMatchObject({ code: 'signature_mismatch' });
    });

    it('a missing signature, delivery or event header is missing_header', async () => {
      for (const drop of ['x-service-signature', 'x-service-delivery', 'x-service-event']) {
        const headers: Record<string, string> = headersFor(good);
        delete headers[drop];
        await expect(build.verifyWebhook(VECTOR.body, headers, opts)).rejects.toMatchObject({ code: 'missing_header' });
      }
    });

    const sig = VECTOR.signature;
    const MALFORMED: [string, string][] = [
      ['spaces', `t=${VECTOR.timestamp}, v1=${sig}`],
      ['upper-case hex', `t=${VECTOR.timestamp},v1=${sig.toUpperCase()}`],
      ['missing v1', `t=${VECTOR.timestamp}`],
      ['missing t', `v1=${sig}`],
      ['an extra scheme', `t=${VECTOR.timestamp},v1=${sig},v0=${sig}`],
      ['a repeated t', `t=${VECTOR.timestamp},t=${VECTOR.timestamp},v1=${sig}`],
      ['a repeated v1', `t=${VECTOR.timestamp},v1=${sig},v1=${sig}`],
      ['an empty t', `t=,v1=${sig}`],
      ['an empty v1', `t=${VECTOR.timestamp},v1=`],
      ['a trailing comma', `t=${VECTOR.timestamp},v1=${sig},`],
      ['a non-canonical t', `t=0${VECTOR.timestamp},v1=${sig}`],
      ['a short signature', `t=${VECTOR.timestamp},v1=${sig.slice(2)}`],
      ['keys in the other order', `v1=${sig},t=${VECTOR.timestamp}`],
      ['a negative t', `t=-${VECTOR.timestamp},v1=${sig}`],
    ];
    for (const [what, header] of MALFORMED) {
      it(`a header with ${what} is malformed_header`, async () => {
        await expect(build.verifyWebhook(VECTOR.body, headersFor(header), opts)).rejects.toMatchObject({
          code: 'malformed_header',
        });
      });
    }

    it('the tolerance edge: 300 s passes and 301 s fails, in both directions; tolerance is an option', async () => {
      for (const delta of [300, -300]) {
        expect(
          (await build.verifyWebhook(VECTOR.body, headersFor(good), { ...opts, now: () => AT + delta * 1000 }))
            .deliveryId,
        ).toBe('dlv_1');
      }
      for (const delta of [301, -301]) {
        await expect(
          build.verifyWebhook(VECTOR.body, headersFor(good), { ...opts, now: () => AT + delta * 1000 }),
        ).rejects.toMatchObject({ code: 'timestamp_out_of_tolerance' });
      }
      await expect(
        build.verifyWebhook(VECTOR.body, headersFor(good), { ...opts, now: () => AT + 11_000, tolerance: 10 }),
      ).rejects.toMatchObject({ code: 'timestamp_out_of_tolerance' });
    });

    it('dedupe: exactly one of many parallel verifications of one delivery succeeds', async () => {
      const dedupe = build.createMemoryDedupeStore({ now: () => AT });
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, () => build.verifyWebhook(VECTOR.body, headersFor(good), { ...opts, dedupe })),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect(r.reason.code).toBe('duplicate');
    });

    it('dedupe: a captured request re-sent under a new delivery id is a duplicate', async () => {
      const dedupe = build.createMemoryDedupeStore({ now: () => AT });
      await build.verifyWebhook(VECTOR.body, headersFor(good, 'dlv_a'), { ...opts, dedupe });
      await expect(
        build.verifyWebhook(VECTOR.body, headersFor(good, 'dlv_b'), { ...opts, dedupe }),
      ).rejects.toMatchObject({ code: 'duplicate' });
      // A real retry of the same delivery carries a new timestamp and signature but the same id: also a duplicate.
      const retry = await build.signPayload(VECTOR.secret, VECTOR.body, VECTOR.timestamp + 30);
      await expect(
        build.verifyWebhook(VECTOR.body, headersFor(retry, 'dlv_a'), { ...opts, dedupe, now: () => AT + 30_000 }),
      ).rejects.toMatchObject({ code: 'duplicate' });
    });

    it('the memory store expires claims and keeps its size bound', async () => {
      let now = 0;
      const store = build.createMemoryDedupeStore({ now: () => now, maxEntries: 3 });
      expect(await store.claim('a', 10)).toBe(true);
      expect(await store.claim('a', 10)).toBe(false);
      now = 10_001;
      expect(await store.claim('a', 10)).toBe(true);
      for (const id of ['b', 'c', 'd', 'e']) expect(await store.claim(id, 1000)).toBe(true);
      expect(store.size).toBeLessThanOrEqual(3);
      expect(await store.claim('e', 1000)).toBe(false);
      await store.release!('e');
      expect(await store.claim('e', 1000)).toBe(true);
    });

    it('differential: stripe accepts our signatures, and we accept stripe’s for the same secret', async () => {
      const now = Math.floor(Date.now() / 1000);
      const ours = await build.signPayload(VECTOR.secret, VECTOR.body, now);
      expect(stripe.webhooks.signature.verifyHeader(VECTOR.body, ours, VECTOR.secret, 300)).toBe(true);
      const theirs = stripe.webhooks.generateTestHeaderString({
        payload: VECTOR.body,
        secret: VECTOR.secret,
        timestamp: now,
      });
      expect((await build.verifyWebhook(VECTOR.body, headersFor(theirs), { secret: VECTOR.secret })).eventKind).toBe(
        'contact.deleted',
      );
    });

    it('where stripe is looser, we are strict', async () => {
      const now = Math.floor(Date.now() / 1000);
      const s = (await build.signPayload(VECTOR.secret, VECTOR.body, now)).split('v1=')[1]!;
      const future = now + 3600;
      const futureSig = (await build.signPayload(VECTOR.secret, VECTOR.body, future)).split('v1=')[1]!;
      const looser = [
        `t=${future},v1=${futureSig}`, // stripe accepts future timestamps
        `t=${now},v1=${s},v0=abc`, // unknown extra schemes
        `t=${now},v1=${s},`, // a trailing comma
        `t=${now},t=${now},v1=${s}`, // a repeated t
      ];
      for (const header of looser) {
        expect(() => stripe.webhooks.signature.verifyHeader(VECTOR.body, header, VECTOR.secret, 300)).not.toThrow();
        await expect(
          build.verifyWebhook(VECTOR.body, headersFor(header), { secret: VECTOR.secret }),
        ).rejects.toBeInstanceOf(WebhookVerificationError);
      }
    });
  });
}
