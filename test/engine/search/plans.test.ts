import { describe, expect, it } from 'vitest';
import { createEngine } from '../../../src/engine/index.js';
import { portalPages, posts, type Sql, triage } from '../../../src/engine/store/index.js';
import { createTestDatabase, postgresReachable } from '../../helpers/databases.js';
import { copyPost } from '../../helpers/posts.js';

// A search's best matches are read by id, and so are the API's posts and the titles a page names. On a table PostgreSQL has never analyzed (right after a bulk load, before
// autovacuum, or where it is off), `id IN (ids)` was planned as a loop over every post for each id (a Join Filter):
// 5 s for 4,000 ids of 30,000 posts. Each id is now one primary-key probe, whatever the statistics say.

/** The statement a read runs, caught instead of run. */
async function statementOf(
  db: Sql,
  read: (sql: Sql) => Promise<unknown>,
): Promise<{ text: string; params: unknown[] }> {
  let caught: { text: string; params: unknown[] } | undefined;
  const catching = new Proxy(db, {
    get: (target, key) =>
      key === 'all'
        ? async (text: string, params: unknown[] = []) => {
            caught = { text, params };
            return [];
          }
        : Reflect.get(target, key),
  });
  await read(catching);
  return caught!;
}

describe.skipIf(!(await postgresReachable()))('reading matches by id, on a table never analyzed (PostgreSQL)', () => {
  it('probes the primary key once per id: no loop over the posts, before and after ANALYZE', async () => {
    const database = await createTestDatabase('postgresql');
    const engine = await createEngine({ database: database.url, log: () => {} });
    try {
      await engine.migrate();
      const org = await engine.organizations.create({ name: 'Plans', plan: 'paid' });
      const w = engine.workspace(org.id);
      const board = await w.boards.create({ name: 'Ideas' });
      const seed = await w.posts.create(board.id, { title: 'seed' });
      await copyPost(engine.db, seed.id, 3000, { prefix: 'post_plan', title: "'export ' || g" });
      const ids = Array.from({ length: 400 }, (_, i) => `post_plan${String(i * 7 + 1).padStart(12, '0')}`);
      const reads = {
        portal: (sql: Sql) => portalPages.shownByIds(sql, ids, {}),
        console: (sql: Sql) => triage.byIds(sql, ids, { boardId: board.id }),
        api: (sql: Sql) => posts.findLiveMany(sql, org.id, ids),
        titles: (sql: Sql) => triage.titles(sql, org.id, ids),
      };
      const plan = async (read: (sql: Sql) => Promise<unknown>) => {
        const { text, params } = await statementOf(engine.db, read);
        const rows = await engine.db.all<Record<string, unknown>>(`EXPLAIN (FORMAT JSON) ${text}`, params);
        return JSON.stringify(rows[0]!['QUERY PLAN']);
      };
      for (const analyzed of [false, true]) {
        if (analyzed) await engine.db.run('ANALYZE post');
        else {
          const stats = await engine.db.one<{ n: unknown }>(
            "SELECT count(*) AS n FROM pg_stats WHERE tablename = 'post' AND schemaname = current_schema()",
          );
          expect(Number(stats!.n), 'the table has no statistics yet').toBe(0);
        }
        for (const [name, read] of Object.entries(reads)) {
          const json = await plan(read);
          expect(json, `${name}, analyzed: ${analyzed}`).toContain('"Index Name":"post_pkey"');
          expect(json, `${name}, analyzed: ${analyzed}`).not.toMatch(/"Join Filter":"[^"]*\bid\b/);
        }
        // And the reads find what they are asked for.
        expect(await reads.portal(engine.db)).toHaveLength(400);
        expect(await reads.console(engine.db)).toHaveLength(400);
        expect(await reads.api(engine.db)).toHaveLength(400);
        expect((await reads.titles(engine.db)).size).toBe(400);
      }
    } finally {
      await engine.close();
      await database.drop();
    }
  });
});
