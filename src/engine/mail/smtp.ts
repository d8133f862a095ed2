import { Readable } from 'node:stream';
import type SMTPConnection from 'nodemailer/lib/smtp-connection';
import type { MailEnvelope, MailTransport, OutgoingMail, SendOutcome } from './transport.js';

type Connection = InstanceType<typeof SMTPConnection>;
type SmtpError = Error & { responseCode?: number; code?: string; response?: string };
type Attempted = SendOutcome & { reachedData: boolean };

/** The body of one message: the bytes once the server took DATA, then the hand-over, then the end (the last line). */
class HandedOverBody extends Readable {
  /** The hand-over, once it started. */
  handingOver: Promise<boolean> | undefined;
  /** The end was pushed: the last line may be on its way. */
  ended = false;
  /** The connection broke: nothing more is pushed. */
  broken = false;

  constructor(
    readonly raw: Buffer,
    readonly handOver: () => Promise<boolean>,
  ) {
    super();
  }

  override _read(): void {
    // Read only once the server took DATA.
    if (this.handingOver) return;
    this.push(this.raw);
    this.handingOver = this.handOver();
    this.handingOver.then(
      (ours) => {
        if (this.broken) return;
        if (ours) {
          this.ended = true;
          this.push(null);
        } else this.destroy(new Error('the claim was lost'));
      },
      (err: unknown) => this.destroy(err as Error),
    );
  }
}

/** What a send that ended in an error came to: a hand-over still running may yet record it as sent, so it is waited for. */
async function outcomeOfError(e: SmtpError, body: HandedOverBody): Promise<Attempted> {
  const error = `${e.message}${e.response && !e.message.includes(e.response) ? ` (${e.response})` : ''}`;
  const ours = await (body.handingOver ?? Promise.resolve(false)).catch(() => false);
  const reachedData = body.handingOver !== undefined;
  if (reachedData && !ours) return { kind: 'abandoned', reachedData };
  if (typeof e.responseCode === 'number' && e.responseCode >= 400)
    return { kind: 'refused', permanent: e.responseCode >= 500, error, reachedData };
  return body.ended ? { kind: 'unconfirmed', error, reachedData } : { kind: 'failed', error, reachedData };
}

/**
 * One attempt on one connection. `reachedData`: the server took DATA (so the attempt is not retried on another
 * connection at once: the hand-over may have run). A connection broken mid-message is dropped (`drop`).
 */
function attempt(
  conn: Connection,
  envelope: MailEnvelope,
  raw: Buffer,
  handOver: () => Promise<boolean>,
  drop: (conn: Connection) => void,
): Promise<Attempted> {
  const body = new HandedOverBody(raw, handOver);
  return new Promise((resolve) => {
    conn.send({ from: envelope.from, to: [envelope.to] }, body, (err, info) => {
      if (!err) return resolve({ kind: 'accepted', response: info?.response ?? '', reachedData: true });
      body.broken = true;
      // Mid-message, the connection cannot carry another one.
      drop(conn);
      void outcomeOfError(err as SmtpError, body).then(resolve);
    });
  });
}

/**
 * An SMTP server through nodemailer's SMTPConnection, a small pool of connections each carrying one message at a time.
 * nodemailer's transports write a message's last line as soon as its bytes are through; this one waits for
 * `handOver` first, which is why it drives the connection itself.
 */
export class SmtpTransport implements MailTransport {
  readonly name = 'smtp' as const;
  readonly #url: string;
  readonly #options: { connections: number; name?: string };
  readonly #idle: Connection[] = [];
  readonly #open = new Set<Connection>();
  #closed = false;

  constructor(url: string, options: { connections: number; name?: string }) {
    this.#url = url;
    this.#options = options;
  }

  async #connect(): Promise<Connection> {
    const [{ default: SMTPConnectionClass }, { parseConnectionUrl }] = await Promise.all([
      import('nodemailer/lib/smtp-connection'),
      import('nodemailer/lib/shared'),
    ]);
    const { auth, ...settings } = parseConnectionUrl(this.#url);
    const conn = new SMTPConnectionClass({
      ...settings,
      name: this.#options.name,
      connectionTimeout: 30_000,
      greetingTimeout: 30_000,
      socketTimeout: 60_000,
    } as never);
    this.#open.add(conn);
    // An error event without a listener would end the process: every one retires the connection. Until the greeting a
    // failure comes only as such an event (connect's callback hears of success alone), so it also fails the connect.
    let greeted = false;
    await new Promise<void>((resolve, reject) => {
      conn.on('error', (err) => {
        this.#drop(conn);
        if (!greeted) reject(err);
      });
      conn.on('end', () => {
        this.#drop(conn);
        if (!greeted) reject(new Error('the SMTP server closed the connection'));
      });
      conn.connect(() => {
        greeted = true;
        resolve();
      });
    });
    if (auth) {
      await new Promise<void>((resolve, reject) => conn.login(auth, (err) => (err ? reject(err) : resolve()))).catch(
        (err: unknown) => {
          this.#drop(conn);
          throw err;
        },
      );
    }
    return conn;
  }

  #drop(conn: Connection): void {
    if (!this.#open.delete(conn)) return;
    const i = this.#idle.indexOf(conn);
    if (i >= 0) this.#idle.splice(i, 1);
    conn.close();
  }

  async send({ envelope, raw }: OutgoingMail, handOver: () => Promise<boolean>): Promise<SendOutcome> {
    if (this.#closed) return { kind: 'failed', error: 'the mail transport is closed' };
    // A kept connection the server has since closed fails before anything is sent: try once more on a new one.
    for (let fresh = this.#idle.length === 0; ; fresh = true) {
      let conn: Connection | undefined = this.#idle.pop();
      try {
        conn ??= await this.#connect();
      } catch (err) {
        return { kind: 'failed', error: `cannot reach the SMTP server: ${(err as Error).message}` };
      }
      const { reachedData, ...outcome } = await attempt(conn, envelope, raw, handOver, (c) => this.#drop(c));
      if (outcome.kind === 'accepted' && !this.#closed && this.#idle.length < this.#options.connections)
        this.#idle.push(conn);
      else if (outcome.kind === 'accepted') this.#drop(conn);
      if (outcome.kind === 'failed' && !fresh && !reachedData) continue;
      return outcome;
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const conn of [...this.#open]) {
      if (this.#idle.includes(conn)) conn.quit();
      this.#drop(conn);
    }
  }
}

export function createSmtpTransport(url: string, options: { connections: number; name?: string }): MailTransport {
  return new SmtpTransport(url, options);
}
