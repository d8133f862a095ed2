import { randomBytes } from 'node:crypto';
import type { MailTransport, SendOutcome } from '../mail/index.js';
import { ACCOUNT_MAIL_KINDS } from '../notifications/index.js';
import { type Database, mailClaims } from '../store/index.js';
import type { Lane, LaneHost } from './lane.js';
import { createLeases, giveBackClaims, type Leases } from './leases.js';
import type { Composer, HeldMail } from './mail-compose.js';
import { SendQueue } from './send-queue.js';

/** The waits before a message's second to sixth attempts: a server that is down for hours still gets it. */
export const MAIL_RETRY_SCHEDULE_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000] as const;

/**
 * What the mail lane did: messages' rows sent, retried later, failed for good, sent without the server's answer, and
 * not sent after all (a code that expired before it could go; a console sign-in for an address on no team).
 */
export interface MailSummary {
  sent: number;
  retried: number;
  failed: number;
  unconfirmed: number;
  cancelled: number;
}

export interface MailLaneDeps {
  db: Database;
  clock: () => Date;
  transport: MailTransport;
  compose: Composer;
  log: (message: string, error?: unknown) => void;
}

/** Each recipient's claimed rows, in claim order: one message each; an account message (a sign-in code) always alone. */
function messages(rows: mailClaims.ClaimedMail[], token: string): HeldMail[] {
  const byRecipient = new Map<string, HeldMail>();
  for (const r of rows) {
    const key = ACCOUNT_MAIL_KINDS.has(r.kind) ? r.id : `${r.organizationId} ${r.emailHash}`;
    let m = byRecipient.get(key);
    if (!m)
      byRecipient.set(
        key,
        (m = {
          token,
          organizationId: r.organizationId,
          emailHash: r.emailHash,
          email: r.email,
          contactId: r.contactId,
          rows: [],
        }),
      );
    m.rows.push({ id: r.id, kind: r.kind, payload: r.payload, attemptCount: r.attemptCount });
    // The newest row's address and contact: where the person is now.
    m.email = r.email;
    m.contactId = r.contactId ?? m.contactId;
  }
  return [...byRecipient.values()];
}

type Sent = { outcome: SendOutcome | { kind: 'cancelled'; reason: string }; messageId: string };

/**
 * Mail as a lane of the scheduler:
 *
 *   pending rows --claim--> held: a recipient's due rows as one message, leased to this process (leases.ts)
 *     --> composed (mail-compose.ts) --> sent over one of `connections` SMTP connections (smtp.ts), its rows
 *         recorded as sent just before the message's last line (handOver) --> retried on the schedule, or failed
 *     --> released: the claim given back.
 *
 * A process that dies before the hand-over loses nothing (the lease lapses, another claims the rows); one that dies
 * after it never sends the message again.
 */
export class MailLane implements Lane {
  readonly kind = 'mail' as const;
  mayHaveMore = false;
  readonly #deps: MailLaneDeps;
  readonly #host: LaneHost;
  readonly #leaseMs: number;
  readonly #heldLimit: number;
  readonly #leases: Leases;
  readonly #queue: SendQueue<HeldMail, Sent>;
  readonly #totals: MailSummary = { sent: 0, retried: 0, failed: 0, unconfirmed: 0, cancelled: 0 };
  #held = 0;
  #recording = 0;

