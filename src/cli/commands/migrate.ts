import { createEngine } from '../../engine/index.js';
import { print, type DatabaseOptions } from '../common.js';

/** `migrate`: apply pending migrations and name them. */
export async function migrate(options: DatabaseOptions): Promise<void> {
  const engine = await createEngine({ database: options.db });
  try {
    const applied = await engine.migrate();
    print(options.json, { applied }, applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
  } finally {
    await engine.close();
  }
}
