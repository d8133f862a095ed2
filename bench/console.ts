// npm run bench (console part): the console's posts page sorted by impact (the monthly revenue of each post's paying
// voters) at 100,000 posts, 1,000,000 votes and 1,000,000 contacts on SQLite and PostgreSQL, as server time through
// app.fetch, against the same ranking added up from the votes at each request (what the page would cost without the
// kept post_impact table), measured in the same run; and the posts page's first load in bytes. Then, on the same
// databases, every other page of the console (part 2): roadmap, changelog, contacts (by revenue, newest, last seen,
// next page, a plan, a search), a contact's page, webhooks with their delivery log, keys and settings, against the
// contacts page's own query run bare (the database's share) in the same run.
// Sizes: BENCH_CONSOLE_POSTS (default 100000) posts, BENCH_CONSOLE_PEOPLE (default 1000000) contacts and votes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConsole } from '../src/console/index.js';
import { CLI_ACTOR, createEngine, type Engine } from '../src/engine/index.js';
import { IMPACT_RECOUNT } from '../src/engine/migrations/Migration20261209000000CompanyImpact.js';
import { hashEmail } from '../src/engine/shared/email.js';
import { newId } from '../src/engine/shared/ids.js';
import { search, ts } from '../src/engine/store/index.js';
import { createApp } from '../src/h3/index.js';
import { dropPg, freshPg } from './databases.js';
import { writeSection } from './doc.js';
import { f, firstVisit, insertMany, insertPosts, timed as timedRuns } from './measure.js';

const POSTS = Number(process.env.BENCH_CONSOLE_POSTS ?? 100_000);
const PEOPLE = Number(process.env.BENCH_CONSOLE_PEOPLE ?? 1_000_000);
const COMPANIES = Number(process.env.BENCH_CONSOLE_COMPANIES ?? 100_000);
const RUNS = Number(process.env.BENCH_CONSOLE_RUNS ?? 100);
const BOARDS = 10;
const STATUSES = ['open', 'open', 'open', 'open', 'open', 'open', 'open', 'planned', 'in_progress', 'shipped'] as const;

/** `fn(i)` RUNS times (or `runs`) after 10 warm-ups. */
const timed = (fn: (i: number) => Promise<unknown>, runs = RUNS) => timedRuns(fn, runs);

/**
 * A workspace as a busy SaaS has it: POSTS posts over BOARDS boards; PEOPLE contacts, a third of them paying (most in
 * USD, some in EUR and GBP, revenue skewed: many small accounts, a few large); each contact votes once, on a post
 * drawn with a skew (a few posts gather most votes), with their address's hash; a post with votes was written by one
 * of its voters. Votes go in before contacts, so the impact triggers find no
 * contact yet; the impact is then built the way the migration builds it from existing votes.
 */
