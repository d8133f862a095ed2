import type { MikroORM } from '@mikro-orm/core';
import {
  createIdempotencyStore,
  createKeyCache,
  createKeysService,
  createRateLimiter,
  createSharedRateLimiter,
  type IdempotencyStore,
  type KeysService,
  type RateLimiter,
} from './access/index.js';
import { mergePeople } from './contacts/index.js';
import type { DeliveryScheduler } from './delivery/index.js';
import { createReadiness, type Readiness } from './health.js';
import type { Integrations } from './integrations/index.js';
import { createTeamAccess, type TeamAccess } from './members/index.js';
import { INITIAL_MIGRATION, SEALED_SECRETS_MIGRATION } from './migrations/index.js';
import type { MailTokens } from './notifications/index.js';
import type { EngineOptions } from './options.js';
import { createOrganizationsService, type OrganizationsService } from './organizations/index.js';
import {
  createEngineScheduler,
  createIntegrationParts,
  createMailParts,
  createWebhookSender,
  openDatabase,
  parseDatabase,
} from './runtime.js';
import { createEmbeddings } from './search/index.js';
import {
  createSecretBox,
  lazySecretBox,
  type ResealReport,
  resealStored,
  resolveSecretKeys,
  type SecretBox,
} from './secrets/index.js';
import { logErrorLine, logToLogger } from './shared/index.js';
import { type Database, deliveries, type EngineDatabase, mail, upgradeChores } from './store/index.js';
import { createWorkspaces, type Workspace } from './workspace.js';

export { type EngineOptions, MAIL_RETENTION_DAYS, type MailOptions, type WebhookOptions } from './options.js';
export type { Workspace, WorkspaceActions } from './workspace.js';

export interface Engine {
  readonly dialect: 'sqlite' | 'postgresql';
  readonly orm: MikroORM;
  readonly db: Database;
  readonly clock: () => Date;
  readonly organizations: OrganizationsService;
  readonly keys: KeysService;
  /** Per-key request budgets: in memory on SQLite, shared by every instance on PostgreSQL. */
  readonly limits: RateLimiter;
  /** Idempotency-Key records of POST requests (per workspace, 24 hours). */
  readonly idempotency: IdempotencyStore;
  /**
   * Webhook delivery: `start()` it in a server process (`serve` does), or call `runDue()` yourself.
   * Several processes on one PostgreSQL database share the work.
   */
  readonly scheduler: DeliveryScheduler;
  /** Signing in to the console: a person (an address) on any number of workspaces' teams. */
  readonly team: TeamAccess;
  /** Linear, GitHub and Slack across workspaces: the inbound webhooks, the OAuth hand-offs (docs/integrations.md). */
  readonly integrations: Integrations;
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
  deliveryBacklog(): Promise<{
    due: number;
    oldestDueAgeSeconds: number | null;
    disabledWebhooks: number;
    mailDue: number;
    mailOldestDueAgeSeconds: number | null;
  }>;
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

/** The backlog across workspaces, for metrics: due deliveries and mail, and how long the oldest of each has waited. */
async function backlog(db: EngineDatabase, clock: () => Date) {
  const now = clock();
  const b = await deliveries.backlog(db, now);
  const m = await mail.backlog(db, now);
  const age = (d: Date | null) => d && (now.getTime() - d.getTime()) / 1000;
  return {
    due: b.due,
    oldestDueAgeSeconds: age(b.oldestDueAt),
    disabledWebhooks: b.disabledWebhooks,
    mailDue: m.due,
    mailOldestDueAgeSeconds: age(m.oldestDueAt),
  };
}

/** Apply the checked-in migrations, and what they leave to the engine's code; the names applied now. */
async function migrate(db: EngineDatabase, orm: MikroORM, secrets: SecretBox, clock: () => Date): Promise<string[]> {
  const applied = (await db.lendToOrm(() => orm.getMigrator().up())).map((m) => m.name);
  // The upgrade that brought sealing seals, once, what was stored before it; a database made now holds nothing.
  if (applied.includes(SEALED_SECRETS_MIGRATION) && !applied.includes(INITIAL_MIGRATION))
    await resealStored(db, secrets);
  // What a migration left to the engine's code (it writes events); done once, and again if a process died midway.
  for (const chore of await upgradeChores.pending(db))
    if (chore === 'merge_people') {
      await mergePeople(db, clock);
      await upgradeChores.done(db, chore);
    }
  return applied;
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
  const log = options.log ?? (options.logger ? logToLogger(options.logger) : logErrorLine);
  // Before anything is opened: a missing or malformed key stops here, leaving nothing to close.
  const box = () =>
    createSecretBox(options.secretKeys ?? resolveSecretKeys(target, process.env, (message) => log(message)));
  const secrets = options.secretKeysWhenNeeded ? lazySecretBox(box) : box();
  const { orm, db, timeouts } = await openDatabase(target, options.timeouts, log);
  const clock = options.clock ?? (() => new Date());
  const limits = target.dialect === 'postgresql' ? createSharedRateLimiter(db, clock, log) : createRateLimiter(clock);
  const keyCache = createKeyCache(clock);
  const sender = createWebhookSender(options);
  const mailParts = createMailParts(options, secrets, clock, log);
  const embeddings = options.embeddings ? createEmbeddings(options.embeddings, log) : undefined;
  const { parts: integrationParts, integrations } = createIntegrationParts(options, db, clock, secrets, mailParts);
  const connectMs = timeouts.connectMs;
  const schedulerParts = { options, db, orm, clock, secrets, sender, mail: mailParts, connectMs, embeddings };
  const scheduler = createEngineScheduler({ ...schedulerParts, integrations: integrations.runner }, log);
  const webhooks = { allowPrivateNetworks: options.webhooks?.allowPrivateNetworks ?? false, secrets };
  const resolveTxt =
    options.dns?.resolveTxt ?? ((name: string) => import('node:dns/promises').then((dns) => dns.resolveTxt(name)));
  return {
    dialect: target.dialect,
    orm,
    db,
    clock,
    scheduler,
    organizations: createOrganizationsService({ db, clock, keyCache }),
    keys: createKeysService(db, clock, keyCache),
    limits,
    idempotency: createIdempotencyStore(db, clock, secrets),
    get secretKeyId() {
      return secrets.keyId;
    },
    readiness: createReadiness(db, orm, scheduler),
    deliveryBacklog: () => backlog(db, clock),
    rotateSecrets: () => resealStored(db, secrets),
    mailLinks: mailParts.tokens,
    integrations,
    team: createTeamAccess({ db, clock, secrets, publicUrl: mailParts.publicUrl, resolveTxt }),
    workspace: createWorkspaces({
      db,
      clock,
      secrets,
      webhooks,
      publicUrl: mailParts.publicUrl,
      resolveTxt,
      keyCache,
      integrations: integrationParts,
      ...(embeddings ? { embeddings } : {}),
    }),
    migrate: () => migrate(db, orm, secrets, clock),
    async close() {
      limits.close();
      await scheduler.stop();
      await mailParts.transport.close();
      await sender.close();
      await integrations.close();
      await db.close();
      await orm.close(true);
    },
  };
}
