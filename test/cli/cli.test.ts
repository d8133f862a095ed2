import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import { CLI_ARGS, command, succeeds } from '../helpers/cli.js';
import { startReceiver } from '../helpers/receiver.js';
import { until } from '../helpers/wait.js';

const run = promisify(execFile);

const dir = mkdtempSync(join(tmpdir(), 'feedback-cli-'));
const db = join(dir, 'cli.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A command on this suite's database, with --json: its one JSON object (a failed command is the rejection). */
async function cli(...args: string[]): Promise<any> {
  return JSON.parse((await succeeds(...args, '--db', db, '--json')).trim());
}

describe('feedback-service command line', () => {
  it('migrate, org create|update, key create|revoke and board create print one JSON object each', async () => {
    expect((await cli('migrate')).applied).toEqual([
      'Migration20261122000000Initial',
      'Migration20261122010000ContactVersion',
      'Migration20261122020000TagsChangelog',
      'Migration20261122030000Webhooks',
      'Migration20261122040000IdempotencyKeys',
      'Migration20261123000000DropPrefixIndexes',
      'Migration20261123010000DeliveryEventOrder',
      'Migration20261123020000SealedSecrets',
      'Migration20261123030000ApiKeyLastUsed',
      'Migration20261124000000Portal',
      'Migration20261125000000PortalParticipation',
      'Migration20261126000000Notifications',
      'Migration20261127000000Search',
      'Migration20261128000000SearchScopes',
      'Migration20261129000000Team',
      'Migration20261130000000Triage',
      'Migration20261201000000Console',
      'Migration20261202000000SearchPendingUpsert',
      'Migration20261204000000SearchWatermark',
      'Migration20261205000000SignInSecurity',
      'Migration20261206000000VotersByCurrency',
      'Migration20261207000000BoardDescription',
      'Migration20261208000000Companies',
      'Migration20261209000000CompanyImpact',
      'Migration20261210000000CompanySearch',
      'Migration20261211000000CommentEdits',
      'Migration20261212000000ImportRecords',
      'Migration20261213000000OnePerson',
      'Migration20261214000000SearchForgiveness',
      'Migration20261215000000DuplicateDismissals',
      'Migration20261216000000PostEmbeddings',
      'Migration20261217000000Languages',
      'Migration20261218000000Integrations',
      'Migration20261219000000SearchSegments',
      'Migration20261219010000SearchBound',
    ]);
    expect((await cli('migrate')).applied).toEqual([]);
    const org = await cli(
      'org',
      'create',
      '--name',
      'Acme',
      '--plan',
      'free',
      '--admin-email',
      'a@acme.com',
      '--rate-limit',
      '100',
    );
    expect(org).toMatchObject({
      name: 'Acme',
      plan: 'free',
      contactCap: 1000,
      rateLimit: 100,
      adminEmails: ['a@acme.com'],
    });
    const updated = await cli(
      'org',
      'update',
      org.id,
      '--billing',
      'read_only',
      '--contact-cap',
      'none',
      '--plan',
      'paid',
    );
    expect(updated).toMatchObject({
      billingState: 'read_only',
      contactCap: null,
      contactCapOverride: true,
      plan: 'paid',
    });
    expect(await cli('org', 'update', org.id, '--contact-cap', 'default', '--plan', 'free')).toMatchObject({
      contactCap: 1000,
      contactCapOverride: false,
    });
    const key = await cli('key', 'create', '--org', org.id, '--scope', 'read');
    expect(key.key).toMatch(/^fsk_[A-Za-z0-9_-]{43}$/);
    expect(key.scope).toBe('read');
    expect((await cli('key', 'revoke', key.id)).id).toBe(key.id);
    const board = await cli('board', 'create', '--org', org.id, '--name', 'Feature Requests!');
    expect(board).toMatchObject({
      name: 'Feature Requests!',
      slug: 'feature-requests',
      organizationId: org.id,
      description: null,
    });
    const described = await cli('board', 'create', '--org', org.id, '--name', 'Bugs', '--description', 'What broke.');
    expect(described.description).toBe('What broke.');
    expect((await cli('board', 'create', '--org', org.id, '--name', 'Feature requests')).slug).toBe(
      'feature-requests-2',
    );
  });

  it('company list and get read the accounts identify wrote: a page at a time, by revenue, searched', async () => {
    const org = await cli('org', 'create', '--name', 'Companies');
    const engine = await createEngine({ database: db, log: () => {} });
    try {
      const w = engine.workspace(org.id);
      await w.contacts.identify({
        externalUserId: 'ada',
        companies: [
          { externalCompanyId: 'acme', name: 'Acme', domain: 'acme.com', mrrCents: 200_000, currency: 'USD' },
          { externalCompanyId: 'beta', name: 'Beta' },
        ],
      });
      await w.contacts.identify({ externalUserId: 'bob', companies: [{ externalCompanyId: 'acme' }] });
    } finally {
      await engine.close();
    }
    const byRevenue = await cli('company', 'list', '--org', org.id, '--sort', 'mrr', '--limit', '1');
    expect(byRevenue.data.map((c: { externalCompanyId: string }) => c.externalCompanyId)).toEqual(['acme']);
    expect(byRevenue.data[0]).toMatchObject({ memberCount: 2, mrrCents: 200_000, currency: 'USD' });
    const next = await cli('company', 'list', '--org', org.id, '--sort', 'mrr', '--cursor', byRevenue.nextCursor);
    expect(next.data.map((c: { externalCompanyId: string }) => c.externalCompanyId)).toEqual(['beta']);
    expect((await cli('company', 'list', '--org', org.id, '--q', 'ACME.com')).data).toHaveLength(1);
    const acme = await cli('company', 'get', byRevenue.data[0].id, '--org', org.id);
    expect(acme).toMatchObject({ name: 'Acme', domain: 'acme.com', memberCount: 2 });
    const human = await succeeds('company', 'get', acme.id, '--org', org.id, '--db', db);
    expect(human.trim()).toBe(`${acme.id}  acme  Acme (acme.com)  2000.00 USD/month  2 people`);
    const missing = await command('company', 'get', 'com_nope', '--org', org.id, '--db', db);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No company with id com_nope.');
  });

  it('board list, post create and changelog create|publish seed a workspace by hand', async () => {
    const org = await cli('org', 'create', '--name', 'Seeded', '--plan', 'paid');
    const board = await cli('board', 'create', '--org', org.id, '--name', 'Roadmap');
    const hidden = await cli('board', 'create', '--org', org.id, '--name', 'Internal', '--private');
    expect(hidden.isPublic).toBe(false);
    expect((await cli('board', 'list', '--org', org.id)).data.map((b: { id: string }) => b.id)).toEqual([
      board.id,
      hidden.id,
    ]);
    const post = await cli(
      'post',
      'create',
      '--org',
      org.id,
      '--board',
      board.id,
      '--title',
      'Offline mode',
      '--body-text',
      'Works on a plane',
    );
    expect(post).toMatchObject({
      boardId: board.id,
      slug: 'offline-mode',
      bodyText: 'Works on a plane',
      status: 'open',
      moderationStatus: 'approved',
    });
    const entry = await cli(
      'changelog',
      'create',
      '--org',
      org.id,
      '--board',
      board.id,
      '--title',
      'Offline mode shipped',
    );
    expect(entry).toMatchObject({ status: 'draft', slug: 'offline-mode-shipped' });
    const published = await cli('changelog', 'publish', entry.id, '--org', org.id);
    expect(published.status).toBe('published');
    await expect(cli('changelog', 'publish', entry.id, '--org', org.id)).rejects.toMatchObject({ code: 1 });
    await expect(cli('post', 'create', '--org', org.id, '--board', 'brd_nope', '--title', 'x')).rejects.toMatchObject({
      code: 1,
    });
  });

  it("team add prints the first owner's one-time console link on the public address; team list shows the team", async () => {
    const org = await cli('org', 'create', '--name', 'Console');
    const added = await cli(
      'team',
      'add',
      '--org',
      org.id,
      '--email',
      'Me@Example.com',
      '--role',
      'owner',
      '--name',
      'Me',
      '--public-url',
      'https://feedback.example.com/',
    );
    expect(added.member).toMatchObject({
      email: 'me@example.com',
      role: 'owner',
      name: 'Me',
      addedBy: 'cli',
      joinedAt: null,
    });
    expect(added.signInLink).toMatch(/^https:\/\/feedback\.example\.com\/console\/sign-in\/link\?token=[\w-]{43}$/);
    expect((await cli('team', 'list', '--org', org.id)).data.map((m: { email: string }) => m.email)).toEqual([
      'me@example.com',
    ]);
    const human = await succeeds(
      'team',
      'add',
      '--org',
      org.id,
      '--email',
      'pm@example.com',
      '--role',
      'member',
      '--db',
      db,
    );
    expect(human).toMatch(
      /^pm@example\.com is on the team as member\. Their one-time sign-in link .*\n\n {2}http:\/\/127\.0\.0\.1:3000\/console\/sign-in\/link\?token=/,
    );
    await expect(
      cli('team', 'add', '--org', org.id, '--email', 'pm@example.com', '--role', 'viewer'),
    ).rejects.toMatchObject({ code: 1 });
    await expect(
      cli('team', 'add', '--org', org.id, '--email', 'x@example.com', '--role', 'boss'),
    ).rejects.toMatchObject({ code: 2 });
    await expect(
      cli('team', 'add', '--org', 'org_nope', '--email', 'x@example.com', '--role', 'owner'),
    ).rejects.toMatchObject({ code: 1 });

    // Single sign-on: set up (the secret never printed), shown, refused when wrong, turned off.
    const sso = [
      'team',
      'sso',
      '--org',
      org.id,
      '--issuer',
      'https://idp.example.com/',
      '--client-id',
      'console',
      '--client-secret',
      's3cret',
      '--domains',
      'Example.com, example.org',
      '--public-url',
      'https://feedback.example.com',
    ];
    const set = await cli(...sso);
    const unverified = (domain: string) => ({
      domain,
      verified: false,
      verifiedBy: null,
      verifiedAt: null,
      record: {
        name: `_feedback-service.${domain}`,
        value: expect.stringMatching(/^feedback-service-verification=[0-9a-f]{32}$/),
      },
    });
    expect(set).toEqual({
      sso: {
        issuer: 'https://idp.example.com',
        clientId: 'console',
        domains: [unverified('example.com'), unverified('example.org')],
        required: false,
      },
      callback: 'https://feedback.example.com/console/sso/callback',
      signInPage: `https://feedback.example.com/console/${org.id}/sign-in`,
    });
    // Without the public address, nothing is shown or changed: the redirect URI would be a guess.
    await expect(succeeds('team', 'sso', '--org', org.id, '--db', db)).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('pass --public-url https://feedback.example.com'),
    });
    const shown = (
      await succeeds('team', 'sso', '--org', org.id, '--db', db, '--public-url', 'https://feedback.example.com')
    )
      .trim()
      .split('\n');
    expect(shown[0]).toBe('Single sign-on: https://idp.example.com (client console). Domains:');
    expect(shown[1]).toMatch(
      /^ {2}example\.com: not verified\. Add a TXT record _feedback-service\.example\.com with the value feedback-service-verification=[0-9a-f]{32}, then check it/,
    );
    expect(shown.slice(3)).toEqual([
      `The workspace's own sign-in page (single sign-on works there for every domain above, verified or not): https://feedback.example.com/console/${org.id}/sign-in`,
      'Register this redirect URI at the provider: https://feedback.example.com/console/sso/callback',
    ]);
    // The operator vouches for a domain, and requires single sign-on for its people.
    const vouched = await cli(
      'team',
      'sso',
      '--org',
      org.id,
      '--domains',
      'example.com',
      '--verified',
      '--require',
      'on',
      '--public-url',
      'https://feedback.example.com',
    );
    expect(
      vouched.sso.domains.map((d: { domain: string; verified: boolean; verifiedBy: string }) => [
        d.domain,
        d.verified,
        d.verifiedBy,
      ]),
    ).toEqual([
      ['example.com', true, 'operator'],
      ['example.org', false, null],
    ]);
    expect(vouched.sso.required).toBe(true);
    await expect(
      cli(
        'team',
        'sso',
        '--org',
        org.id,
        '--domains',
        'other.example',
        '--verified',
        '--public-url',
        'https://f.example',
      ),
    ).rejects.toMatchObject({ code: 1, stderr: expect.not.stringContaining('--public-url') });
    await expect(
      cli(
        'team',
        'sso',
        '--org',
        org.id,
        '--issuer',
        'http://idp.example.com',
        '--client-id',
        'c',
        '--domains',
        'example.com',
        '--public-url',
        'https://feedback.example.com',
      ),
    ).rejects.toMatchObject({ code: 1, stderr: expect.not.stringContaining('--public-url') });
    expect((await cli('team', 'sso', '--org', org.id, '--off')).sso).toBeNull();

    // A team member's data request, then their erasure; the last owner stays until someone else owns the workspace.
    expect((await cli('team', 'export', '--email', 'pm@example.com')).teams).toEqual([
      expect.objectContaining({ organizationId: org.id, role: 'member' }),
    ]);
    expect(await cli('team', 'erase', '--email', 'pm@example.com')).toMatchObject({
      teams: 1,
      alias: expect.stringMatching(/^erased-member:[0-9a-f]{12}$/),
    });
    expect((await cli('team', 'export', '--email', 'pm@example.com')).teams).toEqual([]);
    await expect(cli('team', 'erase', '--email', 'me@example.com')).rejects.toMatchObject({ code: 1 });
  });

  it('org update sets the portal settings; portal-secret create|rotate print the secret once', async () => {
    const org = await cli('org', 'create', '--name', 'Portal');
    const updated = await cli(
      'org',
      'update',
      org.id,
      '--handle',
      'cli-portal',
      '--portal',
      'on',
      '--portal-verified-only',
      'on',
      '--portal-moderation',
      'on',
    );
    expect(updated).toMatchObject({
      handle: 'cli-portal',
      portalEnabled: true,
      portalVerifiedOnly: true,
      portalModeration: true,
    });
    expect(await cli('org', 'update', org.id, '--portal-verified-only', 'off')).toMatchObject({
      portalVerifiedOnly: false,
      portalModeration: true,
    });
    const framed = await cli(
      'org',
      'update',
      org.id,
      '--portal-frame-origin',
      'https://app.example.com',
      '--portal-frame-origin',
      'http://localhost:3000',
    );
    expect(framed.portalFrameOrigins).toEqual(['https://app.example.com', 'http://localhost:3000']);
    expect((await cli('org', 'update', org.id, '--portal-frame-origin', 'none')).portalFrameOrigins).toEqual([]);
    // Search: the stems' language, and the synonyms, a group each time the flag is given; none clears them.
    const forgiving = await cli(
      'org',
      'update',
      org.id,
      '--search-stems',
      'none',
      '--search-synonym',
      'SSO, single sign-on',
      '--search-synonym',
      'csv,spreadsheet',
    );
    expect(forgiving).toMatchObject({
      searchStems: 'none',
      searchSynonyms: [
        ['sso', 'single sign-on'],
        ['csv', 'spreadsheet'],
      ],
    });
    expect((await cli('org', 'update', org.id, '--search-synonym', 'none')).searchSynonyms).toEqual([]);
    // Languages: the workspace's default, and its own wording, one message at a time (docs/portal.md).
    const worded = await cli(
      'org',
      'update',
      org.id,
      '--locale',
      'de',
      '--wording',
      'de:board.newPost=Idee einreichen',
      '--wording',
      'fr:board.newPost=Proposer une idée',
    );
    expect(worded).toMatchObject({
      locale: 'de',
      portalWording: { de: { 'board.newPost': 'Idee einreichen' }, fr: { 'board.newPost': 'Proposer une idée' } },
    });
    expect((await cli('org', 'update', org.id, '--wording', 'fr:board.newPost=')).portalWording).toEqual({
      de: { 'board.newPost': 'Idee einreichen' },
    });
    await expect(
      cli('org', 'update', org.id, '--wording', 'de:board.newPost=Neu für {workspace}'),
    ).rejects.toMatchObject({
      code: 1,
      stdout: expect.stringContaining('which board.newPost does not have'),
    });
    await expect(cli('org', 'update', org.id, '--locale', 'sv')).rejects.toMatchObject({ code: 2 });
    expect((await cli('org', 'update', org.id, '--wording', 'none')).portalWording).toEqual({});
    await expect(cli('org', 'update', org.id, '--portal-frame-origin', 'app.example.com')).rejects.toMatchObject({
      code: 1,
      stdout: expect.stringContaining('is not an origin'),
    });
    const created = await cli('portal-secret', 'create', '--org', org.id);
    expect(created.secret).toMatch(/^fps_[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(await cli('org', 'list'))).not.toContain(created.secret.slice(4));
    await expect(cli('portal-secret', 'create', '--org', org.id)).rejects.toMatchObject({
      code: 1,
      stdout: expect.stringContaining('ERR_CONFLICT'),
    });
    const rotated = await cli('portal-secret', 'rotate', '--org', org.id, '--grace', '2h');
    expect(rotated.secret).not.toBe(created.secret);
    expect(Date.parse(rotated.previousValidUntil) - Date.now()).toBeGreaterThan(7100_000);
    expect((await cli('portal-secret', 'rotate', '--org', org.id, '--grace', '0')).previousValidUntil).toBeNull();
    await expect(cli('portal-secret', 'rotate', '--org', org.id, '--grace', '2 hours')).rejects.toMatchObject({
      code: 2,
    });
  });

  it('post pending|approve|spam moderate the posts a moderated portal holds', async () => {
    const org = await cli('org', 'create', '--name', 'Moderated');
    // A held post, as an anonymous portal post in a moderated workspace is stored.
    const engine = await createEngine({ database: db, log: () => {} });
    const w = engine.workspace(org.id);
    const board = await w.boards.create({ name: 'Ideas' });
    const held = await w.participation.post(
      { boardId: board.id, email: 'eve@example.com', title: 'Held', notifyMe: false },
      { held: true },
    );
    const spam = await w.participation.post(
      { boardId: board.id, email: 'bot@example.com', title: 'Cheap pills', notifyMe: false },
      { held: true },
    );
    await engine.close();
    expect((await cli('post', 'pending', '--org', org.id)).data.map((p: { id: string }) => p.id)).toEqual([
      held.id,
      spam.id,
    ]);
    expect(await cli('post', 'approve', held.id, '--org', org.id)).toMatchObject({
      id: held.id,
      moderationStatus: 'approved',
    });
    expect(await cli('post', 'spam', spam.id, '--org', org.id)).toMatchObject({
      id: spam.id,
      moderationStatus: 'spam',
    });
    expect((await cli('post', 'pending', '--org', org.id)).data).toEqual([]);
    await expect(cli('post', 'approve', held.id, '--org', org.id)).rejects.toMatchObject({ code: 1 });
  });

  it("org list and key list show what exists, with each key's last use and never a key", async () => {
    const org = await cli('org', 'create', '--name', 'Listed');
    const used = await cli('key', 'create', '--org', org.id, '--scope', 'read:write');
    const idle = await cli('key', 'create', '--org', org.id, '--scope', 'read');
    const engine = await createEngine({ database: db, log: () => {} });
    expect(await engine.keys.authenticate(used.key)).toMatchObject({ keyId: used.id });
    // The last-use write is not awaited by the request.
    await until(
      "the key's last use is written",
      async () => (await engine.keys.list(org.id)).some((k) => k.id === used.id && k.lastUsedAt !== null),
      5_000,
    );
    await engine.close();
    expect((await cli('org', 'list')).data.map((o: { id: string }) => o.id)).toContain(org.id);
    const stdout = await succeeds('key', 'list', '--org', org.id, '--db', db, '--json');
    const listed = JSON.parse(stdout).data;
    expect(listed.map((k: { id: string }) => k.id)).toEqual([used.id, idle.id]);
    expect(listed[0]).toMatchObject({
      scope: 'read:write',
      revokedAt: null,
      lastUsedAt: expect.stringMatching(/^\d{4}-/),
    });
    expect(listed[1]).toMatchObject({ scope: 'read', lastUsedAt: null });
    expect(stdout).not.toContain(used.key);
    expect(stdout).not.toContain(idle.key);
  });

  it('refuses a bad --plan or --billing before it opens (or creates) a database', async () => {
    const fresh = join(dir, 'never-created.db');
    for (const args of [
      ['org', 'create', '--name', 'x', '--plan', 'gold'],
      ['org', 'update', 'org_x', '--billing', 'frozen'],
    ]) {
      const err = await command(...args, '--db', fresh, '--json');
      expect(err.code).toBe(2);
      expect(JSON.parse(err.stdout).error.code).toBe('ERR_USAGE');
    }
    expect(existsSync(fresh)).toBe(false);
  });

  it('a bare command prints help, --version the version, and a typo gets the nearest command, subcommand or flag', async () => {
    const bare = await command();
    expect(bare.stdout).toMatch(/^Usage: feedback-service <command> \[options\]/);
    expect((await command('--version')).stdout.trim()).toMatch(/^\d+\.\d+\.\d+(-[a-z0-9.]+)?$/);
    for (const [args, message] of [
      [['serv'], "unknown command 'serv'; did you mean serve?"],
      [['org', 'craete', '--name', 'x'], "org: unknown command 'craete'; did you mean create?"],
      [['serve', '--prot', '3'], "serve: unknown option '--prot'; did you mean --port?"],
      // A typo in a required flag gets its suggestion, not "required option --org not specified".
      [['key', 'list', '--ogr', 'org_x'], "key list: unknown option '--ogr'; did you mean --org?"],
      [['key', 'list'], "key list: required option '--org <orgId>' not specified"],
      [['org'], 'org: needs a subcommand: list, create, update'],
      [
        ['serve', '--port', 'http'],
        "serve: option '--port <port>' argument 'http' is invalid. It must be a whole number.",
      ],
      [
        ['serve', '--db-statement-timeout', '15'],
        "serve: option '--db-statement-timeout <time>' argument '15' is invalid. It must be a whole number above 0 with ms, s or m (e.g. 500ms, 5s).",
      ],
    ] as const) {
      const err = await command(...args, '--json');
      expect(err.code, args.join(' ')).toBe(2);
      expect(JSON.parse(err.stdout).error).toEqual({ code: 'ERR_USAGE', message });
    }
  });

  it('a usage error exits 2 with a JSON error; a refused operation exits 1', async () => {
    await expect(cli('org', 'create')).rejects.toMatchObject({ code: 2 });
    await expect(cli('key', 'revoke', 'key_nope')).rejects.toMatchObject({ code: 1 });
    await expect(cli('org', 'create', '--name', 'x', '--bogus')).rejects.toMatchObject({ code: 2 });
  });

  it('as a process of its own: one JSON object on stdout and the exit code, 0 done, 1 refused, 2 usage error', async () => {
    const spawned = (...args: string[]) =>
      run(process.execPath, [...CLI_ARGS, ...args, '--db', db, '--json'], { cwd: dir }).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (err: { code: number; stdout: string }) => ({ code: err.code, stdout: err.stdout }),
      );
    const created = await spawned('org', 'create', '--name', 'Smoke');
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ name: 'Smoke', id: expect.stringMatching(/^org_/) });
    const refused = await spawned('key', 'revoke', 'key_nope');
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error.code).toBe('ERR_NOT_FOUND');
    const usage = await spawned('org', 'create');
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.stdout).error.code).toBe('ERR_USAGE');
  });

  it('a reader that closes the pipe early (`--help | head -1`) ends the command quietly, with no EPIPE trace', async () => {
    const child = spawn(process.execPath, [...CLI_ARGS, '--help'], { cwd: dir });
    child.stdout.destroy(); // the reader is gone before the first write, as `head` is after its line
    let stderr = '';
    child.stderr.on('data', (chunk) => void (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('--help answers from the command table alone: no command module, no engine, no database driver is loaded', async () => {
    const trace = join(dir, 'loads.txt');
    const hook = pathToFileURL(join(import.meta.dirname, '../fixtures/trace-loads.mjs')).href;
    const register = `data:text/javascript,import{register}from'node:module';register(${JSON.stringify(hook)})`;
    const help = async (...args: string[]) => {
      rmSync(trace, { force: true });
      const { stdout } = await run(
        process.execPath,
        [...CLI_ARGS.slice(0, 2), '--import', register, ...CLI_ARGS.slice(2), ...args],
        {
          cwd: dir,
          env: { ...process.env, TRACE_LOADS: trace },
        },
      );
      return { stdout, loaded: readFileSync(trace, 'utf8').split('\n').filter(Boolean) };
    };
    const all = await help('--help');
    expect(all.stdout).toContain('Usage: feedback-service <command> [options]');
    for (const command of ['serve', 'migrate', 'org', 'key', 'board', 'post', 'changelog', 'secrets', 'mcp'])
      expect(all.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    const one = await help('org', '--help');
    expect(one.stdout).toMatch(/^Usage: feedback-service org \[options\] \[command\]/);
    for (const sub of ['list', 'create', 'update <orgId>'])
      expect(one.stdout).toMatch(new RegExp(`^  ${sub.replace(' ', ' \\[options\\] ')}|^  ${sub} \\[options\\]`, 'm'));
    expect(one.stdout).not.toContain('serve');
    const leaf = await help('org', 'create', '--help');
    expect(leaf.stdout).toMatch(/^Usage: feedback-service org create \[options\]/);
    expect(leaf.stdout).toContain('--plan <plan>');
    expect(leaf.stdout).toContain('(choices: "free", "paid")');
    const refused = await help('org', 'create', '--name', 'x', '--plan', 'gold', '--json').catch((err) => ({
      stdout: err.stdout,
      loaded: readFileSync(trace, 'utf8').split('\n').filter(Boolean),
    }));
    expect(JSON.parse(refused.stdout).error.code).toBe('ERR_USAGE');
    for (const { loaded } of [all, one, leaf, refused]) {
      expect(loaded.some((url) => url.endsWith('/src/cli/index.ts'))).toBe(true); // the trace sees our modules
      expect(
        loaded.filter((url) =>
          /\/src\/(?!cli\/(index|program|args|io|program\/[a-z]+)\.ts$|contract\/version\.ts$|schemas\/(plans|team|locales)\.ts$)|@mikro-orm|libsql|\/pg\/|\/zod\//.test(
            url,
          ),
        ),
      ).toEqual([]);
    }
  });

  it('every command and subcommand answers --help with its own usage, and help COMMAND says the same', async () => {
    const commands = [
      'serve',
      'migrate',
      'org list',
      'org create',
      'org update',
      'key list',
      'key create',
      'key revoke',
      'board create',
      'board list',
      'post create',
      'post merge',
      'post pending',
      'post approve',
      'post spam',
      'changelog create',
      'changelog publish',
      'secrets generate-key',
      'secrets rotate',
      'portal-secret create',
      'portal-secret rotate',
      'contact export',
      'contact erase',
      'mcp',
      'org',
      'key',
      'board',
      'post',
      'changelog',
      'secrets',
      'portal-secret',
      'contact',
    ];
    await Promise.all(
      commands.map(async (name) => {
        const { stdout } = await succeeds(...name.split(' '), '--help').then((stdout) => ({ stdout }));
        expect(stdout, name).toMatch(new RegExp(`^Usage: feedback-service ${name} \\[options\\]`));
        if (name.includes(' ') || ['serve', 'migrate', 'mcp'].includes(name)) expect(stdout, name).toContain('--json');
      }),
    );
    const viaHelp = await command('help', 'key');
    const viaFlag = await command('key', '--help');
    expect(viaHelp).toMatchObject({ code: 0, stdout: viaFlag.stdout });
  });

  it('serve on an empty database creates a workspace and a read:write key, prints them once, and serves', async () => {
    const serveDir = mkdtempSync(join(tmpdir(), 'feedback-serve-'));
    const child = spawn(process.execPath, [...CLI_ARGS, 'serve', '--port', '0', '--json'], { cwd: serveDir });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
          if (out.includes('\n')) resolve(out.split('\n')[0]!);
        });
        child.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
      });
      const info = JSON.parse(line);
      expect(info.bootstrap.apiKey).toMatch(/^fsk_/);
      expect(info.dialect).toBe('sqlite');
      const res = await fetch(`${info.url}/v1/whoami`, {
        headers: { authorization: `Bearer ${info.bootstrap.apiKey}` },
      });
      expect((await res.json()).data).toMatchObject({
        organizationId: info.bootstrap.organizationId,
        scope: 'read:write',
      });
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    // The default database is ./feedback.db in the working directory; a second start prints no key.
    const again = spawn(process.execPath, [...CLI_ARGS, 'serve', '--port', '0', '--json'], { cwd: serveDir });
    try {
      const line = await new Promise<string>((resolve) =>
        again.stdout.once('data', (d) => resolve(String(d).split('\n')[0]!)),
      );
      expect(JSON.parse(line).bootstrap).toBeUndefined();
    } finally {
      again.kill('SIGTERM');
      await new Promise((r) => again.once('exit', r));
      rmSync(serveDir, { recursive: true, force: true });
    }
  });
});