  constructor(deps: MailLaneDeps, options: { connections: number; leaseMs: number }, host: LaneHost) {
    this.#deps = deps;
    this.#host = host;
    this.#leaseMs = options.leaseMs;
    this.#heldLimit = options.connections * 16;
    this.#leases = createLeases(deps.db, 'mail', deps.clock, options.leaseMs, deps.log);
    this.#queue = new SendQueue<HeldMail, Sent>({
      concurrency: options.connections,
      perKey: options.connections,
      attempt: (m) => this.#send(m),
      done: (_key, m, result) => this.#done(m, result),
    });
  }

  get full(): boolean {
    return this.#held >= this.#heldLimit;
  }
  get held(): number {
    return this.#held;
  }
  get busy(): boolean {
    return this.#recording > 0;
  }
  get totals(): Readonly<MailSummary> {
    return { ...this.#totals };
  }
  rewind(): void {}

  async claimRound(): Promise<number> {
    const { db, clock } = this.#deps;
    const now = clock();
    const token = randomBytes(12).toString('hex');
    const rows = await mailClaims.claimMail(db, {
      now,
      token,
      leaseUntil: new Date(now.getTime() + this.#leaseMs),
      limit: this.#heldLimit - this.#held,
    });
    for (const m of messages(rows, token)) {
      this.#held++;
      for (const r of m.rows) this.#leases.hold(token, r.id);
      this.#queue.push('mail', m);
    }
    if (rows.length > 0) this.#queue.start();
    return rows.length;
  }

  async giveBack(): Promise<void> {
    const waiting = this.#queue.takeWaiting();
    if (waiting.length === 0) return;
    try {
      await giveBackClaims(
        this.#deps.db,
        'mail',
        waiting.flatMap((m) => m.rows.map((r) => ({ token: m.token, id: r.id }))),
      );
    } catch (err) {
      this.#deps.log(
        '[feedback-service] giving back unsent mail failed; its leases will lapse and another process will take it',
        err,
      );
    }
    for (const m of waiting) this.#release(m);
  }

  async #send(m: HeldMail): Promise<Sent> {
    const { db, clock, transport, compose, log } = this.#deps;
    let messageId = '';
    try {
      const composed = await compose(m);
      if ('cancelled' in composed) return { outcome: { kind: 'cancelled', reason: composed.cancelled }, messageId };
      messageId = composed.messageId;
      const ids = m.rows.map((r) => r.id);
      return {
        outcome: await transport.send(composed, () =>
          mailClaims.handOver(db, ids, m.token, composed.messageId, clock()),
        ),
        messageId,
      };
    } catch (err) {
      log('[feedback-service] a message could not be sent; it will be retried', err);
      return { outcome: { kind: 'failed', error: (err as Error).message }, messageId };
    }
  }

  #done(m: HeldMail, result: Sent): void {
    this.#recording++;
    void this.#record(m, result)
      .catch((err) =>
        this.#deps.log(
          '[feedback-service] recording a message failed; its lease will expire and it will be retried',
          err,
        ),
      )
      .finally(() => {
        this.#recording--;
        this.#release(m);
      });
  }

  async #record(m: HeldMail, { outcome, messageId }: Sent): Promise<void> {
    const { db, clock, log } = this.#deps;
    switch (outcome.kind) {
      case 'accepted':
        this.#totals.sent += m.rows.length;
        return;
      case 'abandoned':
        return;
      case 'cancelled':
        this.#totals.cancelled += m.rows.length;
        await mailClaims.cancelHeld(
          db,
          m.rows.map((r) => r.id),
          m.token,
          outcome.reason,
          clock(),
        );
        return;
      case 'unconfirmed':
        this.#totals.unconfirmed += m.rows.length;
        log(
          `[feedback-service] mail ${messageId} was handed over but the server did not confirm it (${outcome.error}); it is not sent again`,
        );
        await mailClaims.noteUnconfirmed(db, messageId, outcome.error);
        return;
      case 'refused':
      case 'failed': {
        const now = clock();
        const permanent = outcome.kind === 'refused' && outcome.permanent;
        const rows = m.rows.map((r) => {
          const wait = permanent ? undefined : MAIL_RETRY_SCHEDULE_MS[r.attemptCount];
          if (wait === undefined) this.#totals.failed++;
          else this.#totals.retried++;
          return { id: r.id, nextAt: wait === undefined ? null : new Date(now.getTime() + wait) };
        });
        await mailClaims.requeue(db, rows, { token: m.token, messageId }, outcome.error, now);
      }
    }
  }

  /** A sent (or requeued) message gives back its claim. A lane that was full refills once half its claims are back: one claim a batch, not one a message. */
  #release(m: HeldMail): void {
    for (const r of m.rows) this.#leases.release(m.token, r.id);
    this.#held--;
    if (this.mayHaveMore && this.#held <= this.#heldLimit / 2) this.#host.pump();
    else this.#host.settle();
  }
}

export function createMailLane(
  deps: MailLaneDeps,
  options: { connections: number; leaseMs: number },
  host: LaneHost,
): MailLane {
  return new MailLane(deps, options, host);
}
