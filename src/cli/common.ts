import { createEngine, type Engine } from '../engine/index.js';

/** What every command that opens the database was given: `--db` (else DATABASE_URL, else ./feedback.db) and `--json`. */
export interface DatabaseOptions {
  db: string;
  json?: boolean;
}

/** One JSON object with `--json`, else the sentence for people. */
export function print(json: boolean | undefined, value: Record<string, unknown>, human: string): void {
  console.log(json ? JSON.stringify(value) : human);
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
