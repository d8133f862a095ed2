import { afterAll, beforeAll, expect, it } from 'vitest';
import { createConsole } from '../../src/console/index.js';
import { CLI_ACTOR, type TeamRole } from '../../src/engine/index.js';
import { createApp } from '../../src/h3/index.js';
import { GITHUB_REPO, GITHUB_TOKEN, startFakeGitHub } from '../helpers/fakes/github.js';
import { LINEAR_API_KEY, LINEAR_TEAM, startFakeLinear } from '../helpers/fakes/linear.js';
import { SLACK_BOT_TOKEN, SLACK_CHANNEL, startFakeSlack } from '../helpers/fakes/slack.js';
import { describeEngine } from '../helpers/harness.js';
import { startSmtpSink } from '../helpers/smtp.js';
import { consoleMember } from '../portal/visitor.js';

// The console's Integrations page and a post's linked issues (docs/integrations.md), over app.fetch: connecting by
// pasted credentials and by OAuth, the choices, disconnecting; creating, linking and unlinking an issue from a post;
// every form refused to a role that may not use it, and the OAuth way back refused to anyone but who started it.

const linear = await startFakeLinear();
const github = await startFakeGitHub();
const slack = await startFakeSlack();
const smtp = await startSmtpSink();
afterAll(async () => {
  await smtp.close();
  await linear.close();
  await github.close();
  await slack.close();
});

