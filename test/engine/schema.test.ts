import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine/index.js';
import { describeEngine } from '../helpers/harness.js';

/** What MikroORM would change to make the database match the entities: nothing, when the two describe one schema. */
async function drift(engine: Engine): Promise<string> {
  const generator = engine.orm.schema as unknown as { getUpdateSchemaSQL(options: { wrap: boolean }): Promise<string> };
  const db = engine.db as unknown as { lendToOrm<T>(fn: () => Promise<T>): Promise<T> };
  return (await db.lendToOrm(() => generator.getUpdateSchemaSQL({ wrap: false }))).trim();
}

describeEngine('the entities and the migrations describe one schema', (h) => {
  it('after migrate(), comparing the database with the entities finds nothing to change', async () => {
    expect(await drift(h.engine)).toBe('');
  });

  it('the comparison sees a difference when there is one (an index the entities do not declare)', async () => {
    await h.engine.db.run('CREATE INDEX drift_probe_idx ON contact (name)');
    try {
      expect(await drift(h.engine)).toMatch(/drift_probe_idx/);
    } finally {
      await h.engine.db.run('DROP INDEX drift_probe_idx');
    }
  });
});

it('a SQLite database made by release 0.1.0, once migrated, has the same schema as a new one', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'feedback-drift-'));
  copyFileSync(join(import.meta.dirname, '../fixtures/sqlite-0.1.0.db'), join(dir, 'old.db'));
  const engine = await createEngine({ database: join(dir, 'old.db'), log: () => {} });
  try {
    await engine.migrate();
    expect(await drift(engine)).toBe('');
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
