import { createEngine, type Engine } from '../engine/index.js';

/** What every command that opens the database was given: `--db` (else DATABASE_URL, else ./feedback.db) and `--json`. */
export interface DatabaseOptions {
  db: string;
  json?: boolean;
}

/** Open the database, migrate it, run `fn`, close. `publicUrl`: the server's address, for links the command prints. */
export async function withEngine<T>(db: string, fn: (engine: Engine) => Promise<T>, publicUrl?: string): Promise<T> {
  const engine = await createEngine({ database: db, ...(publicUrl ? { mail: { publicUrl } } : {}) });
  try {
    await engine.migrate();
    return await fn(engine);
  } finally {
    await engine.close();
  }
}
