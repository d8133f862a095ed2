// The `feedback-service` program: every command, subcommand, option, choice and value parser, so `--help`,
// `--version` and every usage error answer from it alone, and the one place that turns a failure into words and an
// exit code. Each command's work lives in commands/*.ts and is loaded when that command runs: no engine, database
// driver or schema library is loaded to print help or refuse a flag, and no database is opened (or created) before
// the arguments are valid. `run` builds a fresh program per call, so tests run it in-process.
import { Command, CommanderError, Option } from 'commander';
import { PACKAGE_VERSION } from '../contract/version.js';
import { BILLING_STATES, PLANS } from '../schemas/plans.js';
import { TEAM_ROLES } from '../schemas/team.js';
import {
  CommandError,
  contactCap,
  contactCapOrDefault,
  database,
  duration,
  httpUrl,
  LOG_LEVELS,
  port,
  rateLimitOrDefault,
  repeated,
  smtpUrl,
  timeout,
  UsageError,
  wholeNumber,
} from './args.js';
import type * as Board from './commands/board.js';
import type * as Changelog from './commands/changelog.js';
import type * as Contact from './commands/contact.js';
import type * as Key from './commands/key.js';
import type * as Mcp from './commands/mcp.js';
import type * as Org from './commands/org.js';
import type * as PortalSecret from './commands/portal-secret.js';
import type * as Post from './commands/post.js';
import type * as Serve from './commands/serve.js';
import type * as Team from './commands/team.js';
import { type Io, processIo } from './io.js';

/** Commands that do not open the database: they take no --db. */
const withoutDatabase = new WeakSet<Command>();

/** A command that does one thing. It is given --db (unless `opens` is 'no-db') and --json after its own options. */
function leaf(parent: Command, nameAndArgs: string, description: string, opens: 'db' | 'no-db' = 'db'): Command {
  const command = parent.command(nameAndArgs).description(description);
  if (opens === 'no-db') withoutDatabase.add(command);
  return command;
}

/** A command that only groups subcommands. */
const group = (program: Command, name: string, description: string) => program.command(name).description(description);

/** The program, its commands writing to `io`. */
export function buildProgram(io: Io): Command {
  const program = new Command('feedback-service')
    .usage('<command> [options]')
    .description('Run a feedback service (REST API, webhooks, agent tools) on SQLite or PostgreSQL, and administer it.')
    .version(PACKAGE_VERSION, '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .helpCommand('help [command]', 'show help for a command')
    .showSuggestionAfterError()
    .enablePositionalOptions() // a command's options belong to it: `org create --json` is create's --json
    .configureOutput({ writeOut: io.out, writeErr: () => {}, outputError: () => {} });
  addServing(program, io);
  addWorkspaces(program, io);
  addTeam(program, io);
  addPeople(program, io);
  addContent(program, io);
  addSecrets(program, io);
  program.addHelpText(
    'after',
    `
  The database is a SQLite file (default ./feedback.db) or a postgres:// URL: --db or DATABASE_URL.
  Every command takes --json and then prints one JSON object. Exit codes: 0 done, 1 refused, 2 usage error.

  Start here:
    feedback-service serve                                  first start: prints a workspace and a key
    feedback-service key create --org ORG_ID --scope read   another key
    feedback-service org update ORG_ID --admin-email you@example.com
    feedback-service COMMAND --help                         one command's options

  More: docs/cli.md and docs/operations.md in the package.`,
  );

  for (const command of [program, ...descendants(program)]) shareOptions(command);
  return program;
}

/** serve, migrate and mcp: the server, its database, its agent tools. */
function addServing(program: Command, io: Io): void {
  leaf(
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
    )
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
    )
    .action(async (options: Serve.Options) => (await import('./commands/serve.js')).serve(options, io));

  leaf(program, 'migrate', 'apply pending migrations (every command does this first)').action(
    async (options: { db: string; json?: boolean }) => (await import('./commands/migrate.js')).migrate(options, io),
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
      await (await import('./commands/mcp.js')).mcp(options);
    });
}

