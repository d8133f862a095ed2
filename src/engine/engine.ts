import type { MikroORM } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/knex';
import { WEBHOOK_LIMITS } from '../schemas/webhooks.js';
import { createBoardsService } from './boards.js';
import { createChangelogService } from './changelog.js';
import { createContactsService } from './contacts/index.js';
import { createMailer } from './delivery/mailer.js';
import { createComposer } from './delivery/mail-compose.js';
import { createLogTransport, createSmtpTransport } from './delivery/smtp.js';
import { createMailTokens, type MailTokens } from './notifications/tokens.js';
import { createNotificationsService, type NotificationsService } from './notifications/service.js';
import { createPrivacyService, redactDeliveredErasures, type PrivacyService } from './privacy/service.js';
import * as outbox from './store/mail.js';
import { createScheduler, type AttemptReport, type DeliveryScheduler, type SchedulerOptions } from './delivery/scheduler.js';
import * as deliveries from './store/deliveries.js';
import { createSender } from './delivery/sender.js';
import { createEventsService } from './events.js';
import { createIdempotencyStore } from './idempotency.js';
import { createPortalReader, type PortalReader } from './portal.js';
import { createInteractionsService } from './interactions.js';
import { createKeyCache, createKeysService } from './keys.js';
import { createRateLimiter, createSharedRateLimiter, type RateLimiter } from './limits.js';
import { createReadiness, type Readiness } from './health.js';
import { logErrorLine, logToLogger, type Logger } from './log.js';
import { MIGRATIONS, SEALED_SECRETS_MIGRATION } from './migrations/index.js';
import { CLIENT_TIMEOUT_MARGIN_MS, DEFAULT_TIMEOUTS, ormOptions, parseDatabase, type ConnectionSettings, type DatabaseTarget, type DatabaseTimeouts } from './orm.js';
import { createOrganizationsService } from './organizations.js';
import { createPostsService } from './posts.js';
import { resealStored, type ResealReport } from './sealing.js';
import { createParticipation, type Participation } from './participation.js';
import { createSecretBox, resolveSecretKeys, type SecretKeys } from './secrets.js';
import { createDatabase } from './store/database.js';
import type { Database } from './store/sql.js';
import { createTagsService } from './tags.js';
import { createWebhooksService } from './webhooks/index.js';

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
   * The keys that seal webhook secrets at rest. Default: `FEEDBACK_SECRET_KEY` (and `FEEDBACK_SECRET_KEY_FALLBACKS`)
   * from the environment; else, for a SQLite file, a key file beside it (`<database>.key`, created with mode 0600);
   * a `:memory:` database gets a key of its own. PostgreSQL needs one of the first two.
   */
  secretKeys?: SecretKeys;
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

/** Everything one workspace can do; every statement behind it names the workspace. */
export interface Workspace {
  readonly organizationId: string;
  readonly contacts: ReturnType<typeof createContactsService>;
  readonly boards: ReturnType<typeof createBoardsService>;
  readonly tags: ReturnType<typeof createTagsService>;
  readonly posts: ReturnType<typeof createPostsService>;
  /** What end-users do on public boards: post, vote, comment (with or without the notify-me opt-in). */
  readonly public: ReturnType<typeof createInteractionsService>;
  readonly changelog: ReturnType<typeof createChangelogService>;
  /** What the public portal reads: public boards, their shown posts and comments, the roadmap, the changelog. */
  readonly portal: PortalReader;
  /** Taking part on the portal: its token secret, sign-in, email codes, sessions, and end-users' posts, votes and comments. */
  readonly participation: Participation;
  readonly events: ReturnType<typeof createEventsService>;
  readonly webhooks: ReturnType<typeof createWebhooksService>;
  /** Notification mail: subscriptions the workspace makes, and what a recipient gets, changes and unsubscribes from. */
  readonly notifications: NotificationsService;
  /** Data-subject requests: everything held about a person (`export`), and their erasure (`erase`). */
  readonly privacy: PrivacyService;
}