describeEngine(
  'console integrations',
  (h) => {
    let app: ReturnType<typeof createApp>;
    beforeAll(() => {
      app = createApp({ engine: h.engine, sites: [createConsole({ engine: h.engine })], logError: () => {} });
    });
    let n = 0;
    async function workspace() {
      const org = await h.engine.organizations.create({ name: `Acme ${++n}`, plan: 'paid' });
      const w = h.engine.workspace(org.id);
      const board = await w.boards.create({ name: 'Ideas' });
      const post = await w.posts.create(board.id, { title: 'Dark mode' });
      return { org, w, board, post, base: `/console/${org.id}` };
    }
    const signedIn = (orgId: string, role: TeamRole) => consoleMember(app, h.engine, orgId, role);

    it('an admin connects the three services by pasting credentials; the page shows each account and the URL to paste', async () => {
      const s = await workspace();
      const admin = await signedIn(s.org.id, 'admin');
      const first = await admin.get(`${s.base}/integrations`);
      expect(first.text).toContain('Not connected.');
      const connect = (service: string, fields: Record<string, string>) =>
        admin.post(`${s.base}/integrations/${service}/connect`, fields);
      expect(
        (await connect('linear', { apiKey: LINEAR_API_KEY, webhookSecret: 'lin-webhook-secret-q7Zr' })).location,
      ).toBe(`${s.base}/integrations?done=connected`);
      await connect('github', { token: GITHUB_TOKEN, webhookSecret: 'gh-webhook-secret-Wk2p' });
      await connect('slack', {
        botToken: SLACK_BOT_TOKEN,
        signingSecret: 'slack-signing-secret-Hv9d',
        channel: SLACK_CHANNEL,
      });
      await h.engine.scheduler.runDue();
      const page = (await admin.get(`${s.base}/integrations`)).text;
      expect(page).toContain('Connected to <strong>Acme</strong> with an API key.');
      expect(page).toContain('Connected to <strong>octo-admin</strong> with a fine-grained token.');
      expect(page).toContain('Connected to <strong>Acme HQ</strong> with a bot token.');
      const ids = (await s.w.integrations.overview()).map((i) => i.id);
      for (const id of ids) expect(page).toContain(`/integrations/${id}/webhook`);
      for (const secret of [
        LINEAR_API_KEY,
        GITHUB_TOKEN,
        SLACK_BOT_TOKEN,
        'lin-webhook-secret-q7Zr',
        'gh-webhook-secret-Wk2p',
        'slack-signing-secret-Hv9d',
      ])
        expect(page).not.toContain(secret);
      const refused = await connect('slack', { botToken: 'wrong' });
      expect(refused.status).toBe(422);
      expect(refused.text).toContain('Paste the bot token (xoxb-…) or an incoming-webhook URL.');
    });

    it('saves the mappings and the channel’s events; disconnects only with the box ticked', async () => {
      const s = await workspace();
      const admin = await signedIn(s.org.id, 'admin');
      await admin.get(`${s.base}/integrations`);
      await admin.post(`${s.base}/integrations/linear/connect`, { apiKey: LINEAR_API_KEY });
      await admin.post(`${s.base}/integrations/slack/connect`, { botToken: SLACK_BOT_TOKEN, channel: SLACK_CHANNEL });
      const [lin, sl] = ['linear', 'slack'].map((svc) =>
        s.w.integrations.overview().then((all) => all.find((i) => i.service === svc)!.id),
      );
      const linearId = await lin!;
      const slackId = await sl!;
      await admin.post(`${s.base}/integrations/${linearId}/settings`, [
        ['map.started', 'planned'],
        ['map.completed', 'shipped'],
        ['map.canceled', ''],
        ['replyComments', '1'],
      ]);
      await admin.post(`${s.base}/integrations/${slackId}/settings`, [
        ['channel', SLACK_CHANNEL],
        ['notices', 'post.created'],
        ['notices', 'vote.created'],
        ['minimumMrr', '500'],
        ['currency', 'eur'],
      ]);
      const byService = Object.fromEntries((await s.w.integrations.overview()).map((i) => [i.service, i.settings]));
      expect(byService.linear).toMatchObject({
        statusMap: { started: 'planned', completed: 'shipped' },
        replyComments: true,
      });
      expect(byService.slack).toMatchObject({
        notices: ['post.created', 'vote.created'],
        minimumMrr: 500,
        currency: 'EUR',
      });
      const kept = await admin.post(`${s.base}/integrations/${linearId}/disconnect`, {});
      expect(kept.status).toBe(422);
      await admin.post(`${s.base}/integrations/${linearId}/disconnect`, { confirm: '1' });
      expect((await s.w.integrations.overview()).map((i) => i.service)).toEqual(['slack']);
    });

    it('a member may not see or use the page; a viewer may not ask for an issue; another workspace is not found', async () => {
      const s = await workspace();
      const other = await workspace();
      await s.w.as(CLI_ACTOR).integrations.connect({ service: 'linear', apiKey: LINEAR_API_KEY });
      const member = await signedIn(s.org.id, 'member');
      expect((await member.get(`${s.base}/integrations`)).status).toBe(403);
      await member.get(`${s.base}/posts/${s.post.id}`);
      expect((await member.post(`${s.base}/integrations/github/connect`, { token: GITHUB_TOKEN })).status).toBe(403);
      const viewer = await signedIn(s.org.id, 'viewer');
      await viewer.get(`${s.base}/posts/${s.post.id}`);
      expect(
        (await viewer.post(`${s.base}/posts/${s.post.id}/issue`, { service: 'linear', target: LINEAR_TEAM.id })).status,
      ).toBe(403);
      const admin = await signedIn(s.org.id, 'admin');
      expect((await admin.get(`/console/${other.org.id}/integrations`)).status).toBe(404);
      expect(await other.w.integrations.overview()).toEqual([]);
      expect((await s.w.integrations.forPost(s.post.id)).calls).toEqual([]);
    });

    it('from a post: create a Linear issue in a team, link a GitHub issue, see them on the page, unlink one', async () => {
      const s = await workspace();
      await s.w.as(CLI_ACTOR).integrations.connect({ service: 'linear', apiKey: LINEAR_API_KEY });
      await s.w.as(CLI_ACTOR).integrations.connect({ service: 'github', token: GITHUB_TOKEN });
      await h.engine.scheduler.runDue();
      await s.w.as(CLI_ACTOR).integrations.createIssue(s.post.id, 'github', GITHUB_REPO, `Linked ${h.database}`);
      await h.engine.scheduler.runDue();
      const ghIssue = github.issues.find((i) => i.title === `Linked ${h.database}`)!;
      await s.w.as(CLI_ACTOR).integrations.unlink((await s.w.integrations.forPost(s.post.id)).links[0]!.id);
      const member = await signedIn(s.org.id, 'member');
      const page = (await member.get(`${s.base}/posts/${s.post.id}`)).text;
      expect(page).toContain(`${LINEAR_TEAM.key} · ${LINEAR_TEAM.name}`);
      expect(page).toContain(GITHUB_REPO);
      const asked = await member.post(`${s.base}/posts/${s.post.id}/issue`, {
        service: 'linear',
        target: LINEAR_TEAM.id,
        title: `From the console ${h.database}`,
      });
      expect(asked.location).toBe(`${s.base}/posts/${s.post.id}?done=requested`);
      expect((await member.get(asked.location!)).text).toContain('On its way: a Linear issue');
      await member.post(`${s.base}/posts/${s.post.id}/link`, { service: 'github', reference: ghIssue.html_url });
      await h.engine.scheduler.runDue();
      const after = (await member.get(`${s.base}/posts/${s.post.id}`)).text;
      const made = [...linear.issues.values()].find((i) => i.title === `From the console ${h.database}`)!;
      expect(after).toContain(`href="${made.url}"`);
      expect(after).toContain(`${GITHUB_REPO}#${ghIssue.number}`);
      const refused = await member.post(`${s.base}/posts/${s.post.id}/link`, { service: 'linear', reference: 'nope' });
      expect(refused.status).toBe(422);
      expect(refused.text).toContain('Give the issue’s URL or identifier (ENG-123).');
      const link = (await s.w.integrations.forPost(s.post.id)).links.find((l) => l.service === 'github')!;
      await member.post(`${s.base}/posts/${s.post.id}/unlink`, { link: link.id });
      expect((await s.w.integrations.forPost(s.post.id)).links.map((l) => l.service)).toEqual(['linear']);
    });

    it('OAuth: Linear’s and Slack’s round trips connect the workspace; the way back is refused to anyone else', async () => {
      const s = await workspace();
      const admin = await signedIn(s.org.id, 'admin');
      const start = await admin.get(`${s.base}/integrations/linear/oauth`);
      expect(start.status).toBe(303);
      const to = new URL(start.location!);
      expect(to.origin + to.pathname).toBe('https://linear.test/oauth/authorize');
      expect(to.searchParams.get('redirect_uri')).toBe('http://console.test/console/integrations/linear/callback');
      expect(to.searchParams.get('scope')).toBe('read,write');
      const state = to.searchParams.get('state')!;
      const otherAdmin = await signedIn(s.org.id, 'admin');
      const stolen = await otherAdmin.get(
        `/console/integrations/linear/callback?code=linear-code&state=${encodeURIComponent(state)}`,
      );
      expect(stolen.status).toBe(404);
      const forged = await admin.get(
        `/console/integrations/linear/callback?code=linear-code&state=${encodeURIComponent(`${state}x`)}`,
      );
      expect(forged.status).toBe(404);
      const back = await admin.get(
        `/console/integrations/linear/callback?code=linear-code&state=${encodeURIComponent(state)}`,
      );
      expect(back.location).toBe(`${s.base}/integrations?done=connected`);
      await h.engine.scheduler.runDue();
      expect((await s.w.integrations.overview())[0]).toMatchObject({
        service: 'linear',
        auth: 'oauth',
        account: 'Acme',
      });
      expect(linear.calls.at(-1)!.headers.authorization).toMatch(/^Bearer /);

      // Linear ends the token (a day): the next call renews it with the refresh token, seals the new pair, and is made.
      const linearId = (await s.w.integrations.overview())[0]!.id;
      const sealedBefore = await h.engine.db.one<{ credentials: string }>(
        'SELECT credentials FROM integration WHERE id = ?',
        [linearId],
      );
      linear.expireToken();
      await s.w
        .as(CLI_ACTOR)
        .integrations.createIssue(s.post.id, 'linear', LINEAR_TEAM.id, `After renewal ${h.database}`);
      await h.engine.scheduler.runDue();
      expect([...linear.issues.values()].some((i) => i.title === `After renewal ${h.database}`)).toBe(true);
      const sealedAfter = await h.engine.db.one<{ credentials: string }>(
        'SELECT credentials FROM integration WHERE id = ?',
        [linearId],
      );
      expect(sealedAfter!.credentials).not.toBe(sealedBefore!.credentials);
      expect((await s.w.integrations.overview())[0]).toMatchObject({ status: 'active' });

      const slackStart = new URL((await admin.get(`${s.base}/integrations/slack/oauth`)).location!);
      expect(slackStart.searchParams.get('scope')).toContain('chat:write');
      const slackState = slackStart.searchParams.get('state')!;
      await admin.get(`/console/integrations/slack/callback?code=slack-code&state=${encodeURIComponent(slackState)}`);
      await h.engine.scheduler.runDue();
      expect((await s.w.integrations.overview()).find((i) => i.service === 'slack')).toMatchObject({
        auth: 'bot',
        account: 'Acme HQ',
      });
    });
  },
  {
    engine: {
      mail: { smtpUrl: smtp.url, publicUrl: 'http://console.test' },
      integrations: {
        linear: {
          apiUrl: linear.apiUrl,
          oauth: {
            clientId: 'lin-client',
            clientSecret: 'lin-secret',
            authorizeUrl: 'https://linear.test/oauth/authorize',
            tokenUrl: linear.tokenUrl,
          },
        },
        github: { apiUrl: github.origin },
        slack: {
          apiUrl: slack.apiUrl,
          hooksUrl: slack.hooksUrl,
          oauth: { clientId: 'sl-client', clientSecret: 'sl-secret', signingSecret: 'sl-signing' },
        },
      },
    },
  },
);