/** team: who may use the console (docs/console.md). */
function addTeam(program: Command, io: Io): void {
  const team = group(
    program,
    'team',
    'the people who use the console: add the first owner, list the team, single sign-on (docs/console.md)',
  );
  leaf(team, 'add', "add someone to a workspace's team and print their one-time sign-in link")
    .requiredOption('--org <orgId>', 'the workspace')
    .requiredOption('--email <email>', 'their address (sign-in codes go there)')
    .addOption(
      new Option('--role <role>', 'owner: everything; admin: all but owners; member: triage; viewer: read only')
        .choices(TEAM_ROLES)
        .makeOptionMandatory(),
    )
    .option('--name <name>', 'their name')
    .addOption(
      new Option('--public-url <url>', "the server's address as people reach it, for the link")
        .env('FEEDBACK_PUBLIC_URL')
        .default('http://127.0.0.1:3000')
        .argParser(httpUrl),
    )
    .action(async (options: Team.AddOptions) => (await import('./commands/team.js')).add(options, io));
  leaf(team, 'list', "a workspace's team: role, address, name")
    .requiredOption('--org <orgId>', 'the workspace')
    .action(async (options: Team.ListOptions) => (await import('./commands/team.js')).list(options, io));
  leaf(
    team,
    'sso',
    "set up (or show, or --off) a workspace's single sign-on to the console with an OpenID Connect provider",
  )
    .requiredOption('--org <orgId>', 'the workspace')
    .option('--issuer <url>', "the provider's issuer, like https://accounts.google.com")
    .option('--client-id <id>', 'the client id the provider issued')
    .addOption(new Option('--client-secret <secret>', 'its secret (sealed at rest)').env('FEEDBACK_SSO_CLIENT_SECRET'))
    .option('--domains <list>', 'the email domains whose people sign in this way, comma-separated')
    .option(
      '--verified',
      "with --domains: vouch that those domains are this workspace's, as whoever runs the server (instead of a DNS record; moves a domain from a workspace that held it)",
    )
    .addOption(
      new Option(
        '--require <on|off>',
        'people of the verified domains must sign in to this workspace with it (no mailed codes for them here)',
      ).choices(['on', 'off']),
    )
    .option('--off', 'turn single sign-on off')
    .addOption(
      new Option('--public-url <url>', "the server's address as people reach it, for the callback to register")
        .env('FEEDBACK_PUBLIC_URL')
        .default('http://127.0.0.1:3000')
        .argParser(httpUrl),
    )
    .action(async (options: Team.SsoOptions) => (await import('./commands/team.js')).sso(options, io));
  leaf(
    team,
    'export',
    "a team member's data request: what the console keeps that names the address, in every workspace (JSON)",
  )
    .requiredOption('--email <email>', 'their address')
    .action(async (options: Team.PersonOptions) => (await import('./commands/team.js')).exportPerson(options, io));
  leaf(
    team,
    'erase',
    'erase a team member everywhere: off every team, a pseudonym where the audit log and notes name them',
  )
    .requiredOption('--email <email>', 'their address')
    .action(async (options: Team.PersonOptions) => (await import('./commands/team.js')).erasePerson(options, io));
}

