import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { command } from '../helpers/cli.js';
import { createTestDatabase, postgresReachable } from '../helpers/databases.js';

// A new user's mistakes on the command line: each one ends in one clear line (or the JSON envelope under --json) with
// the documented exit code (2 usage, 1 refused), before anything is opened or created.
const dir = mkdtempSync(join(tmpdir(), 'feedback-cli-mistakes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The command with --json: its exit code and its one JSON error. */
async function refused(...args: string[]) {
  const result = await command(...args, '--json');
  return { code: result.code, error: JSON.parse(result.stdout).error as { code: string; message: string } };
}

describe('the command line refuses a mistake in one line, before it starts anything', () => {
  it("--db: another database's URL, a directory, a file in a missing directory", async () => {
    expect(await refused('org', 'list', '--db', 'mysql://u@h/db')).toEqual({
      code: 2,
      error: {
        code: 'ERR_USAGE',
        message:
          "org list: option '--db <url>' argument 'mysql://u@h/db' is invalid. It must be a SQLite file or a postgres:// URL; mysql:// is not supported.",
      },
    });
    expect(existsSync('mysql:')).toBe(false);
    expect((await refused('migrate', '--db', dir)).error.message).toContain(
      `It is a directory; name a file in it, e.g. ${join(dir, 'feedback.db')}.`,
    );
    expect((await refused('migrate', '--db', join(dir, 'missing', 'x.db'))).error.message).toContain(
      `Its directory ${join(dir, 'missing')} does not exist.`,
    );
    expect(existsSync(join(dir, 'missing'))).toBe(false);
  });

  it.skipIf(process.getuid?.() === 0)(
    '--db: a file that cannot be written (root writes anything, so not as root)',
    async () => {
      const file = join(dir, 'read-only.db');
      writeFileSync(file, '');
      chmodSync(file, 0o444);
      expect(await refused('org', 'list', '--db', file)).toMatchObject({
        code: 2,
        error: { message: expect.stringContaining('The file cannot be written') },
      });
    },
  );

  it("serve: a port out of range, a host that does not resolve or is not this machine's, an SMTP address that is not one", async () => {
    const db = join(dir, 'serve.db');
    expect((await refused('serve', '--port', '99999', '--db', db)).error.message).toBe(
      "serve: option '--port <port>' argument '99999' is invalid. It must be a port from 0 to 65535 (0: any free port).",
    );
    expect(await refused('serve', '--host', 'nosuchhost.invalid', '--port', '0', '--db', db)).toEqual({
      code: 1,
      error: {
        code: 'ERR_CANNOT_LISTEN',
        message:
          'cannot listen on nosuchhost.invalid:0: the host name nosuchhost.invalid does not resolve (ENOTFOUND); check --host',
      },
    });
    expect(await refused('serve', '--host', '10.255.255.1', '--port', '0', '--db', db)).toEqual({
      code: 1,
      error: {
        code: 'ERR_CANNOT_LISTEN',
        message:
          'cannot listen on 10.255.255.1:0: 10.255.255.1 is not an address of this machine (EADDRNOTAVAIL); check --host',
      },
    });
    expect(await refused('serve', '--smtp-url', 'notaurl', '--db', db)).toMatchObject({
      code: 2,
      error: { message: expect.stringContaining('It must be smtp://user:pass@host:587') },
    });
    expect(existsSync(db)).toBe(false); // nothing was opened or created
    // Without --json: one line and where to look, no stack.
    const human = await command('serve', '--host', 'nosuchhost.invalid', '--port', '0', '--db', db);
    expect(human).toMatchObject({ code: 1, stdout: '' });
    expect(human.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('mcp --base-url that is not an address', async () => {
    expect(await refused('mcp', '--base-url', 'notaurl', '--api-key', 'fsk_x')).toMatchObject({
      code: 2,
      error: { message: expect.stringContaining("'--base-url <url>' argument 'notaurl' is invalid") },
    });
  });

  it("help COMMAND SUBCOMMAND is that subcommand's help; --version works after any command", async () => {
    const viaHelp = await command('help', 'org', 'create');
    expect(viaHelp).toMatchObject({ code: 0, stdout: (await command('org', 'create', '--help')).stdout });
    expect(viaHelp.stdout).toMatch(/^Usage: feedback-service org create \[options\]/);
    const version = (await command('--version')).stdout;
    for (const args of [
      ['serve', '--version'],
      ['org', 'create', '-v'],
    ])
      expect(await command(...args)).toMatchObject({ code: 0, stdout: version });
  });
});

describe.skipIf(!(await postgresReachable()))('PostgreSQL without FEEDBACK_SECRET_KEY', () => {
  it('migrate needs no key; a command that may seal or open a secret says so in one line', async () => {
    const db = await createTestDatabase('postgresql');
    const key = process.env.FEEDBACK_SECRET_KEY;
    delete process.env.FEEDBACK_SECRET_KEY;
    try {
      const migrated = await command('migrate', '--db', db.url, '--json');
      expect(migrated.code, migrated.stdout + migrated.stderr).toBe(0);
      expect(JSON.parse(migrated.stdout).applied.length).toBeGreaterThan(5);
      expect(await refused('org', 'list', '--db', db.url)).toMatchObject({
        code: 1,
        error: { code: 'ERR_SECRET_KEY', message: expect.stringContaining('PostgreSQL needs FEEDBACK_SECRET_KEY') },
      });
      const human = await command('org', 'list', '--db', db.url);
      expect(human.code).toBe(1);
      expect(human.stderr.trim().split('\n')).toHaveLength(1);
    } finally {
      process.env.FEEDBACK_SECRET_KEY = key;
      await db.drop();
    }
  });
});
