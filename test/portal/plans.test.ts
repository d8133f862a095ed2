import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine/index.js';
import { newId } from '../../src/engine/shared/ids.js';
import { createTestDatabase, postgresReachable, type TestDatabase } from '../helpers/databases.js';

// A freshly loaded workspace, as a new self-hoster has it: PostgreSQL has no statistics until autovacuum (or an
// ANALYZE) gathers them, and the board pages must not depend on them (issue 30: 30 ms a page at 30,000 posts before
// an ANALYZE, 0.6 ms after). Each sort walks an index in its order and stops at the page; no sort node.
describe.skipIf(!(await postgresReachable()))('PostgreSQL board pages before any statistics', () => {
  let db: TestDatabase;
  let engine: Engine;
  let boardId: string;
  beforeAll(async () => {
    db = await createTestDatabase('postgresql');
    engine = await createEngine({ database: db.url, log: () => {} });
    await engine.migrate();
    const org = await engine.organizations.create({ name: 'Fresh', plan: 'paid' });
    boardId = (await engine.workspace(org.id).boards.create({ name: 'Ideas' })).id;
    const now = new Date().toISOString();
    for (let s = 0; s < 20_000; s += 500) {
      const rows = Array.from({ length: 500 }, (_, k) => [
        newId('post'),
        org.id,
        boardId,
        `Idea ${s + k}`,
        `idea-${s + k}`,
        '',
        '',
        'open',
        'approved',
        0,
        (s + k) % 97,
        now,
        now,
      ]);
      await engine.db.run(
        `INSERT INTO post (id, organization_id, board_id, title, slug, body, body_text, status, moderation_status, comment_count, vote_count, created_at, updated_at) VALUES ${rows.map(() => '(?,?,?,?,?,?,?,?,?,?,?,?,?)').join(',')}`,
        rows.flat(),
      );
    }
  });
  afterAll(async () => {
    await engine.close();
    await db.drop();
  });

  it('Top and New walk an index in their order, without statistics', async () => {
    const analyzed = await engine.db.one<{ last_analyze: unknown; last_autoanalyze: unknown }>(
      "SELECT last_analyze, last_autoanalyze FROM pg_stat_user_tables WHERE relname = 'post'",
    );
    expect(analyzed).toEqual({ last_analyze: null, last_autoanalyze: null });
    for (const [order, index] of [
      ['p.vote_count DESC, p.id DESC', 'post_board_shown_votes_idx'],
      ['p.created_at DESC, p.id DESC', 'post_board_shown_created_idx'],
    ]) {
      const [{ 'QUERY PLAN': plan }] = (await engine.db.all(
        `EXPLAIN (FORMAT JSON) SELECT p.id, p.title, p.vote_count FROM post p WHERE p.board_id = ? AND p.deleted_at IS NULL AND p.moderation_status = 'approved' AND p.merged_into_id IS NULL ORDER BY ${order} LIMIT 51`,
        [boardId],
      )) as Array<{ 'QUERY PLAN': unknown }>;
      const text = JSON.stringify(plan);
      expect(text, order).not.toContain('"Node Type":"Sort"');
      expect(text, order).toContain(`"Index Name":"${index}"`);
    }
  });
});
