// The parts createEngine puts together: the database, mail, and the scheduler with its chores.
import type { MikroORM } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/knex';
import { WEBHOOK_LIMITS } from '../schemas/webhooks.js';
import {
  type AttemptReport,
  createComposer,
  createScheduler,
  createSender,
  type DeliveryScheduler,
  type IntegrationRunner,
  type Sender,
} from './delivery/index.js';
import { createIntegrationHttp, createIntegrations, integrationsConfig } from './integrations/index.js';
import { createLogTransport, createSmtpTransport, type MailTransport } from './mail/index.js';
import { createMailTokens, type MailTokens } from './notifications/index.js';
import { type EngineOptions, MAIL_RETENTION_DAYS } from './options.js';
import {
  CLIENT_TIMEOUT_MARGIN_MS,
  type DatabaseTarget,
  type DatabaseTimeouts,
  initOrm,
  parseDatabase,
  resolveTimeouts,
} from './orm.js';
import { redactDeliveredErasures } from './privacy/index.js';
import { type Embeddings, embedPending } from './search/index.js';
import type { SecretBox } from './secrets/index.js';
import { CODE_FAILURE_MEMORY_MS } from './shared/index.js';
import { codeFailures, createDatabase, type EngineDatabase, integrationJobs, mail, search } from './store/index.js';

/** The database the engine works on: MikroORM (schema, migrations, connections) and the explicit-SQL layer on its connections. */
export async function openDatabase(
  target: DatabaseTarget,
  given: DatabaseTimeouts | undefined,
  log: (message: string) => void,
) {
  const timeouts = resolveTimeouts(given);
  const orm = await initOrm(target, { timeouts, log });
  const knex = (orm.em as unknown as { getKnex(): Knex }).getKnex();
  const db = createDatabase(target.dialect, knex, {
    location: target.location,
    log,
    answerMs: timeouts.statementMs + CLIENT_TIMEOUT_MARGIN_MS,
  });
  return { orm, db, timeouts };
}

export { parseDatabase };

/** Mail out: the transport every message goes through (SMTP, or the log without it), and the signed links in notifications. */
export function createMailParts(
  options: EngineOptions,
  secrets: SecretBox,
  clock: () => Date,
  log: (message: string) => void,
) {
  const smtpUrl = options.mail?.smtpUrl ?? options.webhooks?.smtpUrl;
  const from = options.mail?.from ?? options.webhooks?.mailFrom ?? 'feedback-service@localhost';
  const logBodies = options.mail?.logBodies === true;
  const publicUrl = options.mail?.publicUrl;
  return {
    from,
    publicUrl: typeof publicUrl === 'function' ? publicUrl : () => publicUrl,
    transport: smtpUrl
      ? createSmtpTransport(smtpUrl, { connections: options.mail?.connections ?? 4 })
      : createLogTransport(log, { bodies: logBodies }),
    tokens: createMailTokens(secrets, clock),
  };
}
export type MailParts = {
  transport: MailTransport;
  tokens: MailTokens;
  from: string;
  publicUrl: () => string | undefined;
};

/** The outbox's retention: settled rows older than MAIL_RETENTION_DAYS (mail a thousand at a time, and integration jobs). */
async function purgeOutbox(db: EngineDatabase, clock: () => Date): Promise<void> {
  const before = new Date(clock().getTime() - MAIL_RETENTION_DAYS * 86_400_000);
  while ((await mail.purgeSettled(db, before, 1000)) === 1000);
  // The integrations' settled jobs too: what they did is on the posts and in the audit log.
  await integrationJobs.prune(db, before);
}

/** What hears of each delivery attempt: the logger's line and the caller's listener. */
function attemptListener(options: EngineOptions): ((a: AttemptReport) => void) | undefined {
  const { logger, onAttempt } = options;
  if (!logger && !onAttempt) return undefined;
  return (a) => {
    logger?.info(
      {
        webhookId: a.webhookId,
        deliveryId: a.deliveryId,
        event: a.eventType,
        attempt: a.attempt,
        status: a.statusCode,
        durationMs: a.durationMs,
        ok: a.ok,
        error: a.error ?? undefined,
      },
      a.ok
        ? 'delivery attempt succeeded'
        : a.final
          ? 'delivery attempt failed; no more attempts'
          : 'delivery attempt failed; will retry',
    );
    onAttempt?.(a);
  };
}

/** Linear, GitHub and Slack: the operator's configuration, one guarded transport, and the runner of their jobs. */
export function createIntegrationParts(
  options: EngineOptions,
  db: EngineDatabase,
  clock: () => Date,
  secrets: SecretBox,
  mail: { publicUrl: () => string | undefined },
) {
  const config = integrationsConfig(options.integrations);
  const http = createIntegrationHttp(config, options.webhooks?.allowPrivateNetworks ?? false);
  const parts = { config, http, secrets, publicUrl: mail.publicUrl };
  return { parts, integrations: createIntegrations(db, clock, parts) };
}

/** The webhook sender: the SSRF guard at connect time and the receiver time-out. */
export function createWebhookSender(options: EngineOptions): Sender {
  const webhooks = options.webhooks ?? {};
  return createSender({
    allowPrivateNetworks: webhooks.allowPrivateNetworks ?? false,
    timeoutMs: webhooks.timeoutMs ?? WEBHOOK_LIMITS.timeoutMs,
  });
}

/** The scheduler that sends webhook deliveries and notification mail, with its chores (the outbox's retention, erasures, the search index). */
export function createEngineScheduler(
  parts: {
    options: EngineOptions;
    db: EngineDatabase;
    orm: MikroORM;
    clock: () => Date;
    secrets: SecretBox;
    sender: Sender;
    mail: MailParts;
    integrations: IntegrationRunner;
    connectMs: number;
    embeddings?: Embeddings;
  },
  log: (message: string, error?: unknown) => void,
): DeliveryScheduler {
  const { options, db, clock, mail: m } = parts;
  const listenUrl = db.dialect.name === 'postgresql' ? (parts.orm.config.get('clientUrl') as string) : undefined;
  return createScheduler(
    {
      db,
      clock,
      sender: parts.sender,
      secrets: parts.secrets,
      mail: {
        transport: m.transport,
        compose: createComposer(db, m.tokens, parts.secrets, { from: m.from, publicUrl: m.publicUrl, log }, clock),
      },
      integrations: parts.integrations,
      chores: [
        () => purgeOutbox(db, clock),
        () => redactDeliveredErasures(db, clock),
        () => search.searchChore(db),
        // Posts' titles for the embeddings endpoint, when there is one (docs/search.md#possible-duplicates).
        async () => void (parts.embeddings && (await embedPending(db, parts.embeddings, clock))),
        // Wrong sign-in codes are counted over a day; older ones are forgotten.
        () => codeFailures.removeBefore(db, new Date(clock().getTime() - CODE_FAILURE_MEMORY_MS)),
      ],
      onAttempt: attemptListener(options),
      log,
      listen: listenUrl ? { url: listenUrl, connectMs: parts.connectMs } : undefined,
    },
    { mailConnections: options.mail?.connections, ...options.webhooks?.scheduler },
  );
}