async function seed(engine: Engine) {
  // Its keys' budget is out of the way: the API's list is measured with one key, a few hundred requests a minute.
  const org = await engine.organizations.create({ name: 'Bench', plan: 'paid', rateLimit: 1_000_000_000 });
  const w = engine.workspace(org.id);
  const boards: string[] = [];
  for (let b = 0; b < BOARDS; b++) boards.push((await w.boards.create({ name: `Board ${b}` })).id);
  const start = Date.now() - 365 * 24 * 3600_000;
  const at = (i: number, n: number) => ts(engine.db, new Date(start + Math.floor((i / n) * 365 * 24 * 3600_000)));
  const postIds = Array.from({ length: POSTS }, () => newId('post'));
  const votedOn = (i: number) => Math.floor(POSTS * ((i * 0.6180339887) % 1) ** 3);
  const counts = new Array<number>(POSTS).fill(0);
  for (let i = 0; i < PEOPLE; i++) counts[votedOn(i)]!++;
  await insertPosts(engine, POSTS, (i) => ({
    id: postIds[i]!,
    organizationId: org.id,
    boardId: boards[i % BOARDS]!,
    title: `Idea number ${i}`,
    slug: `p-${i}`,
    status: STATUSES[(i * 7) % 10]!,
    voteCount: counts[i]!,
    at: at(i, POSTS),
  }));
  const contactIds = Array.from({ length: PEOPLE }, () => newId('ctc'));
  const emailOf = (i: number) => `person${i}@example${i % 97}.com`;
  await insertMany(
    engine,
    'vote',
    ['id', 'organization_id', 'post_id', 'user_id', 'email_hash', 'voter_key', 'contact_id', 'created_at'],
    // Each vote carries its voter's address hash, as the portal's votes do.
    (i) => [
      newId('vote'),
      org.id,
      postIds[votedOn(i)],
      `u-${i}`,
      hashEmail(emailOf(i)),
      `u:u-${i}`,
      contactIds[i],
      at(i, PEOPLE),
    ],
    PEOPLE,
  );
  const paying = (i: number) => i % 3 === 0;
  const currency = (i: number) => (i % 20 === 0 ? 'EUR' : i % 51 === 0 ? 'GBP' : 'USD');
  const mrr = (i: number) => Math.round(900 + 200_000 * ((i * 0.7548776662) % 1) ** 6);
  await insertMany(
    engine,
    'contact',
    [
      'id',
      'organization_id',
      'external_user_id',
      'email',
      'name',
      'plan',
      'mrr_cents',
      'currency',
      'metadata',
      'source',
      'consent_basis',
      'first_seen_at',
      'last_seen_at',
      'created_at',
      'updated_at',
    ],
    (i) => [
      contactIds[i],
      org.id,
      `u-${i}`,
      emailOf(i),
      `Person ${i}`,
      paying(i) ? 'pro' : 'free',
      paying(i) ? mrr(i) : 0,
      paying(i) ? currency(i) : null,
      '{}',
      'identify',
      'sdk_identify',
      at(i, PEOPLE),
      at(i, PEOPLE),
      at(i, PEOPLE),
      at(i, PEOPLE),
    ],
    PEOPLE,
  );
  // Companies: most contacts belong to one (three in four; about 7.5 people a company), a few companies pay a lot.
  const companyIds = Array.from({ length: COMPANIES }, () => newId('com'));
  await insertMany(
    engine,
    'company',
    [
      'id',
      'organization_id',
      'external_company_id',
      'name',
      'domain',
      'plan',
      'mrr_cents',
      'currency',
      'metadata',
      'created_at',
      'updated_at',
    ],
    (i) => [
      companyIds[i],
      org.id,
      `acct-${i}`,
      `Company ${i}`,
      `company${i}.example`,
      i % 3 === 0 ? 'enterprise' : 'team',
      Math.round(5_000 + 2_000_000 * ((i * 0.7548776662) % 1) ** 6),
      i % 20 === 0 ? 'EUR' : 'USD',
      '{}',
      at(i, COMPANIES),
      at(i, COMPANIES),
    ],
    COMPANIES,
  );
  const members = Array.from({ length: PEOPLE }, (_, i) => i).filter((i) => i % 4 !== 0);
  await insertMany(
    engine,
    'company_member',
    ['contact_id', 'company_id'],
    (n) => [contactIds[members[n]!], companyIds[members[n]! % COMPANIES]],
    members.length,
  );
  // The impact, built as the migration builds it from what a database holds (the triggers' work while loading is
  // set aside: votes went in before their contacts, memberships after).
  if (engine.dialect === 'postgresql') await engine.db.run('TRUNCATE post_payer, post_impact');
  else {
    await engine.db.run('DELETE FROM post_impact');
    await engine.db.run('DELETE FROM post_payer');
  }
  const recount = IMPACT_RECOUNT[engine.dialect === 'postgresql' ? 'postgresql' : 'sqlite'];
  await engine.db.run(recount.payers);
  // The payers' insert trigger made part of it on the way; the recount makes all of it.
  await engine.db.run(engine.dialect === 'postgresql' ? 'TRUNCATE post_impact' : 'DELETE FROM post_impact');
  await engine.db.run(recount.impact);
  // A post with votes was written by one of its voters (a contact): posts have authors, as on a portal.
  await engine.db.run(
    `UPDATE post SET contact_id = a.contact_id
     FROM (SELECT post_id, MIN(contact_id) AS contact_id FROM vote WHERE organization_id = ? GROUP BY post_id) a WHERE a.post_id = post.id`,
    [org.id],
  );
  // As the scheduler's search chore does within a minute of a bulk load (PostgreSQL: list the new posts' words).
  await search.searchChore(engine.db);
  await engine.db.run('ANALYZE');
  return { org, w, boards, top: postIds[counts.indexOf(Math.max(...counts))]!, topVotes: Math.max(...counts) };
}

