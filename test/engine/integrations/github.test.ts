import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GITHUB_REPO, GITHUB_TOKEN, githubDelivery, startFakeGitHub } from '../../helpers/fakes/github.js';
import { describeEngine, refusal } from '../../helpers/harness.js';
import { auditOf, deliver, integrationWorkspace, jobsOf, loseFirstAnswer } from '../../helpers/integrations.js';

// GitHub (docs/integrations.md): a fine-grained token or a GitHub App (its JWT traded for installation tokens), on a
// GitHub Enterprise Server's API address; an issue made from a post (its body marked, so a repeated call finds it
// instead of making another) or linked; `issues` webhooks moving the linked posts.

const github = await startFakeGitHub();
afterAll(() => github.close());
const SECRET = 'gh_wh_secret_abcdef';
const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PRIVATE_KEY = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
github.app('4242', keys.publicKey.export({ type: 'spki', format: 'pem' }) as string, 777);

describeEngine(
  'GitHub',
  (h) => {
    const now = () => h.engine.clock().getTime();
    beforeAll(() => github.clock(now));
    async function connected(way: 'token' | 'app' = 'token') {
      const w = await integrationWorkspace(h.engine);
      const input =
        way === 'token'
          ? { service: 'github' as const, token: GITHUB_TOKEN, webhookSecret: SECRET }
          : {
              service: 'github' as const,
              appId: '4242',
              privateKey: PRIVATE_KEY,
              installationId: '777',
              webhookSecret: SECRET,
            };
      const { id } = await w.admin.integrations.connect(input);
      await h.engine.scheduler.runDue();
      return { ...w, id };
    }
    const createdFor = (postTitle: string) => github.issues.filter((i) => i.title === postTitle);

    it('connects with a fine-grained token: its header, the account and its repositories; the token never shown', async () => {
      const w = await connected();
      const call = github.calls.find((c) => c.path.startsWith('/api/v3/user'))!;
      expect(call.headers.authorization).toMatch(new RegExp(`^(token|bearer) ${GITHUB_TOKEN}$`, 'i'));
      expect(call.headers.accept).toBe('application/vnd.github.v3+json');
      expect(call.headers['user-agent']).toMatch(/octokit/);
      const [view] = await w.ws.integrations.overview();
      expect(view).toMatchObject({ service: 'github', auth: 'token', account: 'octo-admin', status: 'active' });
      expect(view!.settings.repos).toEqual([GITHUB_REPO]);
      expect(JSON.stringify(view)).not.toContain(GITHUB_TOKEN);
    });

    it("connects as a GitHub App: a JWT signed with the app's key buys an installation token, which then signs the calls", async () => {
      const w = await connected('app');
      expect((await w.ws.integrations.overview())[0]).toMatchObject({ auth: 'app', account: 'acme', status: 'active' });
      const traded = github.calls.filter((c) => c.path === '/api/v3/app/installations/777/access_tokens');
      expect(traded.length).toBeGreaterThan(0);
      expect(traded[0]!.headers.authorization).toMatch(/^bearer [\w-]+\.[\w-]+\.[\w-]+$/i);
      await w.member.integrations.createIssue(w.post.id, 'github', GITHUB_REPO, `App ${h.database}`);
      await h.engine.scheduler.runDue();
      const create = github.calls
        .filter((c) => c.method === 'POST' && c.path === `/api/v3/repos/${GITHUB_REPO}/issues`)
        .at(-1)!;
      expect(create.headers.authorization).toMatch(/^(token|bearer) ghs_/i);
      expect(createdFor(`App ${h.database}`)).toHaveLength(1);
      expect(
        await refusal(
          w.admin.integrations.connect({ service: 'github', appId: '1', privateKey: 'nope', installationId: '2' }),
        ),
      ).toMatchObject({
        code: 'ERR_VALIDATION',
      });
    });

    it('creates an issue from a post, marked with its job; the link is its number', async () => {
      const w = await connected();
      const title = `Export ${h.database}`;
      await w.member.integrations.createIssue(w.post.id, 'github', GITHUB_REPO, title);
      await h.engine.scheduler.runDue();
      const [issue] = createdFor(title);
      expect(issue!.body).toContain('2 votes');
      expect(issue!.body).toMatch(/<!-- feedback-service:ijob_\w+ -->$/);
      expect((await w.ws.integrations.forPost(w.post.id)).links).toMatchObject([
        { service: 'github', key: `${GITHUB_REPO}#${issue!.number}`, url: issue!.html_url, state: 'open' },
      ]);
      expect((await auditOf(w))[0]).toMatchObject({ actor: 'integration:github', action: 'post.issue_created' });
      expect(await refusal(w.member.integrations.createIssue(w.post.id, 'github', 'not a repo'))).toMatchObject({
        code: 'ERR_VALIDATION',
      });
    });

    it('GitHub has no idempotency key: a call whose answer was lost finds its own issue by the mark, and makes none twice', async () => {
      const w = await connected();
      const title = `Lost answer ${h.database}`;
      github.onCreate(loseFirstAnswer());
      try {
        await w.member.integrations.createIssue(w.post.id, 'github', GITHUB_REPO, title);
        await h.engine.scheduler.runDue();
        h.advance(10_000);
        await h.engine.scheduler.runDue();
      } finally {
        github.onCreate(null);
      }
      expect(createdFor(title)).toHaveLength(1);
      expect((await w.ws.integrations.forPost(w.post.id)).links.map((l) => l.key)).toEqual([
        `${GITHUB_REPO}#${createdFor(title)[0]!.number}`,
      ]);
    });

    it("a spent rate limit (403, x-ratelimit-remaining 0) is waited out until GitHub's reset", async () => {
      const w = await connected();
      github.rateLimit(1);
      await w.member.integrations.linkIssue(w.post.id, 'github', `${GITHUB_REPO}#1`);
      await h.engine.scheduler.runDue();
      const job = (await jobsOf(h.engine, w.id)).find((j) => j.kind === 'github.link_issue')!;
      expect(job.status).toBe('pending');
      expect(new Date(job.next_attempt_at as string | number).getTime() - now()).toBeGreaterThan(50_000);
      h.advance(61_000);
      await h.engine.scheduler.runDue();
      expect((await jobsOf(h.engine, w.id)).find((j) => j.id === job.id)!.status).toBe('succeeded');
    });

    it('issues events move the linked posts: closed as completed, as not planned, reopened; others and pings move nothing', async () => {
      const w = await connected();
      const title = `Webhook ${h.database}`;
      await w.member.integrations.createIssue(w.post.id, 'github', GITHUB_REPO, title);
      await h.engine.scheduler.runDue();
      const issue = createdFor(title)[0]!;
      const event = (action: string, state: string, reason: string | null) =>
        githubDelivery(SECRET, 'issues', {
          action,
          issue: { number: issue.number, title, state, state_reason: reason, html_url: issue.html_url },
          repository: { full_name: GITHUB_REPO },
        });
      const status = async () => (await w.ws.posts.retrieve(w.post.id)).status;
      const closed = event('closed', 'closed', 'completed');
      expect(await deliver(h.engine, w.id, closed)).toMatchObject({ status: 200 });
      expect(await deliver(h.engine, w.id, closed)).toMatchObject({ status: 200 });
      await h.engine.scheduler.runDue();
      expect(await status()).toBe('shipped');
      expect((await jobsOf(h.engine, w.id)).filter((j) => j.kind === 'github.webhook')).toHaveLength(1);
      await deliver(h.engine, w.id, event('reopened', 'open', null));
      await h.engine.scheduler.runDue();
      expect(await status()).toBe('planned');
      await deliver(h.engine, w.id, event('closed', 'closed', 'not_planned'));
      await h.engine.scheduler.runDue();
      expect(await status()).toBe('declined');
      await deliver(h.engine, w.id, event('labeled', 'closed', 'not_planned'));
      expect(
        await deliver(h.engine, w.id, githubDelivery(SECRET, 'ping', { zen: 'Keep it logically awesome.' })),
      ).toMatchObject({ status: 200 });
      await h.engine.scheduler.runDue();
      expect(await status()).toBe('declined');
      expect((await auditOf(w))[0]).toMatchObject({
        actor: 'integration:github',
        action: 'post.status_changed',
        detail: { to: 'declined' },
      });
      expect((await jobsOf(h.engine, w.id)).filter((j) => j.kind === 'github.webhook')).toHaveLength(4);
    });

    it('refuses a tampered body, another secret, a signature without its sha256= prefix, and a delivery without its id', async () => {
      const w = await connected();
      const good = githubDelivery(SECRET, 'issues', {
        action: 'closed',
        issue: { number: 1 },
        repository: { full_name: GITHUB_REPO },
      });
      expect(await deliver(h.engine, w.id, { ...good, body: good.body.replace('closed', 'reopened') })).toMatchObject({
        status: 401,
      });
      expect(await deliver(h.engine, w.id, githubDelivery('other', 'issues', {}))).toMatchObject({ status: 401 });
      const bare = {
        ...good,
        headers: { ...good.headers, 'x-hub-signature-256': good.headers['x-hub-signature-256'].slice(7) },
      };
      expect(await deliver(h.engine, w.id, bare)).toMatchObject({ status: 401 });
      const anonymous = { ...good, headers: { ...good.headers, 'x-github-delivery': '' } };
      expect(await deliver(h.engine, w.id, anonymous)).toMatchObject({ status: 400 });
      expect((await jobsOf(h.engine, w.id)).filter((j) => j.kind === 'github.webhook')).toEqual([]);
    });

    it("a connection's own GitHub Enterprise address must be public: one on a private address is refused at connect time", async () => {
      const w = await integrationWorkspace(h.engine);
      expect(
        await refusal(
          w.admin.integrations.connect({
            service: 'github',
            token: GITHUB_TOKEN,
            apiUrl: 'http://github.internal/api/v3',
          }),
        ),
      ).toMatchObject({ code: 'ERR_VALIDATION' });
      const { id } = await w.admin.integrations.connect({
        service: 'github',
        token: GITHUB_TOKEN,
        apiUrl: 'https://127.0.0.1:8443/api/v3',
      });
      await h.engine.scheduler.runDue();
      const [job] = await jobsOf(h.engine, id);
      expect(job).toMatchObject({ kind: 'github.verify', status: 'failed' });
      expect(job!.last_error).toMatch(/loopback|private|not public|blocked/i);
      expect((await w.ws.integrations.overview())[0]).toMatchObject({ status: 'failing' });
      // A name that resolves to a private address is refused when the connection is made to it (the lookup's guard).
      await w.admin.integrations.connect({
        service: 'github',
        token: GITHUB_TOKEN,
        apiUrl: 'https://localhost:8443/api/v3',
      });
      await h.engine.scheduler.runDue();
      const again = (await jobsOf(h.engine, id)).at(-1)!;
      expect(again).toMatchObject({ kind: 'github.verify', status: 'failed' });
      expect(again.last_error).toMatch(/loopback|private|not public|blocked/i);
    });
  },
  {
    engine: {
      mail: { publicUrl: 'https://feedback.test' },
      integrations: { github: { apiUrl: `${github.origin}/api/v3` } },
    },
  },
);
