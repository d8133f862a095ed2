#!/usr/bin/env node
// The `feedback-service` command. This file only reads the command line: each command's module (commands/*.ts) is
// loaded when that command runs, so `--help` and usage errors answer without loading the engine or a database driver.
import { PACKAGE_VERSION } from '../contract/version.js';
import { CommandError, UsageError, nearest } from './args.js';

interface Command {
  /** Its lines in the usage text. */
  usage: string;
  load: () => Promise<{ run(argv: string[]): Promise<void> }>;
}

const COMMANDS: Record<string, Command> = {
  serve: {
    usage: `serve [--port 3000] [--host 127.0.0.1] [--db URL] [--allow-private-networks]
        [--smtp-url smtp://user:pass@host:587] [--mail-from ADDRESS]
        [--log-level fatal|error|warn|info|debug|trace|silent] [--metrics]`,
    load: () => import('./commands/serve.js'),
  },
  migrate: { usage: 'migrate [--db URL]', load: () => import('./commands/migrate.js') },
  org: {
    usage: `org list
  org create --name N [--plan free|paid] [--contact-cap N|none] [--admin-email E]... [--rate-limit N]
  org update ORG_ID [--name N] [--plan free|paid] [--billing active|read_only]
                    [--contact-cap N|none|default] [--admin-email E]... [--rate-limit N|default]`,
    load: () => import('./commands/org.js'),
  },
  key: { usage: 'key list --org ORG_ID\n  key create --org ORG_ID --scope read|read:write\n  key revoke KEY_ID', load: () => import('./commands/key.js') },
  board: { usage: 'board create --org ORG_ID --name N [--private]\n  board list --org ORG_ID', load: () => import('./commands/board.js') },
  post: { usage: 'post create --org ORG_ID --board BOARD_ID --title T [--body-text X] [--contact CONTACT_ID]', load: () => import('./commands/post.js') },
  changelog: {
    usage: 'changelog create --org ORG_ID --board BOARD_ID --title T [--body X]\n  changelog publish ENTRY_ID --org ORG_ID',
    load: () => import('./commands/changelog.js'),
  },
  secrets: {
    usage: `secrets generate-key                           a new key for FEEDBACK_SECRET_KEY
  secrets rotate [--db URL]                       seal every stored secret under the current key`,
    load: () => import('./commands/secrets.js'),
  },
  mcp: {
    usage: `mcp --org ORG_ID [--db URL]                     the agent tools over stdio, on the database
  mcp --base-url URL --api-key KEY                the same tools against a running server`,
    load: () => import('./commands/mcp.js'),
  },
};

const USAGE = `feedback-service <command> [options]

Commands:
${Object.values(COMMANDS)
  .map((c) => `  ${c.usage}`)
  .join('\n')}

Every command takes --json and then prints one JSON object. --version prints the version.
The database is a SQLite file (default ./feedback.db) or a postgres:// URL (--db or DATABASE_URL).`;

const HELP = new Set(['help', '--help', '-h']);

/** One command's usage lines, each led by the program's name, continuation lines kept aligned under it. */
function commandHelp(command: Command): string {
  const lead = 'feedback-service ';
  return `  ${command.usage}`
    .split('\n')
    .map((line) => (/^ {2}\S/.test(line) ? lead + line.slice(2) : ' '.repeat(lead.length - 2) + line))
    .join('\n');
}

async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (name === undefined || HELP.has(name)) return void console.log(USAGE);
  if (name === '--version' || name === '-v' || name === 'version') return void console.log(PACKAGE_VERSION);
  const command = COMMANDS[name];
  if (!command) {
    const guess = nearest(name, Object.keys(COMMANDS));
    throw new UsageError(`unknown command: ${name}${guess ? `; did you mean ${guess}?` : ''}`);
  }
  if (rest.includes('--help') || rest.includes('-h')) return void console.log(commandHelp(command));
  await (await command.load()).run(rest);
}

main(process.argv.slice(2)).catch(async (err: unknown) => {
  const json = process.argv.includes('--json');
  if (err instanceof UsageError) {
    if (json) console.log(JSON.stringify({ error: { code: 'ERR_USAGE', message: err.message } }));
    else console.error(`${err.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (err instanceof CommandError) {
    if (json) console.log(JSON.stringify({ error: { code: err.code, message: err.message } }));
    else console.error(err.message);
    process.exit(1);
  }
  // Loaded only now: a command that got this far has loaded the engine already.
  const { FeedbackError, isDatabaseUnavailable } = await import('../engine/index.js');
  if (err instanceof FeedbackError) {
    if (json) console.log(JSON.stringify({ error: err.toJSON() }));
    else console.error(`${err.code}: ${err.message}`);
    process.exit(1);
  }
  if (isDatabaseUnavailable(err)) {
    const cause = (err as { code?: string; message?: string }).code ?? (err as Error).message;
    const message = `cannot reach the database (${cause}): check --db or DATABASE_URL, and that the server is up`;
    if (json) console.log(JSON.stringify({ error: { code: 'ERR_UNAVAILABLE', message } }));
    else console.error(message);
    process.exit(1);
  }
  if (json) console.log(JSON.stringify({ error: { code: 'ERR_INTERNAL', message: (err as Error)?.message ?? String(err) } }));
  else console.error(err);
  process.exit(1);
});
