import type { DeliveryKind } from '../store/index.js';

/**
 * One kind of outgoing work the scheduler drives: webhook deliveries (webhook-lane.ts) or mail (mail-lane.ts). A lane
 * claims due rows of its table with leases, holds them (renewing the leases), sends them through its send queue and
 * records each outcome; the scheduler's loop (scheduler.ts) decides when it claims, and waits for it when stopping.
 */
export interface Lane {
  /** What it sends: the kind of commit that wakes it. */
  readonly kind: DeliveryKind;
  /** One claim round: what it claims is held and queued for sending. How many it claimed. */
  claimRound(): Promise<number>;
  /** Whether it holds as many claims as it may. */
  readonly full: boolean;
  /** Claims held: claimed and not yet recorded. */
  readonly held: number;
  /** Outcomes being recorded, or notices being sent. */
  readonly busy: boolean;
  /** A wake (a commit, NOTIFY, the poll): claim from the start again. */
  rewind(): void;
  /** The loop's note that the last claim left the lane full: a release may make room for more. */
  mayHaveMore: boolean;
  /** Stopping: give back the claims not yet being sent. */
  giveBack(): Promise<void>;
}

/** What a lane asks of the loop. */
export interface LaneHost {
  /** Claim again in this lane: a release made room, or a webhook may hold more now. */
  pump(): void;
  /** Something finished: a waiting `stop()` or `runDue()` may resolve. */
  settle(): void;
}
