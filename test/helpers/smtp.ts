import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { CONDITION_DEADLINE_MS } from './wait.js';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The raw message: headers and body. */
  data: string;
}

export interface SmtpSink {
  readonly url: string;
  /** Messages received in full (the last line arrived), answered or not. */
  readonly mails: ReceivedMail[];
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  /** The sign-in code in the newest mail to `email`, once more than `seen` mails have come. */
  codeFor(email: string, seen: number): Promise<string>;
  /**
   * From the `count`th message on, keep every message received in full but do not answer it: the moment a sender has
   * handed a message over and not yet heard that it was accepted. Resolves when the `count`th message has arrived.
   */
  holdFrom(count: number): Promise<void>;
  /** Answer messages again (those held stay unanswered: their sender is gone). */
  release(): void;
  /** Refuse every message from now on with this reply (e.g. 451, 550), until `accept()`. */
  refuse(code: number, message: string): void;
  accept(): void;
  /** The messages parsed (headers decoded, text and html parts). */
  parsed(): Promise<ParsedMail[]>;
  close(): Promise<void>;
}

/** A raw message's quoted-printable text made readable enough to search: soft line breaks joined, `=3D` as `=`. */
export const unfold = (data: string): string => data.replace(/=\r\n/g, '').replace(/=3D/g, '=');

/** A real SMTP server on 127.0.0.1 that accepts every message (no auth, no TLS) and keeps it. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  let holdAt = Infinity;
  let reachedHold: (() => void) | undefined;
  let refusal: { code: number; message: string } | undefined;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      // A message cut off mid-way (the sender died) is destroyed, never ended: it is not counted.
      stream.on('error', () => {});
      stream.on('end', () => {
        if (refusal) return callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          data: Buffer.concat(chunks).toString('utf8'),
        });
        if (mails.length >= holdAt) {
          if (mails.length === holdAt) reachedHold?.();
          return; // received in full, never answered
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const sink: SmtpSink = {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitFor(count, timeoutMs = CONDITION_DEADLINE_MS) {
      const deadline = Date.now() + timeoutMs;
      while (mails.length < count) {
        if (Date.now() > deadline) throw new Error(`SMTP sink got ${mails.length} mails, expected ${count}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    async codeFor(email, seen) {
      // Mail goes out from the outbox after the request that asked for it: wait for one to this address.
      const deadline = Date.now() + 10_000;
      while (!mails.slice(seen).some((m) => m.to.includes(email))) {
        if (Date.now() > deadline) throw new Error(`no mail to ${email} after the first ${seen}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      const mail = mails.filter((m) => m.to.includes(email)).at(-1);
      const code = mail && /Your code is (\d{6})\./.exec(unfold(mail.data))?.[1];
      if (!code) throw new Error(`no sign-in code in the newest mail to ${email}`);
      return code;
    },
    holdFrom(count) {
      holdAt = count;
      return new Promise<void>((resolve) => {
        reachedHold = resolve;
        if (mails.length >= count) resolve();
      });
    },
    release() {
      holdAt = Infinity;
    },
    refuse(code, message) {
      refusal = { code, message };
    },
    accept() {
      refusal = undefined;
    },
    parsed: () => Promise.all(mails.map((m) => simpleParser(m.data))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return sink;
}