/** org and key: workspaces and their API keys. */
function addWorkspaces(program: Command, io: Io): void {
  const org = group(program, 'org', 'list, create and update workspaces (organizations)');
  leaf(org, 'list', 'every workspace: id, name, plan, billing state, contact cap').action(
    async (options: Org.ListOptions) => (await import('./commands/org.js')).list(options, io),
  );
  leaf(org, 'create', 'create a workspace')
    .requiredOption('--name <name>', 'its name')
    .addOption(new Option('--plan <plan>', 'its plan (default: free)').choices(PLANS))
    .option(
      '--contact-cap <n>',
      "at most this many contacts, or none (default: the plan's: free 1000, paid unlimited)",
      contactCap,
    )
    .option('--admin-email <email>', 'who hears when a webhook is disabled (repeat for several)', repeated)
    .option('--rate-limit <n>', 'requests per minute per key (default: 600)', wholeNumber)
    .action(async (options: Org.CreateOptions) => (await import('./commands/org.js')).create(options, io));
  leaf(org, 'update', 'change a workspace')
    .argument('<orgId>', 'the workspace (org_...)')
    .option('--name <name>', 'its name')
    .addOption(new Option('--plan <plan>', 'its plan').choices(PLANS))
    .addOption(new Option('--billing <state>', 'read_only refuses writes').choices(BILLING_STATES))
    .option('--contact-cap <n>', "at most this many contacts, none, or default (the plan's)", contactCapOrDefault)
    .option(
      '--admin-email <email>',
      'who hears when a webhook is disabled (repeat for several; replaces the list)',
      repeated,
    )
    .option('--rate-limit <n>', 'requests per minute per key, or default (600)', rateLimitOrDefault)
    .option(
      '--handle <handle>',
      "the public portal's handle: /portal/<handle>/ (lower-case letters, digits, dashes), or none",
    )
    .addOption(new Option('--portal <state>', 'turn the public portal on or off').choices(['on', 'off']))
    .addOption(
      new Option(
        '--portal-verified-only <state>',
        'on: only users signed in with a token your backend mints may take part',
      ).choices(['on', 'off']),
    )
    .addOption(
      new Option('--portal-moderation <state>', 'on: anonymous portal posts wait for post approve').choices([
        'on',
        'off',
      ]),
    )
    .option(
      '--portal-frame-origin <origin>',
      'a site that may frame the portal (the widget), e.g. https://app.example.com (repeat for several; replaces the list; none clears it)',
      repeated,
    )
    .addOption(
      new Option(
        '--notify-admin-created <state>',
        'on: notifications also go to contacts your admins created (you attest their lawful basis)',
      ).choices(['on', 'off']),
    )
    .option(
      '--search-language <language>',
      'PostgreSQL: the language posts are searched in: simple (the default, any language), english, french, german, ... (docs/search.md); indexes the posts again',
    )
    .action(async (orgId: string, options: Org.UpdateOptions) =>
      (await import('./commands/org.js')).update(orgId, options, io),
    );

  const key = group(program, 'key', 'list, create and revoke API keys');
  leaf(key, 'list', "a workspace's keys: id, scope, created, revoked, last used (never the key)")
    .requiredOption('--org <orgId>', 'the workspace')
    .action(async (options: Key.ListOptions) => (await import('./commands/key.js')).list(options, io));
  leaf(key, 'create', 'create a key; it is printed only this once')
    .requiredOption('--org <orgId>', 'the workspace')
    .addOption(new Option('--scope <scope>', 'what it may do').choices(['read', 'read:write']).makeOptionMandatory())
    .action(async (options: Key.CreateOptions) => (await import('./commands/key.js')).create(options, io));
  leaf(key, 'revoke', 'revoke a key at once')
    .argument('<keyId>', 'the key (key_...)')
    .action(async (keyId: string, options: Key.RevokeOptions) =>
      (await import('./commands/key.js')).revoke(keyId, options, io),
    );
}

/** contact: a person's data requests. */
function addPeople(program: Command, io: Io): void {
  const contact = group(
    program,
    'contact',
    "answer a person's data requests: everything held about them, or their erasure (docs/privacy.md)",
  );
  leaf(contact, 'export', 'print everything held about a person as one JSON document')
    .argument('<contactId>', 'the contact (ctc_...); other contacts with its address are the same person')
    .requiredOption('--org <orgId>', 'the workspace')
    .option('--out <file>', 'write the document to this file (mode 0600) instead of printing it')
    .action(async (contactId: string, options: Contact.ExportOptions) =>
      (await import('./commands/contact.js')).exportContact(contactId, options, io),
    );
  leaf(
    contact,
    'erase',
    'erase a person: delete their contacts, take them out of votes, comments, posts, mail and events; keep a salted hash of the address',
  )
    .argument('<contactId>', 'the contact (ctc_...); other contacts with its address are erased with it')
    .requiredOption('--org <orgId>', 'the workspace')
    .action(async (contactId: string, options: Contact.EraseOptions) =>
      (await import('./commands/contact.js')).erase(contactId, options, io),
    );
}

