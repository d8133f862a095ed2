// serve, migrate and mcp: the commands of the server, its database and its agent tools.

import { type Command, Option } from 'commander';
import { httpUrl, LOG_LEVELS, port, smtpUrl, timeout, UsageError } from '../args.js';
import type * as Mcp from '../commands/mcp.js';
import type * as Serve from '../commands/serve.js';
import type { Io } from '../io.js';
import { leaf } from './build.js';

/** PostgreSQL's time limits, each with the environment variable an operator may set instead. */
function withDatabaseTimeouts(command: Command): void {
  command
    .addOption(
      new Option(
        '--db-connect-timeout <time>',
        'PostgreSQL: how long a request waits for a connection before it is answered 503, e.g. 5s (default)',
      )
        .env('FEEDBACK_DB_CONNECT_TIMEOUT')
        .argParser(timeout),
    )
    .addOption(
      new Option(
        '--db-statement-timeout <time>',
        'PostgreSQL: how long one statement may run, or its answer take, e.g. 15s (default)',
      )
        .env('FEEDBACK_DB_STATEMENT_TIMEOUT')
        .argParser(timeout),
    )
    .addOption(
      new Option(
        '--db-idle-transaction-timeout <time>',
        'PostgreSQL: when the server ends a transaction whose client went quiet, e.g. 10s (default)',
      )
        .env('FEEDBACK_DB_IDLE_TRANSACTION_TIMEOUT')
        .argParser(timeout),
    );
}

/** serve: the server, its options each with the environment variable an operator may set instead. */
function addServe(program: Command, io: Io): void {
  const serve = leaf(
    program,
    'serve',
    'serve the REST API (/v1), the agent tools (/mcp), /docs, /healthz, /readyz and /metrics; run the webhook scheduler',
  )
    .addOption(
      new Option('--port <port>', 'the port to listen on (0: any free port)').env('PORT').default(3000).argParser(port),
    )
    .option('--host <host>', 'the address to listen on', '127.0.0.1')
    .option(
      '--allow-private-networks',
      'let webhooks reach loopback and private addresses (FEEDBACK_ALLOW_PRIVATE_NETWORKS=1); tests and local development only',
    )
    .addOption(
      new Option(
        '--smtp-url <url>',
        'where mail goes (notifications, portal codes, admin notices): smtp://user:pass@host:587 or smtps://; without one, mail is logged',
      )
        .env('FEEDBACK_SMTP_URL')
        .argParser(smtpUrl),
    )
    .addOption(
      new Option(
        '--embeddings-url <url>',
        'an OpenAI-compatible embeddings endpoint (e.g. Ollama: http://127.0.0.1:11434/v1): possible duplicates also compare titles by meaning (docs/search.md)',
      )
        .env('FEEDBACK_EMBEDDINGS_URL')
        .argParser(httpUrl),
    )
    .addOption(
      new Option('--embeddings-model <name>', 'the model the embeddings endpoint is asked for (nomic-embed-text)').env(
        'FEEDBACK_EMBEDDINGS_MODEL',
      ),
    )
    .addOption(
      new Option('--mail-from <address>', 'the sender of the mail (notifications show the workspace as its name)').env(
        'FEEDBACK_MAIL_FROM',
      ),
    )
    .addOption(
      new Option(
        '--log-mail-bodies',
        'development only: without --smtp-url, log the text of every message, sign-in codes and unsubscribe links included (by default the log says only what was not sent, and to whom)',
      ).env('FEEDBACK_LOG_MAIL_BODIES'),
    )
    .addOption(
      new Option(
        '--public-url <url>',
        "this server's address as people reach it, for the links in mail (default: the address it listens on)",
      )
        .env('FEEDBACK_PUBLIC_URL')
        .argParser(httpUrl),
    )
    .option(
      '--trust-proxy',
      'a reverse proxy in front sets X-Forwarded-For/-Proto/-Host (FEEDBACK_TRUST_PROXY=1): the portal reads client addresses and https from them',
    )
    .addOption(
      new Option('--log-level <level>', 'the least severe log line written')
        .choices(LOG_LEVELS)
        .env('LOG_LEVEL')
        .default('info'),
    )
    .option(
      '--metrics',
      'serve Prometheus metrics at /metrics (FEEDBACK_METRICS=1; FEEDBACK_METRICS_TOKEN also turns them on, behind that token)',
    );
  withDatabaseTimeouts(serve);
  serve.action(async (options: Serve.Options) => (await import('../commands/serve.js')).serve(options, io));
}

/** serve, migrate and mcp: the server, its database, its agent tools. */
export function addServing(program: Command, io: Io): void {
  addServe(program, io);

  leaf(program, 'migrate', 'apply pending migrations (every command does this first)').action(
    async (options: { db: string; json?: boolean }) => (await import('../commands/migrate.js')).migrate(options, io),
  );

  leaf(
    program,
    'mcp',
    'the agent tools (one per REST operation) over stdio: on the database for one workspace (--org), or against a server (--base-url, --api-key)',
  )
    .option('--org <orgId>', 'the workspace, when the tools work on the database')
    .addOption(
      new Option('--base-url <url>', 'a running server, e.g. http://127.0.0.1:3000')
        .env('FEEDBACK_BASE_URL')
        .argParser(httpUrl),
    )
    .addOption(new Option('--api-key <key>', 'a key for that server').env('FEEDBACK_API_KEY'))
    .action(async (options: Mcp.Options) => {
      if (options.baseUrl ? !options.apiKey : !options.org) {
        throw new UsageError(
          options.baseUrl
            ? 'mcp --base-url needs --api-key (or FEEDBACK_API_KEY)'
            : 'mcp needs --org (with --db), or --base-url and --api-key',
          'mcp',
        );
      }
      await (await import('../commands/mcp.js')).mcp(options);
    });
}
