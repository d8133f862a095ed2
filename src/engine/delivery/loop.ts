import type { DeliveryKind } from '../store/index.js';
import type { Lane } from './lane.js';

/**
 * The scheduler's loop over its lanes: either idle or pumping. A wake rewinds lanes and pumps; pumping, each lane
 * that wants to claims rounds while it holds fewer than its limit and its last round found something. A lane asks to
 * claim again (`want`) when a release made room. `halt()` stops new claims and resolves once nothing is held,
 * claiming or being recorded.
 */
export class LaneLoop {
  readonly #lanes: readonly Lane[];
  readonly #log: (message: string, error?: unknown) => void;
  #pumping: Promise<void> | null = null;
  /** The lanes to claim in at the next round. */
  readonly #wanted = new Set<Lane>();
  /** The kinds of the wake queued for the next turn (every lane: null); undefined when none is queued. */
  #wakeKinds: Set<DeliveryKind> | null | undefined;
  /** Set while halting: no new claims. */
  #halted = false;
  readonly #idleWaiters: Array<() => void> = [];

  constructor(lanes: readonly Lane[], log: (message: string, error?: unknown) => void) {
    this.#lanes = lanes;
    this.#log = log;
  }

  /** Claim in this lane (a release made room, or a webhook may hold more now). */
  want(lane: Lane): Promise<void> {
    this.#wanted.add(lane);
    return this.#pump();
  }

  /** Wake the lanes of these kinds (every lane: null); wakes in the same tick share one claim. */
  wake(kinds: ReadonlySet<DeliveryKind> | null): void {
    const queued = this.#wakeKinds !== undefined;
    this.#wakeKinds =
      kinds === null || this.#wakeKinds === null ? null : new Set([...(this.#wakeKinds ?? []), ...kinds]);
    if (queued) return;
    setImmediate(() => {
      const now = this.#wakeKinds ?? null;
      this.#wakeKinds = undefined;
      this.claimNow(now);
    });
  }

  /** Rewind these lanes (all: null) and claim in them now. */
  claimNow(kinds: ReadonlySet<DeliveryKind> | null): void {
    this.#rewind(kinds);
    void this.#pump();
  }

  /** Claim everything due in every lane, and resolve once all of it is recorded. */
  async drain(): Promise<void> {
    this.#rewind(null);
    await this.#pump();
    await this.#idle();
  }

  /** Stop claiming, give back what is claimed but not being sent, and resolve once what is being sent is recorded. */
  async halt(): Promise<void> {
    this.#halted = true;
    await Promise.all(this.#lanes.map((lane) => lane.giveBack()));
    await this.#idle();
    this.#halted = false;
  }

  /** Resolve the waiters of `#idle()` if nothing is pumping, held or being recorded. */
  settleIfIdle(): void {
    if (!this.#pumping && this.#lanes.every((lane) => lane.held === 0 && !lane.busy))
      for (const resolve of this.#idleWaiters.splice(0)) resolve();
  }

  #idle(): Promise<void> {
    return new Promise((resolve) => {
      this.#idleWaiters.push(resolve);
      this.settleIfIdle();
    });
  }

  /** Claim from the start again in these lanes (all of them by default). */
  #rewind(only: ReadonlySet<DeliveryKind> | null): void {
    for (const lane of this.#lanes) {
      if (only && !only.has(lane.kind)) continue;
      lane.mayHaveMore = true;
      lane.rewind();
      this.#wanted.add(lane);
    }
  }

  /** A lane claims while there is room and something is due. */
  async #claimWhileRoom(lane: Lane): Promise<void> {
    while (!lane.full && !this.#halted) {
      const claimed = await lane.claimRound();
      // Claim again until a round comes back empty: what is due is then claimed, or the lane is at its limit and is
      // claimed for again as releases make room.
      lane.mayHaveMore = lane.full;
      if (claimed === 0) break;
    }
  }

  /** Claim in the lanes that want it, all at once; one pump at a time, which takes in what is wanted meanwhile. */
  #pump(): Promise<void> {
    if (this.#pumping) return this.#pumping;
    this.#pumping = (async () => {
      while (this.#wanted.size > 0) {
        const round = [...this.#wanted];
        this.#wanted.clear();
        const results = await Promise.allSettled(round.map((lane) => this.#claimWhileRoom(lane)));
        results.forEach((r, i) => {
          if (r.status === 'rejected')
            this.#log(`[feedback-service] claiming ${round[i]!.kind} failed; retrying at the next poll`, r.reason);
        });
      }
    })().finally(() => {
      this.#pumping = null;
      if (this.#wanted.size > 0) void this.#pump();
      this.settleIfIdle();
    });
    return this.#pumping;
  }
}
