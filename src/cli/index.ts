#!/usr/bin/env node
import { createEngine, FeedbackError, type Engine } from '../engine/index.js';
import type { Plan, BillingState } from '../engine/index.js';
import { createApp, serveNode } from '../h3/index.js';
import { intFlag, parseFlags, UsageError } from './args.js';

const USAGE = `feedback-service <command> [options]

Commands:
  serve [--port 3000] [--host 127.0.0.1] [--db URL] [--allow-private-networks]
        [--smtp-url smtp://user:pass@host:587] [--mail-from ADDRESS]
  migrate [--db URL]
  org create --name N [--plan free|paid] [--contact-cap N|none] [--admin-email E]... [--rate-limit N]
  org update ORG_ID [--name N] [--plan free|paid] [--billing active|read_only]
                    [--contact-cap N|none|default] [--admin-email E]... [--rate-limit N|default]
  key create --org ORG_ID --scope read|read:write
  key revoke KEY_ID
  board create --org ORG_ID --name N [--private]
  board list --org ORG_ID
  post create --org ORG_ID --board BOARD_ID --title T [--body-text X] [--contact CONTACT_ID]
  changelog create --org ORG_ID --board BOARD_ID --title T [--body X]
  changelog publish ENTRY_ID --org ORG_ID
  mcp --org ORG_ID [--db URL]                     the agent tools over stdio, on the database
  mcp --base-url URL --api-key KEY                the same tools against a running server

Every command takes --json and then prints one JSON object.
The database is a SQLite file (default ./feedback.db) or a postgres:// URL (--db or DATABASE_URL).`;

const DB_FLAG = { db: { type: 'string' } } as const;

function databaseOf(flag: string | undefined): string {
  return flag ?? process.env.DATABASE_URL ?? './feedback.db';
}

function print(json: boolean | undefined, value: Record<string, unknown>, human: string): void {
  console.log(json ? JSON.stringify(value) : human);
}

async function withEngine<T>(db: string | undefined, fn: (engine: Engine) => Promise<T>): Promise<T> {
  const engine = await createEngine({ database: databaseOf(db) });
  try {
    await engine.migrate();
    return await fn(engine);
  } finally {
    await engine.close();
  }
}

function capFlag(value: string | undefined, allowDefault: boolean): number | null | 'default' | undefined {
  if (value === undefined) return undefined;
  if (value === 'none') return null;
  if (value === 'default' && allowDefault) return 'default';
  return intFlag(value, 'contact-cap');
}

