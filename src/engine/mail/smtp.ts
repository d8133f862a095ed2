import { maskEmail } from '../shared/index.js';
import { Readable } from 'node:stream';
import type SMTPConnection from 'nodemailer/lib/smtp-connection';

/**
 * What became of one message. The SMTP exchange has one point after which the server may hold the message whether
 * or not its answer arrives: the message's last line. `handOver` runs just before that line is written; it records the
 * message as sent, so that nothing sends it again, whatever happens next.
 */
export type SendOutcome =
  /** The server accepted it (250). */
  | { kind: 'accepted'; response: string }
  /** Handed over, and then no answer (the connection broke): it may have arrived. Never sent again. */
  | { kind: 'unconfirmed'; error: string }
  /** The server said no, to the envelope or to the message: not accepted. `permanent`: a 5xx. */
  | { kind: 'refused'; permanent: boolean; error: string }
  /** The server could not be reached or talked to before the hand-over: not sent. */
  | { kind: 'failed'; error: string }
  /** `handOver` said no (the claim was lost to another process): not sent. */
  | { kind: 'abandoned' };

export interface MailEnvelope {
  from: string;
  to: string;
}

/** A message as transports take it: its envelope, its MIME bytes, its words, and what it is about in a word or two. */
export interface OutgoingMail {
  envelope: MailEnvelope;
  raw: Buffer;
  subject: string;
  text: string;
  /** What kind of message it is (`post_status`, `a digest: post_status, reply`): what a log line says of it. */
  about: string;
}

/** Where the mail lane's messages go: an SMTP server, or the log. */
export interface MailTransport {
  readonly name: 'smtp' | 'log';
  /** Send one message; `handOver` must commit that it is sent, or say not to send it (false). */
  send(mail: OutgoingMail, handOver: () => Promise<boolean>): Promise<SendOutcome>;
  close(): Promise<void>;
}

/**
 * A server without SMTP: each message counts as sent and is one log line saying what it was and to whom (masked),
 * never its words: those hold live links (unsubscribe, preferences) and sign-in codes, and logs are kept and shipped.
 * `bodies` (development only) logs the subject and text as well.
 */
export function createLogTransport(log: (message: string) => void, options: { bodies?: boolean } = {}): MailTransport {
  return {
    name: 'log',
    async send(mail, handOver) {
      if (!(await handOver())) return { kind: 'abandoned' };
      log(unsentLine(mail.envelope.to, mail.about, options.bodies ? { subject: mail.subject, text: mail.text } : undefined));
      return { kind: 'accepted', response: 'logged' };
    },
    async close() {},
  };
}

/** The log line of a message not sent for want of an SMTP server: what and to whom, and its words only when asked. */
export function unsentLine(to: string, about: string, words?: { subject: string; text: string }): string {
  const head = `[feedback-service] mail not sent (no SMTP server configured): ${about} to ${maskEmail(to)}`;
  return words ? `${head}: ${words.subject}\n${words.text}` : `${head} (its text is not logged: serve --log-mail-bodies shows it)`;
}

type Connection = InstanceType<typeof SMTPConnection>;
type SmtpError = Error & { responseCode?: number; code?: string; response?: string };

/**
 * An SMTP server through nodemailer's SMTPConnection, a small pool of connections each carrying one message at a time.
 * nodemailer's transports write a message's last line as soon as its bytes are through; this one waits for
 * `handOver` first, which is why it drives the connection itself.
 */