/** The same ranking added up from the votes and memberships at each request: what the impact sort costs without post_impact. */
function addedUp(engine: Engine, organizationId: string) {
  return engine.db.all(
    `SELECT x.post_id, SUM(x.mrr) AS mrr FROM (
       SELECT DISTINCT v.post_id, co.id AS payer, co.mrr_cents AS mrr FROM vote v
         JOIN company_member m ON m.contact_id = v.contact_id JOIN company co ON co.id = m.company_id
         WHERE v.organization_id = ? AND co.mrr_cents > 0 AND co.currency = 'USD'
       UNION
       SELECT DISTINCT v.post_id, c.id, c.mrr_cents FROM vote v JOIN contact c ON c.id = v.contact_id
         WHERE v.organization_id = ? AND c.mrr_cents > 0 AND c.currency = 'USD'
           AND NOT EXISTS (SELECT 1 FROM company_member m WHERE m.contact_id = c.id)) x
     GROUP BY x.post_id ORDER BY mrr DESC, x.post_id DESC LIMIT 50`,
    [organizationId, organizationId],
  );
}

interface Row {
  database: string;
  seedSeconds: number;
  impact: { p50: number; p95: number };
  impactNext: { p50: number; p95: number };
  impactBoard: { p50: number; p95: number };
  impactPlanned: { p50: number; p95: number };
  votes: { p50: number; p95: number };
  post: { p50: number; p95: number };
  reference: { p50: number; p95: number };
  topVotes: number;
  html: string;
  weight: Awaited<ReturnType<typeof firstVisit>>;
  pages: Record<string, { p50: number; p95: number }>;
  /** The API's posts list (issue 50): a board's posts by votes and by impact, 25 a page, and their next pages. */
  api: Record<'votes' | 'votesNext' | 'impact' | 'impactNext', { p50: number; p95: number }>;
}

/** The part-2 pages, with what each shows; the contact's page is of a paying contact with a vote. */
const PAGES: Array<[key: string, label: string]> = [
  ['roadmap', `roadmap (3 columns: the first 100 of ${(POSTS / 10).toLocaleString('en')} posts each)`],
  ['changelog', 'changelog (200 entries)'],
  ['changelogEntry', 'a changelog draft (editor, preview, candidate posts)'],
  ['contactsMrr', 'contacts by revenue, first page'],
  ['contactsMrrNext', 'contacts by revenue, next page'],
  ['contactsNewest', 'contacts newest first'],
  ['contactsSeen', 'contacts by last seen'],
  ['contactsPlan', 'contacts on plan "pro" (a third), by revenue'],
  ['contactsSearch', 'contacts search "person123456" (substring of email and name)'],
  ['contact', 'a contact’s page'],
  ['companies', `companies by revenue, first page (of ${COMPANIES.toLocaleString('en')})`],
  ['companiesSearch', 'companies search "company4242" (substring of name and domain)'],
  ['company', 'a company’s page (its people, the posts they voted for and asked for)'],
  ['webhooks', 'webhooks (5)'],
  ['webhook', 'a webhook with its delivery log (25 of 200)'],
  ['keys', 'API keys (20)'],
  ['settings', 'settings'],
  ['reference', 'reference: the contacts-by-revenue query alone, bare'],
];

