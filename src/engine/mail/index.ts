// Mail out: the SMTP server (or the log, without one) that notifications go through, and the mailer that sends a
// message at once (a portal sign-in code).
export { createMailer, type MailMessage, type Mailer, type MailOptions } from './mailer.js';
export { createSmtpTransport } from './smtp.js';
export { createLogTransport, unsentLine, type MailEnvelope, type MailTransport, type OutgoingMail, type SendOutcome } from './transport.js';
