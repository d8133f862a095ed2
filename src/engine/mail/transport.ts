import { maskEmail } from '../shared/index.js';

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
      log(
        unsentLine(
          mail.envelope.to,
          mail.about,
          options.bodies ? { subject: mail.subject, text: mail.text } : undefined,
        ),
      );
      return { kind: 'accepted', response: 'logged' };
    },
    async close() {},
  };
}

/** The log line of a message not sent for want of an SMTP server: what and to whom, and its words only when asked. */
export function unsentLine(to: string, about: string, words?: { subject: string; text: string }): string {
  const head = `[feedback-service] mail not sent (no SMTP server configured): ${about} to ${maskEmail(to)}`;
  return words
    ? `${head}: ${words.subject}\n${words.text}`
    : `${head} (its text is not logged: serve --log-mail-bodies shows it)`;
}