/** What the part-2 pages read beyond the seed: changelog entries, webhooks with deliveries, keys. */
async function seedPart2(engine: Engine, w: ReturnType<Engine['workspace']>, organizationId: string, boardId: string) {
  for (let i = 0; i < 200; i++)
    await w.changelog.create({ boardId, title: `Release ${i}`, body: `**Release ${i}**: what shipped.` });
  const hooks = [];
  for (let i = 0; i < 5; i++)
    hooks.push(await w.webhooks.create({ url: `http://127.0.0.1:9/hook-${i}`, events: ['post.created'] }));
  // 40 new posts: 200 deliveries waiting (nothing delivers them here).
  for (let i = 0; i < 40; i++) await w.posts.create(boardId, { title: `Fresh idea ${i}` });
  for (let i = 0; i < 20; i++) await engine.keys.create(organizationId, i % 2 ? 'read' : 'read:write');
  const entry = (await w.changelog.all())[0]!;
  return { hook: hooks[0]!.id, entry: entry.id };
}

async function measure(database: 'sqlite' | 'postgresql'): Promise<Row> {
  // BENCH_CONSOLE_KEEP: keep the seeded databases (SQLite file in that folder, PostgreSQL database bench_console) to study plans.
  const keep = process.env.BENCH_CONSOLE_KEEP;
  const dir = keep ?? mkdtempSync(join(tmpdir(), 'bench-console-'));
  const url = database === 'sqlite' ? join(dir, 'console.db') : await freshPg('bench_console');
  // Building impact from a million votes takes longer than a request may (the engine's 15 s statement timeout).
  const engine = await createEngine({
    database: url,
    log: () => {},
    webhooks: { allowPrivateNetworks: true },
    timeouts: { statementMs: 600_000 },
  });
  try {
    await engine.migrate();
    const t0 = performance.now();
    const { org, w, boards, top, topVotes } = await seed(engine);
    const seedSeconds = (performance.now() - t0) / 1000;
    const part2 = await seedPart2(engine, w, org.id, boards[0]!);
    const contact = (await w.contacts.list({ sort: 'mrr', limit: 1 })).data[0]!.id;
    const company = (await w.companies.list({ sort: 'mrr', limit: 1 })).data[0]!.id;
    const { signIn } = await w.team.add(
      CLI_ACTOR,
      { email: 'pm@bench.example', role: 'owner' },
      { invite: false, workspace: 'Bench' },
    );
    const session = await engine.team.redeem({ token: signIn.token });
    const app = createApp({ engine, sites: [createConsole({ engine })], logError: () => {} });
    const get = async (path: string) => {
      const res = await app.fetch(
        new Request(`http://bench.test/console/${org.id}${path}`, {
          headers: { cookie: `fs_console=${session.token}` },
        }),
      );
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
      return text;
    };
    const html = await get('/posts?sort=impact');
    const weight = await firstVisit(app, `/console/${org.id}/posts`, { cookie: `fs_console=${session.token}` });
    const nextOf = (page: string) =>
      /href="([^"]+)" rel="next"/.exec(page)![1]!.replaceAll('&amp;', '&').replace(`/console/${org.id}`, '');
    const next = nextOf(html);
    const contactsNext = nextOf(await get('/contacts?sort=mrr'));
    const pages: Record<string, (i: number) => Promise<unknown>> = {
      roadmap: () => get('/roadmap'),
      changelog: () => get('/changelog'),
      changelogEntry: () => get(`/changelog/${part2.entry}`),
      contactsMrr: () => get('/contacts?sort=mrr'),
      contactsMrrNext: () => get(contactsNext),
      contactsNewest: () => get('/contacts?sort=created'),
      contactsSeen: () => get('/contacts?sort=last_seen'),
      contactsPlan: () => get('/contacts?sort=mrr&plan=pro'),
      contactsSearch: () => get('/contacts?sort=mrr&q=person123456'),
      contact: () => get(`/contacts/${contact}`),
      companies: () => get('/companies'),
      companiesSearch: () => get('/companies?q=company4242'),
      company: () => get(`/companies/${company}`),
      webhooks: () => get('/webhooks'),
      webhook: () => get(`/webhooks/${part2.hook}`),
      keys: () => get('/keys'),
      settings: () => get('/settings'),
      reference: () =>
        engine.db.all(`SELECT * FROM contact WHERE organization_id = ? ORDER BY mrr_cents DESC, id DESC LIMIT 51`, [
          org.id,
        ]),
    };
    const apiKey = (await engine.keys.create(org.id, 'read')).key;
    const api = async (path: string) => {
      const res = await app.fetch(
        new Request(`http://bench.test${path}`, { headers: { authorization: `Bearer ${apiKey}` } }),
      );
      const body = (await res.json()) as { data: unknown[]; nextCursor: string | null };
      if (res.status !== 200 || body.data.length === 0) throw new Error(`${path}: ${res.status}`);
      return body;
    };
    const boardPosts = (i: number, sort: string) =>
      `/v1/posts?boardId=${boards[i % BOARDS]}&sort=${sort}${sort === 'impact' ? '&currency=USD' : ''}`;
    const nextPages = async (sort: string) =>
      Promise.all(
        boards.map(async (_b, i) => `${boardPosts(i, sort)}&cursor=${(await api(boardPosts(i, sort))).nextCursor}`),
      );
    const [votesNext, impactNext] = [await nextPages('votes'), await nextPages('impact')];
    const apiRow = {
      votes: await timed((i) => api(boardPosts(i, 'votes'))),
      votesNext: await timed((i) => api(votesNext[i % BOARDS]!)),
      impact: await timed((i) => api(boardPosts(i, 'impact'))),
      impactNext: await timed((i) => api(impactNext[i % BOARDS]!)),
    };
    const row: Row = {
      database,
      seedSeconds,
      impact: await timed(() => get('/posts?sort=impact')),
      impactNext: await timed(() => get(next)),
      impactBoard: await timed((i) => get(`/posts?sort=impact&board=${boards[i % BOARDS]}`)),
      impactPlanned: await timed(() => get('/posts?sort=impact&status=planned')),
      votes: await timed(() => get('/posts')),
      post: await timed(() => get(`/posts/${top}`)),
      reference: await timed(() => addedUp(engine, org.id), 5),
      topVotes,
      html,
      weight,
      pages: {},
      api: apiRow,
    };
    for (const [key, run] of Object.entries(pages))
      row.pages[key] = await timed(run, key === 'contactsSearch' ? 20 : RUNS);
    console.log(database, JSON.stringify({ ...row, html: html.length }));
    return row;
  } finally {
    await engine.close();
    if (!keep) {
      rmSync(dir, { recursive: true, force: true });
      if (database === 'postgresql') await dropPg('bench_console');
    }
  }
}

