// The `feedback-service` program: every command, subcommand, option, choice and value parser, so `--help`,
// `--version` and every usage error answer from it alone, and the one place that turns a failure into words and an
// exit code. Each command's work lives in commands/*.ts and is loaded when that command runs: no engine, database
// driver or schema library is loaded to print help or refuse a flag, and no database is opened (or created) before
// the arguments are valid. `run` builds a fresh program per call, so tests run it in-process.
import { Command, CommanderError, Option } from 'commander';
import { PACKAGE_VERSION } from '../contract/version.js';
import { CommandError, database, UsageError } from './args.js';
import { type Io, processIo } from './io.js';
import { withoutDatabase } from './program/build.js';
import { addContent, addPeople, addSecrets } from './program/content.js';
import { addServing } from './program/serving.js';
import { addTeam } from './program/team.js';
import { addWorkspaces } from './program/workspaces.js';

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
