import { type DatabaseOptions, withEngine } from '../common.js';
import { type Io, print } from '../io.js';

export interface ListOptions extends DatabaseOptions {
  org: string;
}
export interface CreateOptions extends DatabaseOptions {
  org: string;
  scope: 'read' | 'read:write';
}
export type RevokeOptions = DatabaseOptions;

/** `key list`: a workspace's keys, each with its last use; never a key, which exists only as a hash. */
export async function list(options: ListOptions, io: Io): Promise<void> {
  const keys = await withEngine(options.db, (e) => e.keys.list(options.org));
  const lines = keys.map(
    (k) =>
      `${k.id}  ${k.scope.padEnd(10)}  created ${k.createdAt}  last used ${k.lastUsedAt ?? 'never'}${k.revokedAt ? `  revoked ${k.revokedAt}` : ''}`,
  );
  print(io, options.json, { data: keys }, lines.length ? lines.join('\n') : 'No keys.');
}

/** `key create`: the key is printed this once. */
export async function create(options: CreateOptions, io: Io): Promise<void> {
  const key = await withEngine(options.db, (e) => e.keys.create(options.org, options.scope));
  print(io, options.json, { ...key }, `Created key ${key.id} (${key.scope}). It is shown only this once:\n${key.key}`);
}

export async function revoke(keyId: string, options: RevokeOptions, io: Io): Promise<void> {
  const result = await withEngine(options.db, (e) => e.keys.revoke(keyId));
  print(io, options.json, { ...result }, `Revoked key ${result.id}.`);
}