const rows = [await measure('sqlite'), await measure('postgresql')];
const cell = (m: { p50: number; p95: number }) => `${f(m.p50)} / ${f(m.p95)}`;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
writeSection(`## Console posts page by impact

The console's posts page sorted by **impact** (each post's monthly revenue from the distinct paying accounts its voters
bring, in one currency: their companies, or themselves in none) at ${POSTS.toLocaleString('en')} posts, ${PEOPLE.toLocaleString('en')} votes, ${PEOPLE.toLocaleString('en')}
contacts (a third paying; each contact voted once, on a post drawn with a skew: the most voted post has
${rows[0]!.topVotes.toLocaleString('en')} votes) and ${COMPANIES.toLocaleString('en')} companies (three contacts in four belong to one). Server time of one request through
\`app.fetch\` (session, team, the workspace's currencies and boards, the page's query and each row's impact,
rendering), p50 / p95 in ms over ${RUNS} requests after 10 warm-ups; the databases analyzed after loading. Reference: the
same ranking added up from the votes and memberships at each request, what the page would cost without the kept
\`post_impact\` table
(${5} runs).

| | SQLite | PostgreSQL |
|---|---|---|
| impact, first page | ${cell(rows[0]!.impact)} | ${cell(rows[1]!.impact)} |
| impact, next page | ${cell(rows[0]!.impactNext)} | ${cell(rows[1]!.impactNext)} |
| impact, one board | ${cell(rows[0]!.impactBoard)} | ${cell(rows[1]!.impactBoard)} |
| impact, status planned (1 post in 10) | ${cell(rows[0]!.impactPlanned)} | ${cell(rows[1]!.impactPlanned)} |
| most votes, first page | ${cell(rows[0]!.votes)} | ${cell(rows[1]!.votes)} |
| post page of the most voted post | ${cell(rows[0]!.post)} | ${cell(rows[1]!.post)} |
| reference: impact added up per request | ${cell(rows[0]!.reference)} | ${cell(rows[1]!.reference)} |
| reference / impact first page (p50) | ${(rows[0]!.reference.p50 / rows[0]!.impact.p50).toFixed(0)}× | ${(rows[1]!.reference.p50 / rows[1]!.impact.p50).toFixed(0)}× |

Seeded in ${rows[0]!.seedSeconds.toFixed(0)} s (SQLite) and ${rows[1]!.seedSeconds.toFixed(0)} s (PostgreSQL). Targets (issues 28 and 49): p50 under 50 ms on both.
First visit to the posts page (50 rows), as a browser that takes brotli downloads it (the page compressed by the
server, and every stylesheet and script it loads): ${kb(rows[0]!.weight.total)} in all
(${rows[0]!.weight.parts.map(([name, bytes]) => `${name} ${kb(bytes)}`).join(', ')}). Budget (issue 48): 60 KB.
`);

