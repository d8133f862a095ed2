import { type SecretBox } from '../secrets/index.js';
import { type Database } from '../store/index.js';
import { attemptDelivery, createSecretOpener, type AttemptReport, type Held, type Result } from './attempt.js';
import { createClaimPolicy } from './claims.js';
import type { Lane, LaneHost } from './lane.js';
import { createLeases, giveBackClaims } from './leases.js';
import { createRecorder, type RunSummary } from './recorder.js';
import { createSendQueue } from './send-queue.js';
import type { Sender } from './sender.js';

export interface WebhookLaneDeps {
  db: Database;
  clock: () => Date;
  sender: Sender;
  /** Opens the webhooks' sealed signing secrets. */
  secrets: SecretBox;
  onAttempt?: (attempt: AttemptReport) => void;
  log: (message: string, error?: unknown) => void;
}

/**
 * Webhook deliveries as a lane of the scheduler:
 *
 *   pending (in the database) --claim--> held: leased to this process, lease renewed while held (leases.ts)
 *     --> queued for its webhook (send-queue.ts) --> sending: at most 8 per webhook, 64 in all (attempt.ts)
 *     --> recorded with other outcomes in one batch (recorder.ts): the outcome is written only where the lease is
 *         still ours; the 50th consecutive failure disables the webhook and writes its admins' notice (disable.ts)
 *     --> released: the claim given back.
 *
 * Which deliveries to claim, and how far ahead per webhook, is the claim policy's (claims.ts).
 */
export function createWebhookLane(
  deps: WebhookLaneDeps,
  options: { concurrency: number; perWebhook: number; leaseMs: number },
  host: LaneHost,
): Lane & { readonly totals: Readonly<RunSummary> } {
  const { db, clock, sender, log } = deps;
  const signingSecret = createSecretOpener(deps.secrets);
  const { concurrency, perWebhook, leaseMs } = options;
  const policy = createClaimPolicy({ db, clock, leaseMs, concurrency, perWebhook });
  const leases = createLeases(db, 'delivery', clock, leaseMs, log);
  const recorder = createRecorder({ db, clock, onSettle: host.settle });
  const queue = createSendQueue<Held, Result>({
    concurrency,
    perKey: perWebhook,
    attempt: (d) =>
      attemptDelivery(d, sender, clock, signingSecret).then(
        (result) => {
          if (deps.onAttempt && result.attempt) {
            const a = result.attempt;
            deps.onAttempt({
              webhookId: d.webhookId,
              deliveryId: d.id,
              eventType: d.eventType,
              attempt: a.number,
              ok: a.ok,
              statusCode: a.statusCode,
              durationMs: a.durationMs,
              error: a.error,
              final: a.ok || a.nextAt === null,
            });
          }
          return result;
        },
        (err): Result => {
          log('[feedback-service] delivery attempt crashed', err);
          return { id: d.id, token: d.token, webhookId: d.webhookId, attempt: null };
        },
      ),
    done(webhookId, d, result) {
      if (policy.observe(webhookId, result.attempt)) host.pump(); // it may hold more now
      void recorder
        .record(result)
        .catch((err) => log('[feedback-service] recording a delivery failed; its lease will expire and it will be retried', err))
        .finally(() => release(d));
    },
  });

  /** Hold claimed deliveries (their leases are renewed from now on) and queue them for sending. */
  function take(claimed: Held[]): void {
    for (const d of claimed) {
      policy.hold(d);
      leases.hold(d.token, d.id);
      queue.push(d.webhookId, d);
    }
    if (claimed.length > 0) queue.start();
  }

  /** A recorded delivery gives back its claim; a webhook dropping below its claim limit can be claimed for again. */
  function release(d: Held): void {
    leases.release(d.token, d.id);
    const belowLimit = policy.release(d);
    if (lane.mayHaveMore) policy.wantShallow();
    if (belowLimit || lane.mayHaveMore) host.pump();
    else host.settle();
  }

  const lane = {
    kind: 'webhooks' as const,
    mayHaveMore: false,
    claimRound: () => policy.claimRound(take),
    get full() {
      return policy.full;
    },
    get held() {
      return policy.held;
    },
    get busy() {
      return recorder.busy;
    },
    rewind: () => policy.rewind(),
    async giveBack() {
      // Claimed but not yet sent: given back, so another process takes them now instead of when the lease lapses.
      // What is being sent finishes and is recorded.
      const waiting = queue.takeWaiting();
      if (waiting.length === 0) return;
      try {
        await giveBackClaims(db, 'delivery', waiting);
      } catch (err) {
        log('[feedback-service] giving back unsent claims failed; their leases will lapse and another process will take them', err);
      }
      for (const d of waiting) release(d);
    },
    get totals() {
      return recorder.totals;
    },
  };
  return lane;
}
