// npm run bench:compare -- REF [PAGE...]: the server time of pages at an earlier commit and now, in one process,
// turn about, so the machine's mood is the same for both (a run-to-run drift of 30 % on this machine hides what a
// change did; a ratio measured this way does not). REF is checked out in a worktree beside this one and uses this
// checkout's node_modules; each side seeds its own database through its own code (its engine and comments table; the
// bulk rows by this checkout's helpers, whose columns both sides have).
//
// Pages: portal-post (a post with 500 comments, 40 names), portal-board, console-roadmap, console-posts (100,000 posts
// on one board, in every status). Writes, for what indexes cost: write-identify (a new contact with revenue),
// write-post (a post filed by the team), write-vote (an end-user's vote, a new contact each time), each through the
// engine's own call. BENCH_COMPARE_PG=1 measures on PostgreSQL too.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { dropPg, freshPg } from './databases.js';
import { insertPosts, insertThread, quantile } from './measure.js';

const here = resolve(import.meta.dirname, '..');
const [ref, ...asked] = process.argv.slice(2);
if (!ref)
  throw new Error(
    'usage: npm run bench:compare -- REF [portal-post portal-board console-roadmap console-posts write-identify write-post write-vote]',
  );
const PAGES = asked.length
  ? asked
  : ['portal-post', 'portal-board', 'console-roadmap', 'console-posts', 'write-identify', 'write-post', 'write-vote'];
const POSTS = Number(process.env.BENCH_COMPARE_POSTS ?? 100_000);
const ROUNDS = 8;
const PER_ROUND = 25;

const STATUSES = ['open', 'open', 'open', 'open', 'open', 'open', 'open', 'planned', 'in_progress', 'shipped'];

/** One side: a tree of the code (this checkout, or REF's worktree), seeded, answering GETs of the pages. */
async function side(root: string, database: string) {
  const load = (path: string) => import(join(root, path));
  const { createEngine, CLI_ACTOR } = await load('src/engine/index.ts');
  const { newId } = await load('src/engine/shared/ids.ts');
  const { ts } = await load('src/engine/store/sql.ts');
  const commentsStore = await load('src/engine/store/tables/comments.ts');
  const { createApp } = await load('src/h3/index.ts');
  const { createPortal } = await load('src/portal/index.ts');
  const { createConsole } = await load('src/console/index.ts');
  const engine = await createEngine({ database, log: () => {} });
  await engine.migrate();
  const org = await engine.organizations.create({ name: 'Bench', plan: 'paid' });
  await engine.organizations.update(org.id, { handle: 'bench', portalEnabled: true });
  const w = engine.workspace(org.id);
  const board = await w.boards.create({ name: 'Ideas' });
  const start = Date.now() - 365 * 24 * 3600_000;
  const at = (i: number) => ts(engine.db, new Date(start + Math.floor((i / POSTS) * 365 * 24 * 3600_000)));
  await insertPosts(engine, POSTS, (i) => ({
    id: newId('post'),
    organizationId: org.id,
    boardId: board.id,
    title: `Idea number ${i}`,
    slug: `p-${i}`,
    status: STATUSES[(i * 7) % 10]!,
    voteCount: (i * 7919) % 1000,
    at: at(i),
  }));
  const discussed = await w.posts.create(board.id, { title: 'A much discussed idea' });
  await insertThread(engine, commentsStore, org.id, discussed.id, 500, 40);
  if (engine.dialect === 'postgresql') await engine.db.run('ANALYZE');
  const { signIn } = await w.team.add(
    CLI_ACTOR,
    { email: 'pm@bench.example', role: 'owner' },
    { invite: false, workspace: 'Bench' },
  );
  const session = await engine.team.redeem({ token: signIn.token });
  const app = createApp({ engine, sites: [createPortal({ engine }), createConsole({ engine })], logError: () => {} });
  const paths: Record<string, string> = {
    'portal-post': `/portal/bench/b/${board.slug}/p/${discussed.slug}`,
    'portal-board': `/portal/bench/b/${board.slug}`,
    'console-roadmap': `/console/${org.id}/roadmap`,
    'console-posts': `/console/${org.id}/posts`,
  };
  let n = 0;
  const writes: Record<string, () => Promise<unknown>> = {
    'write-identify': () =>
      w.contacts.identify({
        externalUserId: `w${++n}`,
        email: `w${n}@bench.example`,
        mrrCents: n * 100,
        currency: 'USD',
      }),
    'write-post': () => w.posts.create(board.id, { title: `Written ${++n}` }),
    'write-vote': () =>
      w.participation.vote({ postId: discussed.id, email: `v${++n}@bench.example`, notifyMe: false, vouched: true }),
  };
  return {
    engine,
    async get(page: string): Promise<number> {
      const write = writes[page];
      if (write) {
        await write();
        return 0;
      }
      const res = await app.fetch(
        new Request(`http://bench.test${paths[page]}`, { headers: { cookie: `fs_console=${session.token}` } }),
      );
      const bytes = (await res.arrayBuffer()).byteLength;
      if (res.status !== 200) throw new Error(`${page}: ${res.status}`);
      return bytes;
    },
  };
}

