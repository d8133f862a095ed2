import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createEngine, FeedbackError } from '../../engine/index.js';
import { createToolServer, engineOperations, clientOperations } from '../../mcp/index.js';
import { parseFlags, UsageError } from '../args.js';
import { DB_FLAG, databaseOf } from '../common.js';

/**
 * `mcp`: the agent tools over stdio (stdout is the protocol: nothing else is printed there). On a database
 * (`--db`, `--org`) the operator acts with full scope; against a server (`--base-url`, `--api-key`) the key's
 * scope and the server's rules apply.
 */
export async function run(argv: string[]): Promise<void> {
  const { values } = parseFlags(argv, { ...DB_FLAG, org: { type: 'string' }, 'base-url': { type: 'string' }, 'api-key': { type: 'string' } });
  const baseUrl = values['base-url'] ?? process.env.FEEDBACK_BASE_URL;
  let server;
  let close = async () => {};
  if (baseUrl) {
    const apiKey = values['api-key'] ?? process.env.FEEDBACK_API_KEY;
    if (!apiKey) throw new UsageError('mcp --base-url needs --api-key (or FEEDBACK_API_KEY)');
    const { createClient } = await import('../../client/index.js');
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
