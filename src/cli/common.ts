import { createEngine, type Engine } from '../engine/index.js';

/** What every command that opens the database was given: `--db` (else DATABASE_URL, else ./feedback.db) and `--json`. */
export interface DatabaseOptions {
  db: string;
  json?: boolean;
}

/** Open the database, migrate it, run `fn`, close. */
export async function withEngine<T>(db: string, fn: (engine: Engine) => Promise<T>): Promise<T> {
  const engine = await createEngine({ database: db });
  try {
    await engine.migrate();
    return await fn(engine);
  } finally {
    await engine.close();
  }
}