/** board, post and changelog: content by hand. */
function addContent(program: Command, io: Io): void {
  const board = group(program, 'board', 'create and list boards');
  leaf(board, 'create', 'create a board')
    .requiredOption('--org <orgId>', 'the workspace')
    .requiredOption('--name <name>', 'its name (the slug is made from it)')
    .option('--private', 'visible only with a key, not on the portal')
    .action(async (options: Board.CreateOptions) => (await import('./commands/board.js')).create(options, io));
  leaf(board, 'list', "a workspace's boards")
    .requiredOption('--org <orgId>', 'the workspace')
    .action(async (options: Board.ListOptions) => (await import('./commands/board.js')).list(options, io));

  const post = group(program, 'post', 'create, merge and moderate posts by hand');
  leaf(post, 'create', 'create a post on a board')
    .requiredOption('--org <orgId>', 'the workspace')
    .requiredOption('--board <boardId>', 'the board')
    .requiredOption('--title <title>', 'its title')
    .option('--body-text <text>', 'its body, as plain text')
    .option('--contact <contactId>', 'its author')
    .action(async (options: Post.CreateOptions) => (await import('./commands/post.js')).create(options, io));
  leaf(post, 'merge', "merge a duplicate into another post: its page points there, and it leaves the portal's lists")
    .argument('<postId>', 'the duplicate')
    .requiredOption('--into <postId>', 'the post it duplicates')
    .requiredOption('--org <orgId>', 'the workspace')
    .action(async (postId: string, options: Post.MergeOptions) =>
      (await import('./commands/post.js')).merge(postId, options, io),
    );
  leaf(post, 'pending', 'the posts waiting for moderation, oldest first')
    .requiredOption('--org <orgId>', 'the workspace')
    .action(async (options: Post.PendingOptions) => (await import('./commands/post.js')).pending(options, io));
  leaf(post, 'approve', 'put a post waiting for moderation on the portal (and emit its post.created)')
    .argument('<postId>', 'the post')
    .requiredOption('--org <orgId>', 'the workspace')
    .action(async (postId: string, options: Post.ModerateOptions) =>
      (await import('./commands/post.js')).moderate(postId, 'approved', options, io),
    );
  leaf(post, 'spam', 'keep a post waiting for moderation off the portal, as spam')
    .argument('<postId>', 'the post')
    .requiredOption('--org <orgId>', 'the workspace')
    .action(async (postId: string, options: Post.ModerateOptions) =>
      (await import('./commands/post.js')).moderate(postId, 'spam', options, io),
    );

  const changelog = group(program, 'changelog', 'write and publish changelog entries');
  leaf(changelog, 'create', 'create a draft entry')
    .requiredOption('--org <orgId>', 'the workspace')
    .requiredOption('--board <boardId>', 'the board it belongs to')
    .requiredOption('--title <title>', 'its title')
    .option('--body <text>', 'its body')
    .action(async (options: Changelog.CreateOptions) => (await import('./commands/changelog.js')).create(options, io));
  leaf(changelog, 'publish', 'publish a draft entry')
    .argument('<entryId>', 'the entry')
    .requiredOption('--org <orgId>', 'the workspace')
    .action(async (entryId: string, options: Changelog.PublishOptions) =>
      (await import('./commands/changelog.js')).publish(entryId, options, io),
    );
}

/** portal-secret and secrets: the keys the service signs and seals with. */
function addSecrets(program: Command, io: Io): void {
  const portalSecret = group(
    program,
    'portal-secret',
    'the secret your backend signs portal sign-in tokens with (docs/portal.md)',
  );
  leaf(portalSecret, 'create', "create the workspace's first portal secret; it is printed only this once")
    .requiredOption('--org <orgId>', 'the workspace')
    .action(async (options: PortalSecret.Options) => (await import('./commands/portal-secret.js')).create(options, io));
  leaf(portalSecret, 'rotate', 'replace the portal secret; the old one keeps verifying for the grace period')
    .requiredOption('--org <orgId>', 'the workspace')
    .option(
      '--grace <duration>',
      'how long the old secret keeps verifying: 0, or e.g. 90s, 30m, 24h, 7d (default: 24h)',
      duration,
    )
    .action(async (options: PortalSecret.RotateOptions) =>
      (await import('./commands/portal-secret.js')).rotate(options, io),
    );

  const secrets = group(program, 'secrets', 'the key that seals webhook secrets at rest (docs/security.md)');
  leaf(secrets, 'generate-key', 'print a new key for FEEDBACK_SECRET_KEY', 'no-db').action(
    async (options: { json?: boolean }) => (await import('./commands/secrets.js')).generateKey(options, io),
  );
  leaf(secrets, 'rotate', 'seal every stored secret under the current key (the last step of a rotation)').action(
    async (options: { db: string; json?: boolean }) => (await import('./commands/secrets.js')).rotate(options, io),
  );
}

// --- options every command shares, and errors that go to `report` instead of commander's printing ---

