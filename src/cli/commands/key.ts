import { UsageError, parseFlags, subcommandError } from '../args.js';
import { DB_FLAG, print, withEngine } from '../common.js';

export async function run([sub, ...rest]: string[]): Promise<void> {
  const { values, positionals } = parseFlags(rest, { ...DB_FLAG, org: { type: 'string' }, scope: { type: 'string' } });
  if (sub === 'list') {
    if (!values.org) throw new UsageError('key list needs --org');
    const keys = await withEngine(values.db, (e) => e.keys.list(values.org!));
    const lines = keys.map(
      (k) => `${k.id}  ${k.scope.padEnd(10)}  created ${k.createdAt}  last used ${k.lastUsedAt ?? 'never'}${k.revokedAt ? `  revoked ${k.revokedAt}` : ''}`,
    );
    print(values.json, { data: keys }, lines.length ? lines.join('\n') : 'No keys.');
    return;
  }
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
  throw subcommandError('key', sub, ['list', 'create', 'revoke']);
}
