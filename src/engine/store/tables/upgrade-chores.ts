import { defineEntity, p } from '@mikro-orm/core';
import type { Sql } from '../sql.js';

/**
 * Work a migration leaves to the engine's code, because it writes events as the engine does (merging one person's
 * contacts and votes: `merge_people`). The migration adds the row; `migrate()` does the chore and removes the row in
 * the chore's last transaction, so a process that dies midway leaves it for the next `migrate()`.
 */
export const UpgradeChore = defineEntity({
  name: 'UpgradeChore',
  tableName: 'upgrade_chore',
  properties: {
    name: p.string().primary().length(40),
  },
});

/** The chores waiting, by name. */
export async function pending(sql: Sql): Promise<string[]> {
  return (await sql.all<{ name: string }>('SELECT name FROM upgrade_chore ORDER BY name')).map((r) => r.name);
}

/** A chore is done. */
export async function done(sql: Sql, name: string): Promise<void> {
  await sql.run('DELETE FROM upgrade_chore WHERE name = ?', [name]);
}
