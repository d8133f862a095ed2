import { parseFlags } from '../args.js';
import { DB_FLAG, databaseOf, print } from '../common.js';
import { createEngine } from '../../engine/index.js';

export async function run(argv: string[]): Promise<void> {
  const { values } = parseFlags(argv, DB_FLAG);
  const engine = await createEngine({ database: databaseOf(values.db) });
  try {
    const applied = await engine.migrate();
    print(values.json, { applied }, applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
  } finally {
    await engine.close();
  }
}
