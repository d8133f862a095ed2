import { createEngine, type Engine } from '../engine/index.js';

/** `--db`: every command that opens the database takes it. */
export const DB_FLAG = { db: { type: 'string' } } as const;

/** The database: `--db`, else DATABASE_URL, else the embedded SQLite default. */
export function databaseOf(flag: string | undefined): string {
  return flag ?? process.env.DATABASE_URL ?? './feedback.db';
}

/** One JSON object with `--json`, else the sentence for people. */
export function print(json: boolean | undefined, value: Record<string, unknown>, human: string): void {
  console.log(json ? JSON.stringify(value) : human);
}

/** Open the database, migrate it, run `fn`, close. */
export async function withEngine<T>(db: string | undefined, fn: (engine: Engine) => Promise<T>): Promise<T> {
  const engine = await createEngine({ database: databaseOf(db) });
  try {
    await engine.migrate();
    return await fn(engine);
  } finally {
    await engine.close();
  }
}