describe('serve on a port in use', () => {
  it('stops before it makes the first workspace and key, so the next start still prints them', async () => {
    const serveDir = mkdtempSync(join(tmpdir(), 'feedback-busy-'));
    const busy = createNetServer().listen(0, '127.0.0.1');
    await new Promise((r) => busy.once('listening', r));
    const port = String((busy.address() as AddressInfo).port);
    try {
      const err = await run(process.execPath, [...CLI_ARGS, 'serve', '--port', port, '--json'], {
        cwd: serveDir,
      }).catch((e) => e);
      expect(err.code).toBe(1);
      expect(JSON.parse(err.stdout).error).toMatchObject({
        code: 'ERR_CANNOT_LISTEN',
        message: expect.stringMatching(/EADDRINUSE.*--port/),
      });
      expect(JSON.parse(await succeeds('org', 'list', '--db', join(serveDir, 'feedback.db'), '--json')).data).toEqual(
        [],
      );
      const child = spawn(process.execPath, [...CLI_ARGS, 'serve', '--port', '0'], { cwd: serveDir });
      try {
        const out = await new Promise<string>((resolve) => {
          let text = '';
          child.stdout.on('data', (d) => {
            text += d;
            if (text.includes('/v1/whoami')) resolve(text);
          });
        });
        expect(out).toMatch(/api key: +fsk_/);
        expect(out).toMatch(/curl -H 'Authorization: Bearer fsk_[^']+' http:\/\/127\.0\.0\.1:\d+\/v1\/whoami/);
      } finally {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
    } finally {
      busy.close();
      rmSync(serveDir, { recursive: true, force: true });
    }
  });
});

describe('what a server prints', () => {
  it('never prints a key or a secret: a whole run, grepped (the first start prints its bootstrap key once, by design)', async () => {
    const serveDir = mkdtempSync(join(tmpdir(), 'feedback-logs-'));
    const receiver = await startReceiver((_req, res) => {
      res.statusCode = 500;
      res.end('nope');
    });
    const env = { ...process.env };
    delete env.FEEDBACK_SECRET_KEY; // the embedded default: the key file beside the database
    const child = spawn(process.execPath, [...CLI_ARGS, 'serve', '--port', '0', '--json', '--allow-private-networks'], {
      cwd: serveDir,
      env,
    });
    let output = '';
    let stdout = '';
    child.stdout.on('data', (d) => {
      output += d;
      stdout += d;
    });
    child.stderr.on('data', (d) => (output += d));
    try {
      const info = await new Promise<any>((resolve, reject) => {
        child.stdout.on('data', () => stdout.includes('\n') && resolve(JSON.parse(stdout.split('\n')[0]!)));
        child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${output}`)));
      });
      const apiKey: string = info.bootstrap.apiKey;
      const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}, key = apiKey) =>
        fetch(`${info.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        }).then(async (r) => ({ status: r.status, body: await r.json() }));
      await succeeds(
        'org',
        'update',
        info.bootstrap.organizationId,
        '--plan',
        'paid',
        '--db',
        join(serveDir, 'feedback.db'),
      );
      const registration = { url: `${receiver.origin}/hook`, events: ['contact.created', 'contact.updated'] };
      const created = await call('POST', '/v1/webhooks', registration, { 'idempotency-key': 'grep-1' });
      expect(created.status).toBe(201);
      const secret: string = created.body.data.secret;
      expect((await call('POST', '/v1/webhooks', registration, { 'idempotency-key': 'grep-1' })).body.data.secret).toBe(
        secret,
      );
      // Failing deliveries, refused keys, invalid input, a tool call, a replayed registration: whatever gets logged.
      for (let i = 0; i < 3; i++)
        await call('POST', '/v1/contacts/identify', { externalUserId: `u${i}`, metadata: { i } });
      const wrongKey = `fsk_${'x'.repeat(43)}`;
      expect((await call('GET', '/v1/whoami', undefined, {}, wrongKey)).status).toBe(401);
      expect((await call('POST', '/v1/contacts', { name: 'a\u0000b' })).status).toBe(422);
      await call(
        'POST',
        '/mcp',
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {} } },
        { accept: 'application/json, text/event-stream' },
      );
      await receiver.waitFor(3);

      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      const secretKey = readFileSync(join(serveDir, 'feedback.db.key'), 'utf8').trim();
      expect(output.split(apiKey).length - 1).toBe(1); // the bootstrap line
      for (const leak of [secret, secret.slice('whsec_'.length), secretKey, wrongKey])
        expect(output).not.toContain(leak);
      expect(output).toContain('feedback.db.key'); // the key file's creation is announced, by name
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await receiver.close();
      rmSync(serveDir, { recursive: true, force: true });
    }
  });
});
