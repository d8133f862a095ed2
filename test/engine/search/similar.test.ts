import { describe, expect, it } from 'vitest';
import { before, labelled, measure, scorer } from '../../../scripts/duplicates.js';
import { DUPLICATE_THRESHOLD } from '../../../src/engine/search/index.js';
import { describeEngine } from '../../helpers/harness.js';

// Possible duplicates (issue 52): the similarity beats 0.2.0's on the labelled set (test/fixtures/search/duplicates.json,
// scripts/duplicates.ts), and the portal's "similar posts" find the obvious one while a title is typed.

describe('the similarity on the labelled set', () => {
  it("beats 0.2.0's at its chosen threshold: better F1 than either of its settings, and a usable precision and recall", () => {
    const set = labelled();
    expect(set.same.length + set.different.length).toBeGreaterThanOrEqual(200);
    const now = measure(set, scorer(set), DUPLICATE_THRESHOLD);
    const then = Math.max(measure(set, before, 1).f1, measure(set, before, 2).f1);
    expect(now.f1).toBeGreaterThan(then + 0.05);
    expect(now.precision).toBeGreaterThanOrEqual(0.75);
    expect(now.recall).toBeGreaterThanOrEqual(0.65);
  });
});

describeEngine('similar posts while a title is typed', (h) => {
  it('finds the obvious one among many that share a word, typed whole, in part, or with a typo; not the unrelated', async () => {
    const org = await h.engine.organizations.create({ name: 'Similar', plan: 'paid' });
    const w = h.engine.workspace(org.id);
    const board = await w.boards.create({ name: 'Ideas' });
    for (let i = 0; i < 30; i++) await w.posts.create(board.id, { title: `Dashboard widget number ${i}` });
    for (const title of ['Dark mode for dashboard', 'Export to CSV', 'Slack notifications', 'Presentation mode'])
      await w.posts.create(board.id, { title });
    const similar = async (title: string) => (await w.portal.similar(board.id, title)).map((p) => p.title);
    expect((await similar('Dark mode dashboard export'))[0]).toBe('Dark mode for dashboard');
    expect((await similar('Dark mode dashb'))[0]).toBe('Dark mode for dashboard');
    expect((await similar('Dark mdoe for the dashbord'))[0]).toBe('Dark mode for dashboard');
    expect(await similar('Night mode, please')).toContain('Dark mode for dashboard');
    expect(await similar('Invoices in PDF')).toEqual([]);
    expect(await similar('Slack notifications')).toEqual(['Slack notifications']);
  });
});
