import type { AttemptReport, SchedulerOptions } from './delivery/index.js';
import type { IntegrationsOptions } from './integrations/index.js';
import type { DatabaseTimeouts } from './orm.js';
import type { EmbeddingsOptions } from './search/index.js';
import type { SecretKeys } from './secrets/index.js';
import type { Logger } from './shared/index.js';

export interface EngineOptions {
  /** A SQLite file path, `:memory:`, or a `postgres://` URL. */
  database: string;
  /** Where time comes from; tests inject one. */
  clock?: () => Date;
  /** How long to wait on PostgreSQL before a request is answered 503 (connect 5 s, statement 15 s, idle transaction 10 s). */
  timeouts?: DatabaseTimeouts;
  webhooks?: WebhookOptions;
  /** Where background work (deliveries, mail) reports problems; never receives secrets. Defaults to one line on stderr. */
  log?: (message: string, error?: unknown) => void;
  /**
   * A structured logger (a pino logger is one): problems go to it (unless `log` is given), and every delivery
   * attempt is one `info` line with its webhook, delivery, attempt, status and duration.
   */
  logger?: Logger;
  /** Hears of every delivery attempt (metrics). */
  onAttempt?: (attempt: AttemptReport) => void;
  /** Notification mail: where it goes, who it is from, and the public address its links use. */
  mail?: MailOptions;
  /**
   * The DNS lookup that verifies a single sign-on domain's TXT record (docs/security.md): node:dns's `resolveTxt` by
   * default; tests and hosts with their own resolver give one.
   */
  dns?: { resolveTxt(name: string): Promise<string[][]> };
  /**
   * The keys that seal webhook secrets at rest. Default: `FEEDBACK_SECRET_KEY` (and `FEEDBACK_SECRET_KEY_FALLBACKS`)
   * from the environment; else, for a SQLite file, a key file beside it (`<database>.key`, created with mode 0600);
   * a `:memory:` database gets a key of its own. PostgreSQL needs one of the first two.
   */
  secretKeys?: SecretKeys;
  /**
   * Find the keys when something is first sealed or opened, not at creation: for a tool that may need none, such as
   * migrating a new database (the upgrade that brought sealing still needs the key, to seal what 0.1.0 kept in clear).
   */
  secretKeysWhenNeeded?: boolean;
  /**
   * An OpenAI-compatible embeddings endpoint (Ollama, llama.cpp's server, ...): possible duplicates then also compare
   * titles by meaning (docs/search.md#possible-duplicates). Without one, the similarity is lexical alone.
   */
  embeddings?: EmbeddingsOptions;
  /**
   * Linear, GitHub and Slack (docs/integrations.md): each service's API address (a GitHub Enterprise Server's, or a
   * local stand-in) and the OAuth apps workspaces connect through. A workspace's own keys and tokens are kept sealed per
   * connection; without this option every service is reached at its public address, by pasted credentials.
   */
  integrations?: IntegrationsOptions;
}

export interface MailOptions {
  /**
   * The SMTP server all mail goes through (`smtp://user:pass@host:587`, `smtps://...`): notifications, portal codes,
   * admin notices. Without one, every message is logged instead (and counts as sent).
   */
  smtpUrl?: string;
  /** The sender address (`feedback-service@localhost`); a notification's display name is the workspace's name. */
  from?: string;
  /**
   * The server's public address (`https://feedback.example.com`): the links in notifications (a post's page, the
   * preferences page, the one-click unsubscribe) start with it. A function is read when each message is composed.
   * Without one, notifications carry no links, and no List-Unsubscribe header.
   */
  publicUrl?: string | (() => string | undefined);
  /** SMTP connections notifications are sent over at once (4). */
  connections?: number;
  /**
   * Without an SMTP server, log each message's subject and text too, sign-in codes and unsubscribe links included.
   * For development only: by default the log says what was not sent and to whom (masked), never its words.
   */
  logBodies?: boolean;
}

/** How long sent, failed and cancelled mail rows are kept (the outbox's retention; docs/privacy.md). */
export const MAIL_RETENTION_DAYS = 30;

export interface WebhookOptions {
  /**
   * Accept receivers on loopback, private and other non-public addresses, at registration and at connect
   * time. For tests and local development only: it turns the server into a proxy into its own network.
   */
  allowPrivateNetworks?: boolean;
  /** Per-attempt receiver time-out in milliseconds (10,000). */
  timeoutMs?: number;
  /** @deprecated Use `mail.smtpUrl` (it carries all mail now). */
  smtpUrl?: string;
  /** @deprecated Use `mail.from`. */
  mailFrom?: string;
  /** Concurrency, lease and poll settings of the delivery scheduler. */
  scheduler?: SchedulerOptions;
}