writeSection(`## API posts list

\`GET /v1/posts\` (issue 50) on the console sections' databases (${POSTS.toLocaleString('en')} posts over ${BOARDS} boards, ${PEOPLE.toLocaleString('en')} votes and
contacts, ${COMPANIES.toLocaleString('en')} companies): one board's posts, 25 a page, each with its tags and impact. Server time of one
request through \`app.fetch\` with a read key (key, rate limit, validation, the page's query, the posts, their tags and
impact, JSON), p50 / p95 in ms over ${RUNS} requests after 10 warm-ups, the boards taken in turn; next pages from each
board's first page's cursor.

| | SQLite | PostgreSQL |
|---|---|---|
| a board's posts by votes | ${cell(rows[0]!.api.votes)} | ${cell(rows[1]!.api.votes)} |
| by votes, next page | ${cell(rows[0]!.api.votesNext)} | ${cell(rows[1]!.api.votesNext)} |
| a board's posts by impact (USD) | ${cell(rows[0]!.api.impact)} | ${cell(rows[1]!.api.impact)} |
| by impact, next page | ${cell(rows[0]!.api.impactNext)} | ${cell(rows[1]!.api.impactNext)} |

Target (issue 50): p50 under 15 ms on both databases.
`);

writeSection(`## Console pages (part 2)

Every other page of the console on the same databases as above (${POSTS.toLocaleString('en')} posts, ${PEOPLE.toLocaleString('en')} contacts and votes,
${COMPANIES.toLocaleString('en')} companies), with 200
changelog entries, 5 webhooks with 200 deliveries and 20 API keys added. Server time of one request through \`app.fetch\`
as an owner (session, team, the page's reads, rendering), p50 / p95 in ms over ${RUNS} requests after 10 warm-ups (the
search: 20). Reference: the contacts page's query by revenue run bare, without the console (the database's share of that
page), in the same run.

| page | SQLite | PostgreSQL |
|---|---|---|
${PAGES.map(([key, label]) => `| ${label} | ${cell(rows[0]!.pages[key]!)} | ${cell(rows[1]!.pages[key]!)} |`).join('\n')}
| contacts by revenue / reference (p50) | ${(rows[0]!.pages.contactsMrr!.p50 / rows[0]!.pages.reference!.p50).toFixed(1)}× | ${(rows[1]!.pages.contactsMrr!.p50 / rows[1]!.pages.reference!.p50).toFixed(1)}× |

Target (issue 29): p50 under 50 ms per page at 1,000,000 contacts and 100,000 posts.
`);
