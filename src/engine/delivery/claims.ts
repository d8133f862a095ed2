import { randomBytes } from 'node:crypto';
import { type Database, deliveryClaims } from '../store/index.js';
import type { Held } from './attempt.js';

type ClaimRequest = deliveryClaims.ClaimRequest;

/** A receiver that answered 2xx within this is claimed for deep. */
const FAST_MS = 1000;

/** How one claim statement takes due deliveries (the SQL in store/queries/delivery-claims.ts; a test gives its own). */
export type ClaimFn = (request: ClaimRequest) => Promise<Held[]>;

export interface ClaimPolicyOptions {
  clock: () => Date;
  leaseMs: number;
  /** Sends at once in all, and per webhook: how far ahead to claim follows from them. */
  concurrency: number;
  perWebhook: number;
  claim: ClaimFn;
}

/**
 * Which deliveries to claim next. Claims run ahead of sending and recording, so neither waits for the other. How far
 * ahead depends on the receiver: a webhook whose last attempt succeeded within a second is claimed for deep (batches
 * of `deep.batch` while it holds fewer than `deep.held`); any other (new, failing, slow) shallow, so a hanging
 * receiver holds few of the process's `heldLimit` claims. The two classes are disjoint sets of webhooks, claimed at
 * once (on PostgreSQL, two connections).
 */
export class ClaimPolicy {
  readonly #options: ClaimPolicyOptions;
  readonly #deep: { batch: number; held: number };
  readonly #shallow: { batch: number; held: number };
  readonly #heldLimit: number;
  /** Webhooks whose last recorded attempt succeeded within FAST_MS: the deep class. */
  readonly #fast = new Set<string>();
  /** Claimed and not yet recorded, overall and per webhook. */
  #held = 0;
  readonly #heldByWebhook = new Map<string, number>();
  /**
   * Whether a claim for the shallow class may find anything: set on every wake (a commit, NOTIFY, the poll), when one
   * of its webhooks drops below its limit or leaves the deep class, and while its claims bring something. A deep
   * webhook refilling its claims then costs one statement, not one per class.
   */
  #shallowWanted = true;
  /** Per deep webhook, where its next refill claim starts: the newest delivery this process claimed for it since the last wake. */
  readonly #cursors = new Map<string, { at: unknown; after: string }>();

  constructor(options: ClaimPolicyOptions) {
    this.#options = options;
    this.#deep = { batch: options.perWebhook * 16, held: options.perWebhook * 48 };
    this.#shallow = { batch: options.perWebhook * 2, held: options.perWebhook * 2 };
    this.#heldLimit = options.concurrency * 64;
  }

  get held(): number {
    return this.#held;
  }

  /** Whether the process holds as many claims as it may. */
  get full(): boolean {
    return this.#held >= this.#heldLimit;
  }

  #limitOf(webhookId: string): number {
    return this.#fast.has(webhookId) ? this.#deep.held : this.#shallow.held;
  }

  async #claim(limit: number, batch: number, webhooks: { given: string[] } | { excluded: string[] }): Promise<Held[]> {
    const now = this.#options.clock();
    const token = randomBytes(12).toString('hex');
    const given =
      'given' in webhooks ? { given: webhooks.given.map((id) => ({ id, ...this.#cursors.get(id) })) } : webhooks;
    const rows = await this.#options.claim({
      now,
      token,
      leaseUntil: new Date(now.getTime() + this.#options.leaseMs),
      batch,
      limit,
      webhooks: given,
    });
    if ('given' in webhooks) for (const r of rows) this.#cursors.set(r.webhookId, { at: r.nextAttemptAt, after: r.id });
    return rows;
  }

  /** One round of claims for both classes, each for at most half the room left; `take` is given each class's claims as they arrive. */
  async claimRound(take: (claimed: Held[]) => void): Promise<number> {
    const saturated = [...this.#heldByWebhook].filter(([id, n]) => n >= this.#limitOf(id)).map(([id]) => id);
    const deepOnes = [...this.#fast].filter((id) => (this.#heldByWebhook.get(id) ?? 0) < this.#deep.held);
    const room = this.#heldLimit - this.#held;
    const claimShallow = this.#shallowWanted;
    this.#shallowWanted = false;
    const deep = async () => {
      if (deepOnes.length === 0) return 0;
      const claimed = await this.#claim(Math.ceil(room / 2), this.#deep.batch, { given: deepOnes });
      take(claimed);
      return claimed.length;
    };
    const shallow = async () => {
      if (!claimShallow) return 0;
      const claimed = await this.#claim(Math.floor(room / 2) || 1, this.#shallow.batch, {
        excluded: [...saturated, ...this.#fast],
      });
      if (claimed.length > 0) this.#shallowWanted = true;
      take(claimed);
      return claimed.length;
    };
    const counts = await Promise.all([deep(), shallow()]);
    return counts[0] + counts[1];
  }

  /** A claimed delivery is held until its outcome is recorded. */
  hold(d: Held): void {
    this.#held++;
    this.#heldByWebhook.set(d.webhookId, (this.#heldByWebhook.get(d.webhookId) ?? 0) + 1);
  }

  /** A recorded delivery gives back its claim: whether its webhook dropped below its limit (and can be claimed for again). */
  release(d: Held): boolean {
    this.#held--;
    const n = (this.#heldByWebhook.get(d.webhookId) ?? 1) - 1;
    if (n <= 0) this.#heldByWebhook.delete(d.webhookId);
    else this.#heldByWebhook.set(d.webhookId, n);
    const belowLimit = n === this.#limitOf(d.webhookId) - 1;
    if (belowLimit && !this.#fast.has(d.webhookId)) this.#shallowWanted = true;
    return belowLimit;
  }

  /**
   * An attempt's outcome moves its webhook between the classes: fast success makes it deep, anything else shallow.
   * Whether it became deep (it may hold more now).
   */
  observe(webhookId: string, outcome: { ok: boolean; durationMs: number } | null): boolean {
    if (outcome?.ok && outcome.durationMs < FAST_MS) {
      if (this.#fast.has(webhookId)) return false;
      this.#fast.add(webhookId);
      return true;
    }
    if (this.#fast.delete(webhookId)) {
      this.#shallowWanted = true; // its deliveries are shallow from now on
      this.#cursors.delete(webhookId);
    }
    return false;
  }

  /**
   * Claim from the start again: every wake (the poll, a commit, NOTIFY) clears the cursors, because what lies before
   * one and becomes claimable (a lease of a dead process expiring, a delivery committed out of order) comes with a wake.
   */
  rewind(): void {
    this.#shallowWanted = true;
    this.#cursors.clear();
  }

  /** Whether the shallow class is worth a claim (after a release left room while the process held its limit). */
  wantShallow(): void {
    this.#shallowWanted = true;
  }
}

/** The claim policy of a process's webhook lane, claiming with the scheduler's SQL. */
export function createClaimPolicy(options: {
  db: Database;
  clock: () => Date;
  leaseMs: number;
  concurrency: number;
  perWebhook: number;
}): ClaimPolicy {
  return new ClaimPolicy({ ...options, claim: (request) => deliveryClaims.claimDue(options.db, request) });
}
