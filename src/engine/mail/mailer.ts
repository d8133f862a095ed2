import { maskEmail } from '../shared/index.js';
import { unsentLine } from './transport.js';
/** One message sent at once (a portal sign-in code). */
export interface MailMessage {
  to: string[];
  subject: string;
  text: string;
  /** What it is, in a few words (`a sign-in code`): what the log says of it without SMTP. */
  about: string;
}

/** Where admin notices go. `send` never throws: a mail failure is logged, not fatal. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export interface MailOptions {
  /** An SMTP URL (`smtp://user:pass@host:587`, `smtps://...`). Without one, messages are logged. */
  smtpUrl?: string;
  /** The sender address; `feedback-service@localhost` by default. */
  from?: string;
  log: (message: string) => void;
  /** Without SMTP, log each message's subject and text too (development only: they hold sign-in codes). */
  logBodies?: boolean;
}

/**
 * Mail through nodemailer to the configured SMTP server, or to the log when none is configured.
 * nodemailer is loaded only when an SMTP server is configured.
 */
export function createMailer(options: MailOptions): Mailer {
  const from = options.from ?? 'feedback-service@localhost';
  if (!options.smtpUrl) {
    return {
      async send(message) {
        for (const to of message.to) options.log(unsentLine(to, message.about, options.logBodies ? message : undefined));
      },
      close() {},
    };
  }
  const smtpUrl = options.smtpUrl;
  let transport: Promise<{ sendMail(m: object): Promise<unknown>; close(): void }> | undefined;
  const getTransport = () =>
    (transport ??= import('nodemailer').then((nodemailer) => nodemailer.createTransport(smtpUrl)));
  return {
    async send(message) {
      if (message.to.length === 0) {
        options.log(`[feedback-service] mail not sent (the workspace has no admin emails): ${message.subject}`);
        return;
      }
      try {
        await (await getTransport()).sendMail({ from, to: message.to, subject: message.subject, text: message.text });
      } catch (err) {
        // The SMTP URL may carry a password: report the error, not the configuration.
        options.log(`[feedback-service] mail to ${message.to.map(maskEmail).join(', ')} failed: ${(err as Error).message}`);
      }
    },
    close() {
      void transport?.then((t) => t.close());
    },
  };
}
