import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../src/engine/index.js';
import { search } from '../../../src/engine/store/index.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/databases.js';

// SQLite: every flush of what waits to be indexed adds a segment to FTS5's index, and a term is looked up in each. The
// search chore merges them into one or two, a few pages a step within its time budget, going on where its last run
// stopped.
describe("the search chore merges SQLite's index segments", () => {
  let database: TestDatabase;
  let engine: Engine;
  let orgId: string;
  const searched = async (q: string) =>
    (await engine.workspace(orgId).triage.list({ q, limit: 100 })).data.map((p) => p.id);
  const queries = ['dashboard', 'dashbord', 'export', 'exporting', 'single', 'cs'];

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    engine = await createEngine({ database: database.url, log: () => {} });
    await engine.migrate();
    const org = await engine.organizations.create({ name: 'Segments', plan: 'paid' });
    orgId = org.id;
    const w = engine.workspace(org.id);
    const board = await w.boards.create({ name: 'Ideas' });
    const words = ['dashboard', 'export', 'single', 'sign', 'csv', 'filters', 'reports', 'dark', 'mode', 'mobile'];
    // A bulk load in small: FTS5 writes a segment each time the terms it gathers pass `hashsize` (1 MB unless set), so
    // with 64 kB a flush of these 1,000 posts leaves many segments, on few levels, as 100,000 posts do with 1 MB.
    await engine.db.run("INSERT INTO post_search (post_search, rank) VALUES ('hashsize', 65536)");
    for (let i = 0; i < 1000; i++)
      await w.posts.create(board.id, {
        title: `${words[i % 10]} ${words[(i * 7 + 3) % 10]} ${i}`,
        body: {
          json: {},
          text: `${words[(i * 3 + 1) % 10]} ${Array.from({ length: 60 }, (_, k) => `w${i}x${k}`).join(' ')}`,
        },
      });
    await search.indexPending(engine.db);
  });
  afterAll(async () => {
    await engine?.close();
    await database?.drop();
  });

  it('merges them in steps, over more than one run, to one or two, finding what it found before at every step', async () => {
    const before = await Promise.all(queries.map(searched));
    expect(before.every((ids) => ids.length > 0)).toBe(true);
    const segments = [await search.segmentsOf(engine.db)];
    // A budget of nothing: one step a run, so the merge takes several runs, each going on where the last stopped.
    for (let runs = 0; ; runs++) {
      expect(runs).toBeLessThan(500);
      const was = await search.indexStructure(engine.db);
      await search.searchChore(engine.db, 0);
      if ((await search.indexStructure(engine.db)) === was) break;
      segments.push(await search.segmentsOf(engine.db));
      expect(await Promise.all(queries.map(searched))).toEqual(before);
    }
    expect(segments[0]).toBeGreaterThan(8);
    expect(segments.length).toBeGreaterThan(2);
    expect(segments.at(-1)).toBeLessThanOrEqual(2);
  });
});
