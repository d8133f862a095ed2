import { createEngine } from '../../engine/index.js';
import type { DatabaseOptions } from '../common.js';
import { type Io, print } from '../io.js';

/** `migrate`: apply pending migrations and name them. */
export async function migrate(options: DatabaseOptions, io: Io): Promise<void> {
  // No sealing key needed unless the upgrade that brought sealing has secrets to seal.
  const engine = await createEngine({ database: options.db, secretKeysWhenNeeded: true });
  try {
    const applied = await engine.migrate();
    print(io, options.json, { applied }, applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
  } finally {
    await engine.close();
  }
}
