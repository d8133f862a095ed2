import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../src/engine/index.js';
import { parseSearch } from '../../../src/engine/search/index.js';
import { type PostMatch, search } from '../../../src/engine/store/index.js';
import { createTestDatabase, postgresReachable, type TestDatabase } from '../../helpers/databases.js';
import { copyPost } from '../../helpers/posts.js';
import { traceStatements } from '../../helpers/statements.js';

// PostgreSQL: a search of one word in a large workspace ranks the matches of its band (the posts of highest bound),
// and the posts holding two of the words a prefix stands for, instead of every match; when those hold the best page,
// it is the page that ranking every match gives (docs/search.md, "A common word").
describe.skipIf(!(await postgresReachable()))('a common word in a large workspace (PostgreSQL)', () => {
  let database: TestDatabase;
  let engine: Engine;
  let orgId: string;

  /** The statements a ranking runs, and what it finds. */
  async function ranked(q: string, count: number, atMost?: number) {
    const trace = traceStatements(engine.db);
    try {
      const matches = await search.rankedPosts(engine.db, { organizationId: orgId }, parseSearch(q), count, atMost);
      const statements = trace.take();
      return { matches, banded: statements.some((s) => s.includes('s.bound >= ?::real')), statements };
    } finally {
      trace.stop();
    }
  }
  /** The same ranked over every match: the workspace's band taken away for the while. */
  async function rankedFully(q: string, count: number, atMost?: number) {
    const band = await engine.db.all('SELECT * FROM post_search_band WHERE organization_id = ?', [orgId]);
    await engine.db.run('DELETE FROM post_search_band WHERE organization_id = ?', [orgId]);
    try {
      return (await ranked(q, count, atMost)).matches;
    } finally {
      for (const row of band)
        await engine.db.run('INSERT INTO post_search_band (organization_id, bounds) VALUES (?, ?)', [
          row.organization_id,
          row.bounds,
        ]);
    }
  }
  /** The relevances in order, and the posts above the last one's (those tied with it may differ). */
  const page = (matches: PostMatch[]) => {
    const floor = matches.at(-1)?.relevance ?? 0;
    return {
      relevances: matches.map((m) => m.relevance),
      above: matches
        .filter((m) => m.relevance > floor)
        .map((m) => m.postId)
        .sort(),
    };
  };

  beforeAll(async () => {
    database = await createTestDatabase('postgresql');
    engine = await createEngine({ database: database.url, log: () => {} });
    await engine.migrate();
    const org = await engine.organizations.create({ name: 'Band', plan: 'paid' });
    orgId = org.id;
    const w = engine.workspace(org.id);
    const board = await w.boards.create({ name: 'Ideas' });
    const seed = await w.posts.create(board.id, { title: 'seed' });
    // 9,000 posts. Short ones without the word, which fill the band; 200 short ones with "export" (in the band, each
    // ranking as the band's floor); 900 that hold both "export" and "exports" in more words (below the band: a post's
    // bound is one word's best rank), whose rank adds up both words and beats the short ones; 20 of one rare word.
    // And "quux": 30 posts at the band's floor, 100 in the band by another word (four times "lorem") that rank lower
    // by "quux" than 100 outside the band: the band holds too few that rank at its floor, and every match is ranked.
    await copyPost(engine.db, seed.id, 9000, {
      prefix: 'post_band',
      title: `CASE WHEN g % 45 = 0 THEN 'export lorem ' || g
              WHEN g % 10 = 1 THEN 'exports and export alpha beta gamma delta epsilon zeta eta theta ' || g
              WHEN g % 450 = 2 THEN 'zyxwvut ' || g
              WHEN g % 300 = 3 THEN 'quux lorem ' || g
              WHEN g % 90 = 4 THEN 'lorem lorem lorem lorem quux ' || g
              WHEN g % 90 = 5 THEN 'quux alpha beta gamma ' || g
              ELSE 'lorem ipsum ' || g END`,
      bodyText: "''",
    });
    await search.searchChore(engine.db);
  });
  afterAll(async () => {
    await engine?.close();
    await database?.drop();
  });

  it('the chore gives the workspace a band, and the posts their bound', async () => {
    const band = await engine.db.one<{ bounds: number[] }>(
      'SELECT bounds FROM post_search_band WHERE organization_id = ?',
      [orgId],
    );
    // 9,000 posts: a band of 4,000 (one of 32,000 would be more than half of them), above the bound of its last post.
    const fourThousandth = await engine.db.one<{ bound: number }>(
      'SELECT bound FROM post_search WHERE organization_id = ? ORDER BY bound DESC OFFSET 3999 LIMIT 1',
      [orgId],
    );
    expect(band!.bounds.map(Number)).toEqual([Number(fourThousandth!.bound)]);
    // The bound of a post is the best rank one of its words gives it.
    const post = await engine.db.one<{ bound: number; best: number }>(
      `SELECT bound, ts_rank(document, to_tsquery('simple', 'export'), 1) AS best FROM post_search
       WHERE post_id = 'post_band000000000045'`,
    );
    expect(Number(post!.bound)).toBeCloseTo(Number(post!.best), 6);
  });

  it('a prefix standing for two words: the band and the posts holding both give the page that ranking every match gives', async () => {
    const first = await ranked('export', 100);
    expect(first.banded).toBe(true);
    // Ranked on the band alone, the page would be 100 of the 200 short posts; the 900 holding both words rank higher.
    expect(first.matches[0]!.postId).toMatch(/^post_band0+\d*1$/);
    expect(page(first.matches)).toEqual(page(await rankedFully('export', 100)));
    // And the next page, below the first one's last relevance.
    const next = await ranked('export', 100, first.matches.at(-1)!.relevance);
    expect(page(next.matches)).toEqual(page(await rankedFully('export', 100, first.matches.at(-1)!.relevance)));
  });

  it('a word typed whole, and a rare word whose band holds too few: the same as ranking every match', async () => {
    for (const q of ['"lorem"', '"export"', 'zyxwvut', 'lorem', 'quux']) {
      const got = await ranked(q, 100);
      expect(page(got.matches), q).toEqual(page(await rankedFully(q, 100)));
      if (q === '"lorem"' || q === 'quux') expect(got.banded, q).toBe(true);
    }
    expect((await ranked('zyxwvut', 100)).matches).toHaveLength(20);
  });

  it('asks the band of the GIN index, before and after ANALYZE: one index scan, with the bound in its condition', async () => {
    const { statements } = await ranked('"lorem"', 100);
    const text = statements.find((s) => s.includes('s.bound >= ?::real'))!;
    for (const analyzed of [false, true]) {
      if (analyzed) await engine.db.run('ANALYZE post_search');
      const rows = await engine.db.all<Record<string, unknown>>(`EXPLAIN (FORMAT JSON) ${text}`, [
        orgId,
        'lorem',
        orgId,
        0.03,
        orgId,
        'lorem',
        orgId,
        'lorem',
        0.03,
        100,
      ]);
      const plan = JSON.stringify(rows[0]!['QUERY PLAN']);
      expect(plan, `analyzed: ${analyzed}`).toContain('"Index Name":"post_search_document_idx"');
      expect(plan, `analyzed: ${analyzed}`).toMatch(/"Index Cond":"[^"]*bound >=/);
    }
  });
});