function shareOptions(command: Command): void {
  if (command.commands.length > 0) {
    command.addOption(new Option('--json').hideHelp()); // so `org --json` says what is missing, as JSON
  } else {
    if (!withoutDatabase.has(command)) {
      command.addOption(
        new Option('--db <url>', 'a SQLite file or a postgres:// URL')
          .env('DATABASE_URL')
          .default('./feedback.db')
          .argParser(database),
      );
    }
    command.option('--json', 'print one JSON object (errors too)');
  }
  if (command.parent) {
    // `serve --version` prints the version, as the program's own --version does.
    command.addOption(new Option('-v, --version').hideHelp());
    command.on('option:version', () => {
      command.configureOutput().writeOut?.(`${PACKAGE_VERSION}\n`);
      throw new CommanderError(0, 'commander.version', PACKAGE_VERSION);
    });
  }
  command.exitOverride((err) => {
    if (err.exitCode === 0) throw err; // help or version was printed
    throw usageError(command, err);
  });
  // Commander checks required options before unknown ones, so a typo in a required flag (`--ogr`) would hide its
  // suggestion behind "required option '--org' not specified". Required options are checked just before the
  // action instead, after the unknown ones.
  const required = command.options.filter((option) => option.mandatory);
  for (const option of required) option.mandatory = false;
  if (required.length > 0) {
    command.hook('preAction', () => {
      const missing = required.find((option) => command.getOptionValue(option.attributeName()) === undefined);
      if (missing)
        command.error(`error: required option '${missing.flags}' not specified`, {
          code: 'commander.missingMandatoryOptionValue',
        });
    });
  }
}

function descendants(command: Command): Command[] {
  return command.commands.flatMap((c) => [c, ...descendants(c)]);
}

/** The words after the program's name that lead to `command`: `org create`, or '' for the program itself. */
function pathOf(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** A usage error in `command`, from commander's text: one line, led by the command it concerns. */
function usageError(command: Command, err: CommanderError): UsageError {
  const path = pathOf(command);
  const text =
    err.code === 'commander.help'
      ? `needs a subcommand: ${command.commands.map((c) => c.name()).join(', ')}`
      : err.message.replace(/^error: /, '').replace(/\n\(Did you mean (.+)\?\)$/, '; did you mean $1?');
  return new UsageError(path ? `${path}: ${text}` : text, path);
}

/**
 * Run the command `argv` (the words after `feedback-service`) and give its exit code: 0 done, 1 refused, 2 usage
 * error. Words go to `io`; with --json every outcome, errors too, is one JSON object on its `out`.
 */
export async function run(argv: string[], io: Io = processIo()): Promise<number> {
  const program = buildProgram(io);
  // `help org create` is `org create --help` (commander's help command takes one word).
  if (argv[0] === 'help' && argv.length > 2) argv = [...argv.slice(1), '--help'];
  try {
    if (argv.length === 0) program.outputHelp();
    else await program.parseAsync(argv, { from: 'user' });
    return io.exitCode ?? 0;
  } catch (err) {
    return report(err, argv.includes('--json'), io);
  }
}

/** One place turns every failure into a line for people, or `{ error: { code, message } }`, and an exit code. */
async function report(err: unknown, json: boolean, io: Io): Promise<number> {
  const fail = (code: string, message: string, human = message) => {
    if (json) io.out(`${JSON.stringify({ error: { code, message } })}\n`);
    else io.err(`${human}\n`);
  };
  if (err instanceof CommanderError && err.exitCode === 0) return 0;
  if (err instanceof UsageError) {
    fail(
      'ERR_USAGE',
      err.message,
      `${err.message}\nSee: feedback-service ${err.command ? `${err.command} ` : ''}--help`,
    );
    return 2;
  }
  if (err instanceof CommandError) {
    fail(err.code, err.message);
    return 1;
  }
  // Loaded only now: a command that got this far has loaded the engine already.
  const { FeedbackError, SecretKeyError, isDatabaseUnavailable } = await import('../engine/index.js');
  if (err instanceof SecretKeyError) {
    fail('ERR_SECRET_KEY', err.message);
    return 1;
  }
  const sqlite = /^SQLITE_(CANTOPEN|READONLY|PERM|NOTADB|IOERR)/.exec(String((err as { code?: unknown })?.code ?? ''));
  if (sqlite) {
    fail(
      'ERR_DATABASE',
      `cannot use the SQLite database (${sqlite[0]}): ${(err as Error).message.replace(/^SQLITE_\w+: /, '')}; check --db and its permissions`,
    );
    return 1;
  }
  if (err instanceof FeedbackError) {
    if (json) io.out(`${JSON.stringify({ error: err.toJSON() })}\n`);
    else io.err(`${err.code}: ${err.message}\n`);
    return 1;
  }
  if (isDatabaseUnavailable(err)) {
    const cause = (err as { code?: string; message?: string }).code ?? (err as Error).message;
    fail(
      'ERR_UNAVAILABLE',
      `cannot reach the database (${cause}): check --db or DATABASE_URL, and that the server is up`,
    );
    return 1;
  }
  fail(
    'ERR_INTERNAL',
    (err as Error)?.message ?? String(err),
    err instanceof Error ? (err.stack ?? err.message) : String(err),
  );
  return 1;
}
