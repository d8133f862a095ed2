// Mail out: the SMTP server (or the log, without one) that every message goes through, from the outbox.
export { createSmtpTransport } from './smtp.js';
export {
  createLogTransport,
  type MailEnvelope,
  type MailTransport,
  type OutgoingMail,
  type SendOutcome,
  unsentLine,
} from './transport.js';