export function createSmtpTransport(url: string, options: { connections: number; name?: string }): MailTransport {
  const idle: Connection[] = [];
  const open = new Set<Connection>();
  let closed = false;

  async function connect(): Promise<Connection> {
    const [{ default: SMTPConnectionClass }, { parseConnectionUrl }] = await Promise.all([import('nodemailer/lib/smtp-connection'), import('nodemailer/lib/shared')]);
    const { auth, ...settings } = parseConnectionUrl(url);
    const conn = new SMTPConnectionClass({ ...settings, name: options.name, connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 } as never);
    open.add(conn);
    // An error event without a listener would end the process: every one retires the connection. Until the greeting a
    // failure comes only as such an event (connect's callback hears of success alone), so it also fails the connect.
    let greeted = false;
    await new Promise<void>((resolve, reject) => {
      conn.on('error', (err) => {
        drop(conn);
        if (!greeted) reject(err);
      });
      conn.on('end', () => {
        drop(conn);
        if (!greeted) reject(new Error('the SMTP server closed the connection'));
      });
      conn.connect(() => {
        greeted = true;
        resolve();
      });
    });
    if (auth) {
      await new Promise<void>((resolve, reject) => conn.login(auth, (err) => (err ? reject(err) : resolve()))).catch((err: unknown) => {
        drop(conn);
        throw err;
      });
    }
    return conn;
  }

  function drop(conn: Connection): void {
    if (!open.delete(conn)) return;
    const i = idle.indexOf(conn);
    if (i >= 0) idle.splice(i, 1);
    conn.close();
  }

  /**
   * One attempt on one connection. `reachedData`: the server took DATA (so the attempt is not retried on another
   * connection at once: the hand-over may have run).
   */
  function attempt(conn: Connection, envelope: MailEnvelope, raw: Buffer, handOver: () => Promise<boolean>): Promise<SendOutcome & { reachedData: boolean }> {
    let handingOver: Promise<boolean> | undefined;
    /** The end was pushed: the last line may be on its way. */
    let ended = false;
    let broken = false;
    const body = new Readable({
      read() {
        // Read only once the server took DATA: the bytes, then the hand-over, then the end (the last line).
        if (handingOver) return;
        this.push(raw);
        handingOver = handOver();
        handingOver.then(
          (ours) => {
            if (broken) return;
            if (ours) {
              ended = true;
              this.push(null);
            } else this.destroy(new Error('the claim was lost'));
          },
          (err: unknown) => this.destroy(err as Error),
        );
      },
    });
    return new Promise((resolve) => {
      conn.send({ from: envelope.from, to: [envelope.to] }, body, (err, info) => {
        if (!err) return resolve({ kind: 'accepted', response: info?.response ?? '', reachedData: true });
        broken = true;
        // Mid-message, the connection cannot carry another one.
        drop(conn);
        const e = err as SmtpError;
        const error = `${e.message}${e.response && !e.message.includes(e.response) ? ` (${e.response})` : ''}`;
        // A hand-over still running when the connection broke may yet record the message as sent: wait for it, so
        // the outcome says what is true (the lane takes a record that was never ended back).
        void (handingOver ?? Promise.resolve(false)).catch(() => false).then((ours) => {
          const reachedData = handingOver !== undefined;
          if (reachedData && !ours) return resolve({ kind: 'abandoned', reachedData });
          if (typeof e.responseCode === 'number' && e.responseCode >= 400) return resolve({ kind: 'refused', permanent: e.responseCode >= 500, error, reachedData });
          resolve(ended ? { kind: 'unconfirmed', error, reachedData } : { kind: 'failed', error, reachedData });
        });
      });
    });
  }

  return {
    name: 'smtp',
    async send({ envelope, raw }, handOver) {
      if (closed) return { kind: 'failed', error: 'the mail transport is closed' };
      // A kept connection the server has since closed fails before anything is sent: try once more on a new one.
      for (let fresh = idle.length === 0; ; fresh = true) {
        let conn: Connection | undefined = idle.pop();
        try {
          conn ??= await connect();
        } catch (err) {
          return { kind: 'failed', error: `cannot reach the SMTP server: ${(err as Error).message}` };
        }
        const { reachedData, ...outcome } = await attempt(conn, envelope, raw, handOver);
        if (outcome.kind === 'accepted' && !closed && idle.length < options.connections) idle.push(conn);
        else if (outcome.kind === 'accepted') drop(conn);
        if (outcome.kind === 'failed' && !fresh && !reachedData) continue;
        return outcome;
      }
    },
    async close() {
      closed = true;
      for (const conn of [...open]) {
        if (idle.includes(conn)) conn.quit();
        drop(conn);
      }
    },
  };
}
