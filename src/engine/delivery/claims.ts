import { type Database } from '../store/index.js';
import { randomBytes } from 'node:crypto';
import type { Held } from './attempt.js';
import { claimDue } from './sql/claim.js';

/** A receiver that answered 2xx within this is claimed for deep. */
const FAST_MS = 1000;

/**
 * Which deliveries to claim next. Claims run ahead of sending and recording, so neither waits for the other. How far
 * ahead depends on the receiver: a webhook whose last attempt succeeded within a second is claimed for deep (batches
 * of `deep.batch` while it holds fewer than `deep.held`); any other (new, failing, slow) shallow, so a hanging
 * receiver holds few of the process's `heldLimit` claims. The two classes are disjoint sets of webhooks, claimed at
 * once (on PostgreSQL, two connections).
 */
export function createClaimPolicy(options: { db: Database; clock: () => Date; leaseMs: number; concurrency: number; perWebhook: number }) {
  const { db, clock, leaseMs, perWebhook } = options;
  const deep = { batch: perWebhook * 16, held: perWebhook * 48 };
  const shallow = { batch: perWebhook * 2, held: perWebhook * 2 };
  const heldLimit = options.concurrency * 64;
  /** Webhooks whose last recorded attempt succeeded within FAST_MS: the deep class. */
  const fast = new Set<string>();
  const limitOf = (webhookId: string) => (fast.has(webhookId) ? deep.held : shallow.held);
  /** Claimed and not yet recorded, overall and per webhook. */
  let held = 0;
  const heldByWebhook = new Map<string, number>();
  /**
   * Whether a claim for the shallow class may find anything: set on every wake (a commit, NOTIFY, the poll), when one
   * of its webhooks drops below its limit or leaves the deep class, and while its claims bring something. A deep
   * webhook refilling its claims then costs one statement, not one per class.
   */
  let shallowWanted = true;
  /** Per deep webhook, where its next refill claim starts: the newest delivery this process claimed for it since the last wake. */
  const cursors = new Map<string, { at: unknown; after: string }>();

  async function claim(limit: number, batch: number, webhooks: { given: string[] } | { excluded: string[] }): Promise<Held[]> {
    const now = clock();
    const token = randomBytes(12).toString('hex');
    const given = 'given' in webhooks ? { given: webhooks.given.map((id) => ({ id, ...cursors.get(id) })) } : webhooks;
    const rows = await claimDue(db, { now, token, leaseUntil: new Date(now.getTime() + leaseMs), batch, limit, webhooks: given });
    if ('given' in webhooks) for (const r of rows) cursors.set(r.webhookId, { at: r.nextAttemptAt, after: r.id });
    return rows;
  }

  return {
    get held(): number {
      return held;
    },
    /** Whether the process holds as many claims as it may. */
    get full(): boolean {
      return held >= heldLimit;
    },

    /** One round of claims for both classes, each for at most half the room left; `take` is given each class's claims as they arrive. */
    async claimRound(take: (claimed: Held[]) => void): Promise<number> {
      const saturated = [...heldByWebhook].filter(([id, n]) => n >= limitOf(id)).map(([id]) => id);
      const deepOnes = [...fast].filter((id) => (heldByWebhook.get(id) ?? 0) < deep.held);
      const room = heldLimit - held;
      const claimShallow = shallowWanted;
      shallowWanted = false;
      const counts = await Promise.all([
        deepOnes.length > 0 ? claim(Math.ceil(room / 2), deep.batch, { given: deepOnes }).then((c) => (take(c), c.length)) : 0,
        claimShallow
          ? claim(Math.floor(room / 2) || 1, shallow.batch, { excluded: [...saturated, ...fast] }).then((c) => {
              if (c.length > 0) shallowWanted = true;
              take(c);
              return c.length;
            })
          : 0,
      ]);
      return counts[0] + counts[1];
    },

    /** A claimed delivery is held until its outcome is recorded. */
    hold(d: Held): void {
      held++;
      heldByWebhook.set(d.webhookId, (heldByWebhook.get(d.webhookId) ?? 0) + 1);
    },

    /** A recorded delivery gives back its claim: whether its webhook dropped below its limit (and can be claimed for again). */
    release(d: Held): boolean {
      held--;
      const n = (heldByWebhook.get(d.webhookId) ?? 1) - 1;
      if (n <= 0) heldByWebhook.delete(d.webhookId);
      else heldByWebhook.set(d.webhookId, n);
      const belowLimit = n === limitOf(d.webhookId) - 1;
      if (belowLimit && !fast.has(d.webhookId)) shallowWanted = true;
      return belowLimit;
    },

    /**
     * An attempt's outcome moves its webhook between the classes: fast success makes it deep, anything else shallow.
     * Whether it became deep (it may hold more now).
     */
    observe(webhookId: string, outcome: { ok: boolean; durationMs: number } | null): boolean {
      if (outcome?.ok && outcome.durationMs < FAST_MS) {
        if (fast.has(webhookId)) return false;
        fast.add(webhookId);
        return true;
      }
      if (fast.delete(webhookId)) {
        shallowWanted = true; // its deliveries are shallow from now on
        cursors.delete(webhookId);
      }
      return false;
    },

    /**
     * Claim from the start again: every wake (the poll, a commit, NOTIFY) clears the cursors, because what lies before
     * one and becomes claimable (a lease of a dead process expiring, a delivery committed out of order) comes with a wake.
     */
    rewind(): void {
      shallowWanted = true;
      cursors.clear();
    },

    /** Whether the shallow class is worth a claim (after a release left room while the process held its limit). */
    wantShallow(): void {
      shallowWanted = true;
    },
  };
}
export type ClaimPolicy = ReturnType<typeof createClaimPolicy>;
