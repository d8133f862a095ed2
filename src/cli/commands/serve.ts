import { createEngine } from '../../engine/index.js';
import { createApp, createMetrics, serveNode } from '../../h3/index.js';
import { createServerLogger } from '../logger.js';
import { mcpEndpoint } from '../../mcp/http.js';
import { CommandError, intFlag, parseFlags } from '../args.js';
import { DB_FLAG, databaseOf, print } from '../common.js';

/** How long requests in flight have to finish once a stop signal came. */
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * `serve`: migrate, create a workspace and a read:write key on an empty database (printed once), and serve REST
 * under /v1 and the agent tools under /mcp, with the delivery scheduler running.
 */
export async function run(argv: string[]): Promise<void> {
  const { values } = parseFlags(argv, {
    ...DB_FLAG,
    port: { type: 'string' },
    host: { type: 'string' },
    'allow-private-networks': { type: 'boolean' },
    'smtp-url': { type: 'string' },
    'mail-from': { type: 'string' },
    'log-level': { type: 'string' },
    metrics: { type: 'boolean' },
  });
  const logger = createServerLogger(values['log-level']);
  const metricsToken = process.env.FEEDBACK_METRICS_TOKEN;
  const metrics = values.metrics === true || process.env.FEEDBACK_METRICS === '1' || metricsToken !== undefined ? createMetrics() : undefined;
  const allowPrivateNetworks = values['allow-private-networks'] === true || process.env.FEEDBACK_ALLOW_PRIVATE_NETWORKS === '1';
  const database = databaseOf(values.db);
  const engine = await createEngine({
    database,
    logger,
    onAttempt: metrics?.onAttempt,
    webhooks: {
      allowPrivateNetworks,
      smtpUrl: values['smtp-url'] ?? process.env.FEEDBACK_SMTP_URL,
      mailFrom: values['mail-from'] ?? process.env.FEEDBACK_MAIL_FROM,
    },
  });
  await engine.migrate();
  const app = createApp({ engine, endpoints: [mcpEndpoint(engine)], requireScheduler: true, logger, metrics, metricsToken });
  // Listen first: a port in use stops the start before a workspace and key are made that nobody would see.
  const server = await serveNode(app, { port: intFlag(values.port, 'port') ?? Number(process.env.PORT ?? 3000), host: values.host ?? '127.0.0.1' }).catch(
    async (err: NodeJS.ErrnoException) => {
      await engine.close().catch(() => {});
      if (err.code === 'EADDRINUSE' || err.code === 'EACCES') throw new CommandError('ERR_CANNOT_LISTEN', `cannot listen: ${err.message} (choose another --port)`);
      throw err;
    },
  );
  let bootstrap: { organizationId: string; apiKey: string } | undefined;
  if ((await engine.organizations.count()) === 0) {
    const org = await engine.organizations.create({ name: 'Default workspace', plan: 'paid' });
    const key = await engine.keys.create(org.id, 'read:write');
    bootstrap = { organizationId: org.id, apiKey: key.key };
  }
  await engine.scheduler.start();
  const human = [
    `feedback-service listening on ${server.url} (database: ${engine.dialect === 'sqlite' ? database : 'postgresql'})`,
    ...(bootstrap
      ? [
          'Created a workspace and a read:write API key. The key is shown only this once:',
          `  organization: ${bootstrap.organizationId}`,
          `  api key:      ${bootstrap.apiKey}`,
          'Try it:',
          `  curl -H 'Authorization: Bearer ${bootstrap.apiKey}' ${server.url}/v1/whoami`,
        ]
      : []),
  ].join('\n');
  print(values.json, { url: server.url, dialect: engine.dialect, allowPrivateNetworks, ...(bootstrap ? { bootstrap } : {}) }, human);
  logger.info({ url: server.url, dialect: engine.dialect, metrics: Boolean(metrics) }, 'listening');
  // Graceful stop: no new connections, requests in flight answered (up to 10 s), deliveries being sent recorded and
  // the claimed rest given back to other processes at once, then the database closed.
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