export interface Engine {
  readonly dialect: 'sqlite' | 'postgresql';
  readonly orm: MikroORM;
  readonly db: Database;
  readonly clock: () => Date;
  readonly organizations: ReturnType<typeof createOrganizationsService>;
  readonly keys: ReturnType<typeof createKeysService>;
  /** Per-key request budgets: in memory on SQLite, shared by every instance on PostgreSQL. */
  readonly limits: RateLimiter;
  /** Idempotency-Key records of POST requests (per workspace, 24 hours). */
  readonly idempotency: ReturnType<typeof createIdempotencyStore>;
  /**
   * Webhook delivery: `start()` it in a server process (`serve` does), or call `runDue()` yourself.
   * Several processes on one PostgreSQL database share the work.
   */
  readonly scheduler: DeliveryScheduler;
  /** The operations of one workspace. The caller always names it. */
  workspace(organizationId: string): Workspace;
  /** The signed tokens in notification links: who a link is for (`verify`), and a link's token (`sign`). */
  readonly mailLinks: MailTokens;
  /** Apply the checked-in migrations; returns the names applied now. */
  migrate(): Promise<string[]>;
  /**
   * The backlog across workspaces, for metrics: due webhook deliveries, the oldest one's age, disabled webhooks, and
   * the mail outbox's due rows and the oldest one's age.
   */
  deliveryBacklog(): Promise<{ due: number; oldestDueAgeSeconds: number | null; disabledWebhooks: number; mailDue: number; mailOldestDueAgeSeconds: number | null }>;
  /**
   * Whether this engine can serve: the database answers (within 2 s), no migration is pending, and, with
   * `requireScheduler`, the delivery scheduler runs. What `/readyz` reports.
   */
  readiness(options?: { requireScheduler?: boolean }): Promise<Readiness>;
  /** The id of the key that seals secrets now (8 hex characters; the key itself is never shown). */
  readonly secretKeyId: string;
  /**
   * Seal every stored secret under the current key: the last step of a key rotation (docs/security.md). Safe beside
   * serving processes.
   */
  rotateSecrets(): Promise<ResealReport>;
  close(): Promise<void>;
}

/** The outbox's retention: settled rows older than MAIL_RETENTION_DAYS, a thousand at a time. */
async function purgeOutbox(db: Database, clock: () => Date): Promise<void> {
  const before = new Date(clock().getTime() - MAIL_RETENTION_DAYS * 86_400_000);
  while ((await outbox.purgeSettled(db, before, 1000)) === 1000);
}

/** What hears of each delivery attempt: the logger's line and the caller's listener. */
function attemptListener(options: EngineOptions): ((a: AttemptReport) => void) | undefined {
  const { logger, onAttempt } = options;
  if (!logger && !onAttempt) return undefined;
  return (a) => {
    logger?.info(
      { webhookId: a.webhookId, deliveryId: a.deliveryId, event: a.eventType, attempt: a.attempt, status: a.statusCode, durationMs: a.durationMs, ok: a.ok, error: a.error ?? undefined },
      a.ok ? 'delivery attempt succeeded' : a.final ? 'delivery attempt failed; no more attempts' : 'delivery attempt failed; will retry',
    );
    onAttempt?.(a);
  };
}

/** The ORM, with the checked-in migrations; each driver is imported only when its database is used. */
async function initOrm(target: DatabaseTarget, settings: ConnectionSettings): Promise<MikroORM> {
  const { Migrator } = await import('@mikro-orm/migrations');
  const options = ormOptions(target, {
    extensions: [Migrator],
    migrations: {
      migrationsList: MIGRATIONS[target.dialect],
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
    },
  }, settings);
  if (target.dialect === 'sqlite') {
    const { MikroORM } = await import('@mikro-orm/libsql');
    return (await MikroORM.init(options as never)) as unknown as MikroORM;
  }
  const { MikroORM } = await import('@mikro-orm/postgresql');
  return (await MikroORM.init(options as never)) as unknown as MikroORM;
}

/**
 * Open the database and build the engine. Call `migrate()` before first use of a new database.
 * @example
 * const engine = await createEngine({ database: './feedback.db' });
 * await engine.migrate();
 * const { contact } = await engine.workspace(orgId).contacts.identify({ externalUserId: 'u_1' });
 */