async function serve(argv: string[]): Promise<void> {
  const { values } = parseFlags(argv, {
    ...DB_FLAG,
    port: { type: 'string' },
    host: { type: 'string' },
    'allow-private-networks': { type: 'boolean' },
    'smtp-url': { type: 'string' },
    'mail-from': { type: 'string' },
  });
  const allowPrivateNetworks = values['allow-private-networks'] === true || process.env.FEEDBACK_ALLOW_PRIVATE_NETWORKS === '1';
  const database = databaseOf(values.db);
  const engine = await createEngine({
    database,
    webhooks: {
      allowPrivateNetworks,
      smtpUrl: values['smtp-url'] ?? process.env.FEEDBACK_SMTP_URL,
      mailFrom: values['mail-from'] ?? process.env.FEEDBACK_MAIL_FROM,
    },
  });
  await engine.migrate();
  let bootstrap: { organizationId: string; apiKey: string } | undefined;
  if ((await engine.organizations.count()) === 0) {
    const org = await engine.organizations.create({ name: 'Default workspace', plan: 'paid' });
    const key = await engine.keys.create(org.id, 'read:write');
    bootstrap = { organizationId: org.id, apiKey: key.key };
  }
  const { mcpEndpoint } = await import('../mcp/http.js');
  const app = createApp({ engine, endpoints: [mcpEndpoint(engine)] });
  await engine.scheduler.start();
  const server = await serveNode(app, { port: intFlag(values.port, 'port') ?? Number(process.env.PORT ?? 3000), host: values.host ?? '127.0.0.1' });
  const human = [
    `feedback-service listening on ${server.url} (database: ${engine.dialect === 'sqlite' ? database : 'postgresql'})`,
    ...(bootstrap
      ? [
          'Created a workspace and a read:write API key. The key is shown only this once:',
          `  organization: ${bootstrap.organizationId}`,
          `  api key:      ${bootstrap.apiKey}`,
        ]
      : []),
  ].join('\n');
  print(values.json, { url: server.url, dialect: engine.dialect, allowPrivateNetworks, ...(bootstrap ? { bootstrap } : {}) }, human);
  const shutdown = async () => {
    await server.close().catch(() => {});
    await engine.close().catch(() => {});
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

/**
 * `mcp`: the agent tools over stdio (stdout is the protocol: nothing else is printed there). On a database
 * (`--db`, `--org`) the operator acts with full scope; against a server (`--base-url`, `--api-key`) the key's
 * scope and the server's rules apply.
 */
async function mcp(argv: string[]): Promise<void> {
  const { values } = parseFlags(argv, { ...DB_FLAG, org: { type: 'string' }, 'base-url': { type: 'string' }, 'api-key': { type: 'string' } });
  const { createToolServer, engineOperations, clientOperations } = await import('../mcp/index.js');
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const baseUrl = values['base-url'] ?? process.env.FEEDBACK_BASE_URL;
  let server;
  let close = async () => {};
  if (baseUrl) {
    const apiKey = values['api-key'] ?? process.env.FEEDBACK_API_KEY;
    if (!apiKey) throw new UsageError('mcp --base-url needs --api-key (or FEEDBACK_API_KEY)');
    const { createClient } = await import('../client/index.js');
    const client = createClient({ apiKey, baseUrl });
    const me = await client.whoami();
    server = createToolServer(clientOperations(client), { scope: me.scope });
  } else {
    if (!values.org) throw new UsageError('mcp needs --org ORG_ID (with --db), or --base-url and --api-key');
    const engine = await createEngine({ database: databaseOf(values.db), log: (m, e) => console.error(m, e ?? '') });
    await engine.migrate();
    const org = await engine.organizations.get(values.org);
    if (!org) {
      await engine.close();
      throw new FeedbackError('ERR_NOT_FOUND', `No organization with id ${values.org}.`);
    }
    server = createToolServer(engineOperations(engine, org.id), { billingState: org.billingState });
    close = () => engine.close();
  }
  server.onclose = () => void close().then(() => process.exit(0));
  await server.connect(new StdioServerTransport());
}

async function main(argv: string[]): Promise<void> {
  const [command, sub, ...rest] = argv;
  switch (command) {
    case 'serve':
      return serve(argv.slice(1));
    case 'migrate': {
      const { values } = parseFlags(argv.slice(1), DB_FLAG);
      const engine = await createEngine({ database: databaseOf(values.db) });
      try {
        const applied = await engine.migrate();
        print(values.json, { applied }, applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
      } finally {
        await engine.close();
      }
      return;
    }
    case 'org': {
      const flags = {
        ...DB_FLAG,
        name: { type: 'string' },
        plan: { type: 'string' },
        billing: { type: 'string' },
        'contact-cap': { type: 'string' },
        'admin-email': { type: 'string', multiple: true },
        'rate-limit': { type: 'string' },
      } as const;
      const { values, positionals } = parseFlags(rest, flags);
      if (sub === 'create') {
        if (!values.name) throw new UsageError('org create needs --name');
        if (values.billing) throw new UsageError('--billing is for org update');
        const cap = capFlag(values['contact-cap'], false);
        const org = await withEngine(values.db, (e) =>
          e.organizations.create({
            name: values.name!,
            plan: values.plan as Plan | undefined,
            ...(cap !== undefined ? { contactCap: cap as number | null } : {}),
            adminEmails: values['admin-email'],
            rateLimit: intFlag(values['rate-limit'], 'rate-limit'),
          }),
        );
        print(values.json, { ...org }, `Created organization ${org.id} (${org.name}, plan ${org.plan}).`);
        return;
      }
      if (sub === 'update') {
        const id = positionals[0];
        if (!id) throw new UsageError('org update needs ORG_ID');
        const rate = values['rate-limit'];
        const org = await withEngine(values.db, (e) =>
          e.organizations.update(id, {
            name: values.name,
            plan: values.plan as Plan | undefined,
            billingState: values.billing as BillingState | undefined,
            contactCap: capFlag(values['contact-cap'], true),
            adminEmails: values['admin-email'],
            rateLimit: rate === 'default' ? null : intFlag(rate, 'rate-limit'),
          }),
        );
        print(values.json, { ...org }, `Updated organization ${org.id}: plan ${org.plan}, billing ${org.billingState}, contact cap ${org.contactCap ?? 'unlimited'}, rate limit ${org.rateLimit}/min.`);
        return;
      }
      throw new UsageError('org needs create or update');
    }
    case 'key': {
      const { values, positionals } = parseFlags(rest, { ...DB_FLAG, org: { type: 'string' }, scope: { type: 'string' } });
      if (sub === 'create') {
        if (!values.org) throw new UsageError('key create needs --org');
        if (values.scope !== 'read' && values.scope !== 'read:write') throw new UsageError('key create needs --scope read|read:write');
        const key = await withEngine(values.db, (e) => e.keys.create(values.org!, values.scope as 'read' | 'read:write'));
        print(values.json, { ...key }, `Created key ${key.id} (${key.scope}). It is shown only this once:\n${key.key}`);
        return;
      }
      if (sub === 'revoke') {
        const id = positionals[0];
        if (!id) throw new UsageError('key revoke needs KEY_ID');
        const result = await withEngine(values.db, (e) => e.keys.revoke(id));
        print(values.json, { ...result }, `Revoked key ${result.id}.`);
        return;
      }
      throw new UsageError('key needs create or revoke');
    }
    case 'board': {
      const { values } = parseFlags(rest, { ...DB_FLAG, org: { type: 'string' }, name: { type: 'string' }, private: { type: 'boolean' } });
      if (!values.org) throw new UsageError(`board ${sub ?? ''} needs --org`);
      if (sub === 'create') {
        if (!values.name) throw new UsageError('board create needs --name');
        const board = await withEngine(values.db, (e) => e.workspace(values.org!).boards.create({ name: values.name!, isPublic: !values.private }));
        print(values.json, { ...board }, `Created board ${board.id} (${board.name}, /${board.slug}).`);
        return;
      }
      if (sub === 'list') {
        const boards = await withEngine(values.db, async (e) => {
          const all = [];
          let cursor: string | undefined;
          do {
            const page = await e.workspace(values.org!).boards.list({ limit: 100, ...(cursor ? { cursor } : {}) });
            all.push(...page.data);
            cursor = page.nextCursor ?? undefined;
          } while (cursor);
          return all;
        });
        print(values.json, { data: boards }, boards.map((b) => `${b.id}  ${b.slug}  ${b.name}${b.isPublic ? '' : ' (private)'}`).join('\n') || 'No boards.');
        return;
      }
      throw new UsageError('board needs create or list');
    }
    case 'post': {
      const { values } = parseFlags(rest, {
        ...DB_FLAG,
        org: { type: 'string' },
        board: { type: 'string' },
        title: { type: 'string' },
        'body-text': { type: 'string' },
        contact: { type: 'string' },
      });
      if (sub !== 'create') throw new UsageError('post needs create');
      if (!values.org || !values.board || !values.title) throw new UsageError('post create needs --org, --board and --title');
      const text = values['body-text'];
      const post = await withEngine(values.db, (e) =>
        e.workspace(values.org!).posts.create(values.board!, {
          title: values.title!,
          ...(text !== undefined ? { body: { json: { type: 'text', text }, text } } : {}),
          ...(values.contact ? { contactId: values.contact } : {}),
        }),
      );
      print(values.json, { ...post }, `Created post ${post.id} (/${post.slug}) on board ${post.boardId}.`);
      return;
    }
    case 'changelog': {
      const { values, positionals } = parseFlags(rest, {
        ...DB_FLAG,
        org: { type: 'string' },
        board: { type: 'string' },
        title: { type: 'string' },
        body: { type: 'string' },
      });
      if (!values.org) throw new UsageError(`changelog ${sub ?? ''} needs --org`);
      if (sub === 'create') {
        if (!values.board || !values.title) throw new UsageError('changelog create needs --board and --title');
        const entry = await withEngine(values.db, (e) =>
          e.workspace(values.org!).changelog.create({ boardId: values.board!, title: values.title!, ...(values.body ? { body: values.body } : {}) }),
        );
        print(values.json, { ...entry }, `Created draft changelog entry ${entry.id} (/${entry.slug}).`);
        return;
      }
      if (sub === 'publish') {
        const id = positionals[0];
        if (!id) throw new UsageError('changelog publish needs ENTRY_ID');
        const entry = await withEngine(values.db, (e) => e.workspace(values.org!).changelog.publish(id));
        print(values.json, { ...entry }, `Published changelog entry ${entry.id} at ${entry.publishedAt}.`);
        return;
      }
      throw new UsageError('changelog needs create or publish');
    }
    case undefined:
    case 'mcp':
      return mcp(argv.slice(1));
    case 'help':
    case '--help':
    case '-h':
      console.log(USAGE);
      return;
    default:
      throw new UsageError(`unknown command: ${command}`);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  const json = process.argv.includes('--json');
  if (err instanceof UsageError) {
    if (json) console.log(JSON.stringify({ error: { code: 'ERR_USAGE', message: err.message } }));
    else console.error(`${err.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (err instanceof FeedbackError) {
    if (json) console.log(JSON.stringify({ error: err.toJSON() }));
    else console.error(`${err.code}: ${err.message}`);
    process.exit(1);
  }
  console.error(err);
  process.exit(1);
});
