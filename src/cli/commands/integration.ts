import { CLI_ACTOR } from '../../engine/index.js';
import { type DatabaseOptions, withEngine } from '../common.js';
import { type Io, print } from '../io.js';

export interface Options extends DatabaseOptions {
  org: string;
}

/** `integration list`: a workspace's connections; never a credential, which is kept sealed. */
export async function list(options: Options, io: Io): Promise<void> {
  const page = await withEngine(options.db, (e) => e.workspace(options.org).integrations.list({ limit: 100 }));
  const lines = page.data.map(
    (i) =>
      `${i.id}  ${i.service.padEnd(6)}  ${i.auth.padEnd(16)}  ${i.account ?? '-'}  ${i.status}${i.lastError ? `  last error: ${i.lastError}` : ''}`,
  );
  print(io, options.json, page, lines.length ? lines.join('\n') : 'No integrations.');
}

/** `integration remove`: as the console's Disconnect, audited as done by the command line. */
export async function remove(integrationId: string, options: Options, io: Io): Promise<void> {
  const result = await withEngine(options.db, (e) =>
    e.workspace(options.org).as(CLI_ACTOR).integrations.disconnect(integrationId),
  );
  print(io, options.json, result, `Removed integration ${result.id}.`);
}
