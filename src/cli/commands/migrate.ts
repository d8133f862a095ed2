import { createEngine } from '../../engine/index.js';
import type { DatabaseOptions } from '../common.js';
import { print, type Io } from '../io.js';

/** `migrate`: apply pending migrations and name them. */
export async function migrate(options: DatabaseOptions, io: Io): Promise<void> {
  const engine = await createEngine({ database: options.db });
  try {
    const applied = await engine.migrate();
    print(io, options.json, { applied }, applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
  } finally {
    await engine.close();
  }
}