type Side = Awaited<ReturnType<typeof side>>;

const size = (bytes: number) => (bytes ? ` (${(bytes / 1024).toFixed(0)} KB)` : '');

/** Both sides' p50 of `page`, measured in rounds taken in turn. */
async function compare(before: Side, after: Side, page: string) {
  const times: [number[], number[]] = [[], []];
  const round = async (s: Side, into?: number[]) => {
    for (let i = 0; i < PER_ROUND; i++) {
      const t = performance.now();
      await s.get(page);
      into?.push(performance.now() - t);
    }
  };
  await round(before);
  await round(after);
  for (let r = 0; r < ROUNDS; r++) {
    await round(before, times[0]);
    await round(after, times[1]);
  }
  const [a, b] = times.map((t) => quantile(t, 0.5)) as [number, number];
  const [bytesA, bytesB] = [await before.get(page), await after.get(page)];
  console.log(
    `  ${page.padEnd(16)} ${ref} p50 ${a.toFixed(2)} ms${size(bytesA)}  now ${b.toFixed(2)} ms${size(bytesB)}  ratio ${(b / a).toFixed(2)}`,
  );
}

const tree = mkdtempSync(join(tmpdir(), 'bench-compare-'));
const dir = mkdtempSync(join(tmpdir(), 'bench-compare-db-'));
execFileSync('git', ['worktree', 'add', '--detach', '--force', tree, ref], { cwd: here, stdio: 'ignore' });
try {
  if (!existsSync(join(tree, 'node_modules'))) symlinkSync(join(here, 'node_modules'), join(tree, 'node_modules'));
  const databases: Array<[string, () => Promise<[string, string]>, () => Promise<void>]> = [
    ['SQLite', async () => [join(dir, 'before.db'), join(dir, 'after.db')], async () => {}],
  ];
  if (process.env.BENCH_COMPARE_PG)
    databases.push([
      'PostgreSQL',
      async () => [await freshPg('bench_compare_before'), await freshPg('bench_compare_after')],
      async () => {
        await dropPg('bench_compare_before');
        await dropPg('bench_compare_after');
      },
    ]);
  for (const [label, make, drop] of databases) {
    const [a, b] = await make();
    const before = await side(tree, a);
    const after = await side(here, b);
    console.log(`${label}, ${POSTS.toLocaleString('en')} posts:`);
    try {
      for (const page of PAGES) await compare(before, after, page);
    } finally {
      await before.engine.close();
      await after.engine.close();
      await drop();
    }
  }
} finally {
  execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: here, stdio: 'ignore' });
  rmSync(dir, { recursive: true, force: true });
}
