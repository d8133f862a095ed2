import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createEngine, FeedbackError } from '../../engine/index.js';
import { clientOperations, createToolServer, engineOperations } from '../../mcp/index.js';
import type { DatabaseOptions } from '../common.js';

export interface Options extends DatabaseOptions {
  org?: string;
  baseUrl?: string;
  apiKey?: string;
}

/**
 * `mcp`: the agent tools over stdio (stdout is the protocol: nothing else is printed there). On a database
 * (`--db`, `--org`) the operator acts with full scope; against a server (`--base-url`, `--api-key`) the key's
 * scope and the server's rules apply. The command line checked that one of the two was given.
 */
export async function mcp(options: Options): Promise<void> {
  let server;
  let close = async () => {};
  if (options.baseUrl) {
    const { createClient } = await import('../../client/index.js');
    const client = createClient({ apiKey: options.apiKey!, baseUrl: options.baseUrl });
    const me = await client.whoami();
    server = createToolServer(clientOperations(client), { scope: me.scope });
  } else {
    const engine = await createEngine({ database: options.db, log: (m, e) => console.error(m, e ?? '') });
    await engine.migrate();
    const org = await engine.organizations.get(options.org!);
    if (!org) {
      await engine.close();
      throw new FeedbackError('ERR_NOT_FOUND', `No organization with id ${options.org}.`);
    }
    server = createToolServer(engineOperations(engine, org.id), { billingState: org.billingState });
    close = () => engine.close();
  }
  server.onclose = () => void close().then(() => process.exit(0));
  await server.connect(new StdioServerTransport());
}
