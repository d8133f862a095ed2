import { lookup } from 'node:dns/promises';
import { networkInterfaces } from 'node:os';
import { createConsole } from '../../console/index.js';
import { createEngine, type Engine, type IntegrationsOptions } from '../../engine/index.js';
import { createApp, createMetrics, type Metrics, serveNode } from '../../h3/index.js';
import { mcpEndpoint } from '../../mcp/http.js';
import { createPortal } from '../../portal/index.js';
import { CommandError, type LogLevel } from '../args.js';
import type { DatabaseOptions } from '../common.js';
import { type Io, print } from '../io.js';
import { createServerLogger } from '../logger.js';

type ServerLogger = ReturnType<typeof createServerLogger>;

export interface Options extends DatabaseOptions {
  port: number;
  host: string;
  allowPrivateNetworks?: boolean;
  smtpUrl?: string;
  mailFrom?: string;
  embeddingsUrl?: string;
  embeddingsModel?: string;
  logMailBodies?: boolean;
  publicUrl?: string;
  logLevel: LogLevel;
  metrics?: boolean;
  trustProxy?: boolean;
  dbConnectTimeout?: number;
  dbStatementTimeout?: number;
  dbIdleTransactionTimeout?: number;
}

/** How long requests in flight have to finish once a stop signal came. */
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Linear, GitHub and Slack as the operator set them in the environment (docs/integrations.md): each service's address
 * (a GitHub Enterprise Server's) and the OAuth apps workspaces connect through. Secrets come from the environment
 * only, never a flag.
 */
export function integrationsFromEnv(env: NodeJS.ProcessEnv): IntegrationsOptions {
  const v = (name: string) => env[`FEEDBACK_${name}`] || undefined;
  const app = (prefix: string) =>
    v(`${prefix}_CLIENT_ID`) && v(`${prefix}_CLIENT_SECRET`)
      ? { clientId: v(`${prefix}_CLIENT_ID`)!, clientSecret: v(`${prefix}_CLIENT_SECRET`)! }
      : undefined;
  const linearApp = app('LINEAR');
  const slackApp = app('SLACK');
  return {
    linear: {
      ...(v('LINEAR_API_URL') ? { apiUrl: v('LINEAR_API_URL') } : {}),
      ...(linearApp ? { oauth: linearApp } : {}),
    },
    github: v('GITHUB_API_URL') ? { apiUrl: v('GITHUB_API_URL') } : {},
    slack: {
      ...(v('SLACK_API_URL') ? { apiUrl: v('SLACK_API_URL') } : {}),
      ...(slackApp && v('SLACK_SIGNING_SECRET')
        ? { oauth: { ...slackApp, signingSecret: v('SLACK_SIGNING_SECRET')! } }
        : {}),
    },
  };
}

/** The engine `serve` runs, from its options and environment; the links in mail use `publicUrl()`. */
function engineOf(
  options: Options,
  logger: ServerLogger,
  metrics: Metrics | undefined,
  allowPrivateNetworks: boolean,
  publicUrl: () => string | undefined,
) {
  return createEngine({
    database: options.db,
    timeouts: {
      connectMs: options.dbConnectTimeout,
      statementMs: options.dbStatementTimeout,
      idleInTransactionMs: options.dbIdleTransactionTimeout,
    },
    logger,
    onAttempt: metrics?.onAttempt,
    webhooks: { allowPrivateNetworks },
    integrations: integrationsFromEnv(process.env),
    mail: { smtpUrl: options.smtpUrl, from: options.mailFrom, publicUrl, logBodies: options.logMailBodies === true },
    ...(options.embeddingsUrl
      ? {
          embeddings: {
            url: options.embeddingsUrl,
            ...(options.embeddingsModel ? { model: options.embeddingsModel } : {}),
            // A key is secret: from the environment only, never a flag (which `ps` shows).
            ...(process.env.FEEDBACK_EMBEDDINGS_KEY ? { apiKey: process.env.FEEDBACK_EMBEDDINGS_KEY } : {}),
          },
        }
      : {}),
  });
}

/** On an empty database, the first workspace and a read:write key (printed once, by the caller). */
async function bootstrapOf(engine: Engine): Promise<{ organizationId: string; apiKey: string } | undefined> {
  if ((await engine.organizations.count()) > 0) return undefined;
  const org = await engine.organizations.create({ name: 'Default workspace', plan: 'paid' });
  const key = await engine.keys.create(org.id, 'read:write');
  return { organizationId: org.id, apiKey: key.key };
}

/** What a start prints: where it listens, and the bootstrap key once. */
function startLines(url: string, database: string, bootstrap: { organizationId: string; apiKey: string } | undefined) {
  const lines = [`feedback-service listening on ${url} (database: ${database})`];
  if (bootstrap)
    lines.push(
      'Created a workspace and a read:write API key. The key is shown only this once:',
      `  organization: ${bootstrap.organizationId}`,
      `  api key:      ${bootstrap.apiKey}`,
      'Try it:',
      `  curl -H 'Authorization: Bearer ${bootstrap.apiKey}' ${url}/v1/whoami`,
    );
  return lines.join('\n');
}

/**
 * Graceful stop on SIGINT or SIGTERM: no new connections, requests in flight answered (up to 10 s), deliveries being
 * sent recorded and the claimed rest given back to other processes at once, then the database closed.
 */
function stopOnSignals(server: { shutdown(graceMs: number): Promise<void> }, engine: Engine, logger: ServerLogger) {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping: finishing requests and deliveries in flight');
    await server.shutdown(SHUTDOWN_GRACE_MS);
    await engine.close().catch((err: unknown) => logger.error({ err }, 'closing the engine failed'));
    logger.info({}, 'stopped');
    logger.flush(() => process.exit(0));
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

/**
 * `serve`: migrate, create a workspace and a read:write key on an empty database (printed once), and serve REST
 * under /v1 and the agent tools under /mcp, with the delivery scheduler running.
 */
export async function serve(options: Options, io: Io): Promise<void> {
  await checkHost(options);
  const logger = createServerLogger(options.logLevel);
  const metricsToken = process.env.FEEDBACK_METRICS_TOKEN;
  const metricsOn = options.metrics === true || process.env.FEEDBACK_METRICS === '1' || metricsToken !== undefined;
  const metrics = metricsOn ? createMetrics() : undefined;
  const allowPrivateNetworks =
    options.allowPrivateNetworks === true || process.env.FEEDBACK_ALLOW_PRIVATE_NETWORKS === '1';
  // The links in mail: the public address, else the one this server listens on (known once it listens).
  let listening: string | undefined;
  const engine = await engineOf(options, logger, metrics, allowPrivateNetworks, () => options.publicUrl ?? listening);
  await engine.migrate();
  const trustProxy = options.trustProxy === true || process.env.FEEDBACK_TRUST_PROXY === '1';
  const sites = [createPortal({ engine, trustProxy }), createConsole({ engine, trustProxy })];
  const app = createApp({
    engine,
    endpoints: [mcpEndpoint(engine)],
    sites,
    requireScheduler: true,
    logger,
    metrics,
    metricsToken,
  });
  // Listen first: a port in use stops the start before a workspace and key are made that nobody would see.
  const server = await serveNode(app, { port: options.port, host: options.host }).catch(
    async (err: NodeJS.ErrnoException) => {
      await engine.close().catch(() => {});
      throw new CommandError('ERR_CANNOT_LISTEN', cannotListen(err, options));
    },
  );
  listening = server.url;
  const bootstrap = await bootstrapOf(engine);
  await engine.scheduler.start();
  const database = engine.dialect === 'sqlite' ? options.db : 'postgresql';
  const json = { url: server.url, dialect: engine.dialect, allowPrivateNetworks, ...(bootstrap ? { bootstrap } : {}) };
  print(io, options.json, json, startLines(server.url, database, bootstrap));
  logger.info({ url: server.url, dialect: engine.dialect, metrics: Boolean(metrics) }, 'listening');
  stopOnSignals(server, engine, logger);
}

/**
 * `--host` must name an address of this machine, checked before the database is opened (or created): a name that
 * does not resolve, or an address no interface has, stops here.
 */
async function checkHost(options: { host: string; port: number }): Promise<void> {
  const addresses = await lookup(options.host, { all: true }).catch((err: NodeJS.ErrnoException) => {
    throw new CommandError('ERR_CANNOT_LISTEN', cannotListen(err, options));
  });
  const local = new Set(Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address)));
  const ours = (address: string) =>
    address === '0.0.0.0' || address === '::' || address.startsWith('127.') || local.has(address);
  if (!addresses.some((a) => ours(a.address))) {
    throw new CommandError(
      'ERR_CANNOT_LISTEN',
      cannotListen(Object.assign(new Error('not local'), { code: 'EADDRNOTAVAIL' }), options),
    );
  }
}

/** Why the server could not listen, in the words of the flag to change. */
function cannotListen(err: NodeJS.ErrnoException, options: { host: string; port: number }): string {
  const at = `${options.host}:${options.port}`;
  switch (err.code) {
    case 'EADDRINUSE':
      return `cannot listen on ${at}: the port is in use (EADDRINUSE); choose another --port`;
    case 'EACCES':
      return `cannot listen on ${at}: not allowed (EACCES); ports below 1024 need privileges, choose another --port`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${at}: ${options.host} is not an address of this machine (EADDRNOTAVAIL); check --host`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot listen on ${at}: the host name ${options.host} does not resolve (${err.code}); check --host`;
    default:
      return `cannot listen on ${at}: ${err.message}`;
  }
}
