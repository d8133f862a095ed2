// The portal's pages against an earlier checkout's, in one process, taking turns (issue 53: what languages cost a
// page). A board of 61 posts (its first page of 50) and a post with 500 comments, each by its own name, with an
// Accept-Language header; medians of 40 rounds of 10 requests each side, the side that goes first alternating.
// Run: BENCH_BASE=/path/to/older/checkout npx tsx bench/languages-ab.mts
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { takingTurns } from './measure.js';

async function stand(root: string) {
  const { createEngine } = await import(`${root}/src/engine/index.ts`);
  const { createApp } = await import(`${root}/src/h3/index.ts`);
  const { createPortal } = await import(`${root}/src/portal/index.ts`);
  const { insertThread } = await import(`${root}/bench/measure.ts`);
  const commentsStore = await import(`${root}/src/engine/store/tables/comments.ts`);
  const engine = await createEngine({ log: () => {}, database: join(mkdtempSync(join(tmpdir(), 'ab-')), 'x.db') });
  await engine.migrate();
  const org = await engine.organizations.create({ name: 'Bench', plan: 'paid' });
  await engine.organizations.update(org.id, { handle: 'bench', portalEnabled: true });
  const w = engine.workspace(org.id);
  const board = await w.boards.create({ name: 'Ideas' });
  for (let i = 0; i < 60; i++) await w.posts.create(board.id, { title: `Post number ${i}` });
  const post = await w.posts.create(board.id, { title: 'Thread' });
  await insertThread(engine, commentsStore, org.id, post.id, 500, 500);
  const app = createApp({ engine, logError: () => {}, sites: [createPortal({ engine })] });
  return {
    app,
    board: `http://x/portal/bench/b/${board.slug}`,
    post: `http://x/portal/bench/b/${board.slug}/p/${post.slug}`,
  };
}
// BENCH_BASE: a checkout of the commit to compare with (its node_modules beside it), e.g.
//   git worktree add /tmp/base 5c0e61a && ln -s "$PWD/node_modules" /tmp/base/node_modules
const base = process.env.BENCH_BASE;
if (!base) throw new Error('Set BENCH_BASE to a checkout of the commit to compare with');
const a = await stand(base);
const b = await stand(join(import.meta.dirname, '..'));
const get = async (app: any, url: string) =>
  (await app.fetch(new Request(url, { headers: { 'accept-language': 'en-US,en;q=0.9' } }))).text();
for (const which of ['board', 'post'] as const) {
  const med = await takingTurns(40, async (side) => {
    const s = side === 'old' ? a : b;
    const t0 = performance.now();
    for (let i = 0; i < 10; i++) await get(s.app, s[which]);
    return (performance.now() - t0) / 10;
  });
  console.log(which, 'old', med.old.toFixed(3), 'new', med.new.toFixed(3), 'ratio', (med.new / med.old).toFixed(2));
}
process.exit(0);