export async function createEngine(options: EngineOptions): Promise<Engine> {
  const target = parseDatabase(options.database);
  const dialect = target.dialect;
  const log = options.log ?? (options.logger ? logToLogger(options.logger) : logErrorLine);
  // Before anything is opened: a missing or malformed key stops here, leaving nothing to close.
  const secrets = createSecretBox(options.secretKeys ?? resolveSecretKeys(target, process.env, (message) => log(message)));
  const given = options.timeouts ?? {};
  const timeouts: Required<DatabaseTimeouts> = {
    connectMs: given.connectMs ?? DEFAULT_TIMEOUTS.connectMs,
    statementMs: given.statementMs ?? DEFAULT_TIMEOUTS.statementMs,
    idleInTransactionMs: given.idleInTransactionMs ?? DEFAULT_TIMEOUTS.idleInTransactionMs,
  };
  const orm = await initOrm(target, { timeouts, log });
  const clock = options.clock ?? (() => new Date());
  const knex = (orm.em as unknown as { getKnex(): Knex }).getKnex();
  const db = createDatabase(dialect, knex, { location: target.location, log, answerMs: timeouts.statementMs + CLIENT_TIMEOUT_MARGIN_MS });
  const limits = dialect === 'postgresql' ? createSharedRateLimiter(db, clock, log) : createRateLimiter(clock);
  const keyCache = createKeyCache(clock);
  const webhookOptions = options.webhooks ?? {};
  const webhookConfig = { allowPrivateNetworks: webhookOptions.allowPrivateNetworks ?? false };
  const sender = createSender({ ...webhookConfig, timeoutMs: webhookOptions.timeoutMs ?? WEBHOOK_LIMITS.timeoutMs });
  const smtpUrl = options.mail?.smtpUrl ?? webhookOptions.smtpUrl;
  const from = options.mail?.from ?? webhookOptions.mailFrom ?? 'feedback-service@localhost';
  const logBodies = options.mail?.logBodies === true;
  const mailer = createMailer({ smtpUrl, from, log, logBodies });
  const publicUrl = options.mail?.publicUrl;
  const mailTokens = createMailTokens(secrets, clock);
  const mailTransport = smtpUrl ? createSmtpTransport(smtpUrl, { connections: options.mail?.connections ?? 4 }) : createLogTransport(log, { bodies: logBodies });
  const scheduler = createScheduler(
    {
      db,
      clock,
      sender,
      secrets,
      mail: {
        transport: mailTransport,
        compose: createComposer(db, mailTokens, { from, publicUrl: typeof publicUrl === 'function' ? publicUrl : () => publicUrl, log }, clock),
      },
      chores: [() => purgeOutbox(db, clock), () => redactDeliveredErasures(db, clock)],
      onAttempt: attemptListener(options),
      log,
      listen: dialect === 'postgresql' ? { url: orm.config.get('clientUrl') as string, connectMs: timeouts.connectMs } : undefined,
    },
    { mailConnections: options.mail?.connections, ...webhookOptions.scheduler },
  );
  return {
    dialect,
    orm,
    db,
    clock,
    scheduler,
    organizations: createOrganizationsService(db, clock, keyCache),
    keys: createKeysService(db, clock, keyCache),
    limits,
    idempotency: createIdempotencyStore(db, clock, secrets),
    secretKeyId: secrets.keyId,
    readiness: createReadiness(db, orm, scheduler),
    async deliveryBacklog() {
      const now = clock();
      const b = await deliveries.backlog(db, now);
      const m = await outbox.backlog(db, now);
      const age = (d: Date | null) => d && (now.getTime() - d.getTime()) / 1000;
      return { due: b.due, oldestDueAgeSeconds: age(b.oldestDueAt), disabledWebhooks: b.disabledWebhooks, mailDue: m.due, mailOldestDueAgeSeconds: age(m.oldestDueAt) };
    },
    rotateSecrets: () => resealStored(db, secrets),
    mailLinks: mailTokens,
    workspace(organizationId: string): Workspace {
      if (typeof organizationId !== 'string' || organizationId.length === 0) {
        throw new TypeError('workspace(organizationId) needs the id of a workspace');
      }
      return {
        organizationId,
        contacts: createContactsService(db, organizationId, clock),
        boards: createBoardsService(db, organizationId, clock),
        tags: createTagsService(db, organizationId, clock),
        posts: createPostsService(db, organizationId, clock),
        public: createInteractionsService(db, organizationId, clock),
        changelog: createChangelogService(db, organizationId, clock),
        portal: createPortalReader(db, organizationId, clock),
        participation: createParticipation({ db, organizationId, clock, secrets, mailer }),
        events: createEventsService(db, organizationId),
        webhooks: createWebhooksService(db, organizationId, clock, { ...webhookConfig, secrets }),
        notifications: createNotificationsService(db, organizationId, clock),
        privacy: createPrivacyService({ db, organizationId, clock, secrets }),
      };
    },
    async migrate() {
      const applied = (await db.lendToOrm(() => orm.getMigrator().up())).map((m) => m.name);
      // The upgrade that brought sealing seals, once, what was stored before it.
      if (applied.includes(SEALED_SECRETS_MIGRATION)) await resealStored(db, secrets);
      return applied;
    },
    async close() {
      limits.close();
      await scheduler.stop();
      mailer.close();
      await mailTransport.close();
      await sender.close();
      await db.close();
      await orm.close(true);
    },
  };
}
