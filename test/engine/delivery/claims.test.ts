import { describe, expect, it } from 'vitest';
import { type ClaimFn, ClaimPolicy } from '../../../src/engine/delivery/claims.js';
import type { ClaimRequest, Held } from '../../../src/engine/store/queries/delivery-claims.js';

// The claim policy alone, on a claim function that records what it was asked and answers from a list: which classes
// are claimed for, with which limits and cursors, as outcomes move webhooks between them.

const held = (webhookId: string, id: string, nextAttemptAt: unknown = id): Held => ({
  id,
  webhookId,
  eventType: 'contact.created',
  attemptCount: 0,
  nextAttemptAt,
  url: 'https://example.com',
  secret: 's',
  enabled: true,
  payload: '{}',
  token: 't',
});

function policy(answers: (request: ClaimRequest) => Held[] = () => []) {
  const requests: ClaimRequest[] = [];
  const claim: ClaimFn = async (request) => {
    requests.push(request);
    return answers(request);
  };
  const p = new ClaimPolicy({
    clock: () => new Date('2026-11-25T00:00:00Z'),
    leaseMs: 30_000,
    concurrency: 4,
    perWebhook: 2,
    claim,
  });
  return { p, requests };
}

const FAST = { ok: true, durationMs: 10 };

describe('ClaimPolicy', () => {
  it('claims only the shallow class at first, with half the room, a small batch and a lease', async () => {
    const { p, requests } = policy();
    expect(await p.claimRound(() => {})).toBe(0);
    expect(requests).toHaveLength(1);
    // concurrency 4 × 64 = 256 held at most; half of it, 2 per webhook (perWebhook × 2).
    expect(requests[0]).toMatchObject({ limit: 128, batch: 4, webhooks: { excluded: [] } });
    expect(requests[0]!.leaseUntil.getTime() - requests[0]!.now.getTime()).toBe(30_000);
  });

  it('asks the shallow class again only after a wake, a release below the limit, or a claim that found something', async () => {
    const { p, requests } = policy();
    await p.claimRound(() => {});
    await p.claimRound(() => {});
    expect(requests).toHaveLength(1); // nothing found, nothing changed: no statement
    p.rewind();
    await p.claimRound(() => {});
    expect(requests).toHaveLength(2);
    p.wantShallow();
    await p.claimRound(() => {});
    expect(requests).toHaveLength(3);
  });

  it('a fast success moves a webhook to the deep class: claimed by name, with a deeper batch, and left out of the shallow claim', async () => {
    const { p, requests } = policy((r) => ('given' in r.webhooks ? [held('wh_fast', 'dlv_2', 'at-2')] : []));
    expect(p.observe('wh_fast', FAST)).toBe(true);
    expect(p.observe('wh_fast', FAST)).toBe(false); // already deep
    const taken: Held[] = [];
    expect(await p.claimRound((c) => taken.push(...c))).toBe(1);
    const deep = requests.find((r) => 'given' in r.webhooks)!;
    const shallow = requests.find((r) => 'excluded' in r.webhooks)!;
    expect(deep).toMatchObject({ batch: 32, limit: 128, webhooks: { given: [{ id: 'wh_fast' }] } });
    expect(shallow.webhooks).toEqual({ excluded: ['wh_fast'] });
    expect(taken.map((d) => d.id)).toEqual(['dlv_2']);
    // The next refill seeks from the newest claimed delivery, until a wake rewinds it.
    await p.claimRound(() => {});
    expect(requests.at(-1)!.webhooks).toEqual({ given: [{ id: 'wh_fast', at: 'at-2', after: 'dlv_2' }] });
    p.rewind();
    await p.claimRound(() => {});
    expect(requests.filter((r) => 'given' in r.webhooks).at(-1)!.webhooks).toEqual({ given: [{ id: 'wh_fast' }] });
  });

  it('a failure or a slow answer moves a deep webhook back to shallow and forgets its cursor', async () => {
    const { p, requests } = policy();
    p.observe('wh_a', FAST);
    expect(p.observe('wh_a', { ok: true, durationMs: 1500 })).toBe(false);
    await p.claimRound(() => {});
    expect(requests.every((r) => 'excluded' in r.webhooks)).toBe(true);
    p.observe('wh_b', FAST);
    p.observe('wh_b', { ok: false, durationMs: 5 });
    p.observe('wh_c', FAST);
    p.observe('wh_c', null); // no answer at all
    await p.claimRound(() => {});
    expect(requests.some((r) => 'given' in r.webhooks)).toBe(false);
  });

  it('holds claims per webhook: a shallow webhook at its limit is excluded, and its release below the limit asks again', async () => {
    const { p, requests } = policy();
    const a1 = held('wh_a', 'dlv_1');
    const a2 = held('wh_a', 'dlv_2');
    const a3 = held('wh_a', 'dlv_3');
    const a4 = held('wh_a', 'dlv_4');
    for (const d of [a1, a2, a3, a4]) p.hold(d);
    expect(p.held).toBe(4);
    p.rewind();
    await p.claimRound(() => {});
    expect(requests.at(-1)!.webhooks).toEqual({ excluded: ['wh_a'] }); // shallow limit: perWebhook × 2 = 4
    expect(p.release(a1)).toBe(true); // 3 held: below the limit again
    expect(p.release(a2)).toBe(false);
    expect(p.held).toBe(2);
    await p.claimRound(() => {});
    expect(requests.at(-1)!.webhooks).toEqual({ excluded: [] });
  });

  it('is full at 64 claims per send slot, and the room it claims for shrinks as it holds more', async () => {
    const { p, requests } = policy();
    for (let i = 0; i < 200; i++) p.hold(held(`wh_${i}`, `dlv_${i}`));
    expect(p.full).toBe(false);
    await p.claimRound(() => {});
    expect(requests.at(-1)!.limit).toBe(28); // (256 - 200) / 2
    for (let i = 200; i < 256; i++) p.hold(held(`wh_${i}`, `dlv_${i}`));
    expect(p.full).toBe(true);
  });
});
