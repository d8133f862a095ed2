import type { Knex } from '@mikro-orm/knex';
import { createPostgresqlDatabase } from './postgresql/connection.js';
import { commitListeners, type EngineDatabase } from './sql.js';
import { createSqliteDatabase } from './sqlite/connection.js';

/** The explicit-SQL path on the ORM's own connections, for the database the engine opened. */
export function createDatabase(
  dialect: 'sqlite' | 'postgresql',
  knex: Knex,
  options: { location: string; log: (message: string) => void; answerMs: number },
): EngineDatabase {
  const client = (knex as unknown as { client: Parameters<typeof createPostgresqlDatabase>[0] }).client;
  return dialect === 'sqlite'
    ? createSqliteDatabase(client, commitListeners(), { file: options.location, log: options.log })
    : createPostgresqlDatabase(client, commitListeners(), { answerMs: options.answerMs });
}
