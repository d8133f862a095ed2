import { afterAll, beforeAll, expect, it } from 'vitest';
import { integrationJobs, leases } from '../../../src/engine/store/index.js';
import {
  interaction,
  SLACK_BOT_TOKEN,
  SLACK_CHANNEL,
  SLACK_HOOK_PATH,
  slackRequest,
  startFakeSlack,
} from '../../helpers/fakes/slack.js';
import { describeEngine, refusal } from '../../helpers/harness.js';
import { auditOf, deliver, integrationWorkspace, jobsOf, loseFirstAnswer } from '../../helpers/integrations.js';

// Slack (docs/integrations.md): notices of chosen events in a channel (Block Kit, links to the console and the portal),
// "a company paying at least X voted", the message shortcut "Send to feedback" (a modal, then a post by the message's
// author), each message posted once, through a bot token or an incoming webhook.

const slack = await startFakeSlack();
afterAll(() => slack.close());
const SIGNING = 'slack_signing_secret_123';

describeEngine(
  'Slack',
  (h) => {
    const now = () => h.engine.clock().getTime();
    beforeAll(() => slack.clock(now));
    async function connected(notices = ['post.created', 'comment.created', 'post.status_changed']) {
      const w = await integrationWorkspace(h.engine);
      const { id } = await w.admin.integrations.connect({
        service: 'slack',
        botToken: SLACK_BOT_TOKEN,
        signingSecret: SIGNING,
        channel: SLACK_CHANNEL,
      });
      await w.admin.integrations.updateSettings(id, { notices });
      await h.engine.scheduler.runDue();
      return { ...w, id };
    }
    const about = (title: string) => slack.messages.filter((m) => m.text.includes(title));

    it('connects with a bot token: the Bearer header, the team kept, the token never shown', async () => {
      const w = await connected();
      expect(slack.calls.find((c) => c.method === 'auth.test')!.headers.authorization).toBe(
        `Bearer ${SLACK_BOT_TOKEN}`,
      );
      const [view] = await w.ws.integrations.overview();
      expect(view).toMatchObject({ service: 'slack', auth: 'bot', account: 'Acme HQ', status: 'active' });
      expect(JSON.stringify(view)).not.toContain(SLACK_BOT_TOKEN);
      expect(await refusal(w.admin.integrations.connect({ service: 'slack', botToken: 'nope' }))).toMatchObject({
        code: 'ERR_VALIDATION',
      });
      expect(await refusal(w.admin.integrations.updateSettings(w.id, { notices: ['post.deleted'] }))).toMatchObject({
        code: 'ERR_VALIDATION',
      });
    });

    it('posts the chosen events as Block Kit with links to the console and the portal; an event not chosen posts nothing', async () => {
      const w = await connected();
      const title = `Offline mode ${h.database}`;
      const post = await w.ws.posts.create(w.board.id, { title });
      await w.ws.posts.update(post.id, { status: 'planned' });
      await w.ws.participation.vote({ postId: post.id, email: w.a.voter1!, notifyMe: false });
      await h.engine.scheduler.runDue();
      const got = about(title);
      expect(got.map((m) => m.text)).toEqual([`New post on Ideas: ${title}`, `${title} moved from Open to Planned`]);
      const blocks = JSON.stringify(got[0]!.blocks);
      expect(blocks).toContain(`https://feedback.test/console/${w.org.id}/posts/${post.id}`);
      expect(blocks).toContain(`https://feedback.test/portal/${w.handle}/`);
      expect(got[0]!.channel).toBe(SLACK_CHANNEL);
      expect(got[0]!.metadata).toMatchObject({ event_type: 'feedback_service_notice' });
      expect((await jobsOf(h.engine, w.id)).filter((j) => j.kind === 'slack.notice')).toHaveLength(2);
    });

    it('"a company paying at least X voted": only voters whose company pays that much in the currency', async () => {
      const w = await connected(['vote.created']);
      await w.admin.integrations.updateSettings(w.id, { minimumMrr: 1000, currency: 'USD' });
      const title = `Audit log ${h.database}`;
      const post = await w.ws.posts.create(w.board.id, { title });
      const company = (id: string, mrrCents: number) => [
        { externalCompanyId: id, name: id, mrrCents, currency: 'USD' },
      ];
      const big = await w.ws.contacts.identify({
        externalUserId: `big-${h.database}`,
        email: 'cfo@bigco.example',
        companies: company('BigCo', 250_000),
      });
      const small = await w.ws.contacts.identify({
        externalUserId: `small-${h.database}`,
        email: 'dev@small.example',
        companies: company('SmallCo', 5_000),
      });
      await w.ws.posts.vote(post.id, { contactId: small.contact.id });
      await w.ws.posts.vote(post.id, { contactId: big.contact.id });
      await h.engine.scheduler.runDue();
      expect(about(title).map((m) => m.text)).toEqual([`BigCo ($2,500 a month) voted for ${title}`]);
    });

    it('a message whose answer was lost is looked for by its metadata before posting again: one message', async () => {
      const w = await connected();
      const title = `Lost answer ${h.database}`;
      slack.onPost(loseFirstAnswer());
      try {
        await w.ws.posts.create(w.board.id, { title });
        await h.engine.scheduler.runDue();
        h.advance(10_000);
        await h.engine.scheduler.runDue();
      } finally {
        slack.onPost(null);
      }
      expect(about(title)).toHaveLength(1);
      expect(slack.calls.filter((c) => c.method === 'conversations.history').length).toBeGreaterThan(0);
      expect((await jobsOf(h.engine, w.id)).find((j) => j.kind === 'slack.notice')).toMatchObject({
        status: 'succeeded',
        attempt_count: 2,
      });
    });

    it('a rate limit (429) waits for its Retry-After', async () => {
      const w = await connected();
      slack.rateLimit(1);
      const title = `Limited ${h.database}`;
      await w.ws.posts.create(w.board.id, { title });
      await h.engine.scheduler.runDue();
      expect(about(title)).toEqual([]);
      h.advance(10_000);
      await h.engine.scheduler.runDue();
      expect(about(title)).toHaveLength(1);
    });

    it('an incoming webhook: on Slack’s hooks address only; a message with no answer is not posted twice', async () => {
      const w = await integrationWorkspace(h.engine);
      expect(
        await refusal(w.admin.integrations.connect({ service: 'slack', webhookUrl: 'https://evil.example/hook' })),
      ).toMatchObject({
        code: 'ERR_VALIDATION',
      });
      const { id } = await w.admin.integrations.connect({
        service: 'slack',
        webhookUrl: `${slack.hooksUrl}${SLACK_HOOK_PATH.slice(10)}`,
      });
      await w.admin.integrations.updateSettings(id, { notices: ['post.created'] });
      const title = `Hooked ${h.database}`;
      await w.ws.posts.create(w.board.id, { title });
      await h.engine.scheduler.runDue();
      expect(slack.hooked.filter((m) => m.text.includes(title))).toHaveLength(1);
      slack.onPost(loseFirstAnswer());
      const silent = `No answer ${h.database}`;
      try {
        await w.ws.posts.create(w.board.id, { title: silent });
        await h.engine.scheduler.runDue();
        h.advance(60_000);
        await h.engine.scheduler.runDue();
      } finally {
        slack.onPost(null);
      }
      expect(slack.hooked.filter((m) => m.text.includes(silent))).toHaveLength(1);
      const job = (await jobsOf(h.engine, id)).filter((j) => j.kind === 'slack.notice').at(-1)!;
      expect(job).toMatchObject({ status: 'failed' });
      expect(job.last_error).toMatch(/not sent again/);
    });

    it('a claim given back unbegun (a stopping scheduler) takes back the attempt it counted: the message may still go', async () => {
      const w = await integrationWorkspace(h.engine);
      const { id } = await w.admin.integrations.connect({
        service: 'slack',
        webhookUrl: `${slack.hooksUrl}${SLACK_HOOK_PATH.slice(10)}`,
      });
      await h.engine.scheduler.runDue();
      await w.admin.integrations.updateSettings(id, { notices: ['post.created'] });
      await w.ws.posts.create(w.board.id, { title: `Given back ${h.database}` });
      const [claimed] = await integrationJobs
        .claim(h.engine.db, {
          now: new Date(now() + 1000),
          token: 'tok-given-back',
          leaseUntil: new Date(now() + 60_000),
          limit: 100,
        })
        .then((jobs) => jobs.filter((j) => j.integrationId === id));
      expect(claimed).toMatchObject({ kind: 'slack.notice', attemptCount: 1 });
      await leases.releaseLeases(h.engine.db, 'integration_job', 'tok-given-back', [claimed!.id]);
      expect((await jobsOf(h.engine, id)).find((j) => j.id === claimed!.id)).toMatchObject({
        attempt_count: 0,
        status: 'pending',
      });
      await h.engine.scheduler.runDue();
      expect(slack.hooked.filter((m) => m.text.includes(`Given back ${h.database}`))).toHaveLength(1);
    });

    it('"Send to feedback": the shortcut opens a modal (boards, title), its submission makes a post by the author, once', async () => {
      const w = await connected([]);
      slack.user('U0ANA', 'ana@customer.example', 'Ana Customer');
      const message = {
        ts: '1764000000.000200',
        user: 'U0ANA',
        text: 'Exports time out on big boards.\nSince Monday.',
      };
      const shortcut = interaction({
        type: 'message_action',
        callback_id: 'send_to_feedback',
        trigger_id: `trig-${h.database}`,
        channel: { id: SLACK_CHANNEL },
        message,
        user: { id: 'U0PM' },
      });
      expect(await deliver(h.engine, w.id, slackRequest(SIGNING, shortcut, now()))).toMatchObject({
        status: 200,
        body: '',
      });
      await h.engine.scheduler.runDue();
      const view = slack.views.find((v) => v.trigger_id === `trig-${h.database}`)!.view;
      expect(view).toMatchObject({ type: 'modal', callback_id: 'send_to_feedback' });
      expect(JSON.stringify(view.blocks)).toContain(w.board.id);
      expect(JSON.stringify(view.blocks)).toContain('Exports time out on big boards.');
      const submission = interaction({
        type: 'view_submission',
        user: { id: 'U0PM' },
        view: {
          id: `V-${h.database}`,
          callback_id: 'send_to_feedback',
          private_metadata: (view as { private_metadata: string }).private_metadata,
          state: {
            values: {
              board: { board: { selected_option: { value: w.board.id } } },
              title: { title: { value: 'Exports time out' } },
            },
          },
        },
      });
      expect(await deliver(h.engine, w.id, slackRequest(SIGNING, submission, now()))).toMatchObject({ status: 200 });
      expect(await deliver(h.engine, w.id, slackRequest(SIGNING, submission, now()))).toMatchObject({ status: 200 });
      await h.engine.scheduler.runDue();
      const made = (await w.ws.triage.list({ boardId: w.board.id, limit: 50 })).data.filter(
        (p) => p.title === 'Exports time out',
      );
      expect(made).toHaveLength(1);
      expect(made[0]!.bodyText).toContain('Since Monday.');
      expect(made[0]!.bodyText).toContain(`https://acme.slack.com/archives/${SLACK_CHANNEL}/p1764000000000200`);
      const author = await w.ws.contacts.retrieve(made[0]!.contactId!);
      expect(author).toMatchObject({
        email: 'ana@customer.example',
        name: 'Ana Customer',
        source: 'admin',
        consentBasis: 'admin_created',
      });
      expect((await auditOf(w)).find((e) => e.action === 'post.created')).toMatchObject({ actor: 'integration:slack' });
    });

    it('refuses a wrong signature and a stale timestamp; answers the Events API URL check with its challenge', async () => {
      const w = await connected([]);
      const body = interaction({ type: 'message_action', callback_id: 'send_to_feedback', trigger_id: 'trig-x' });
      expect(await deliver(h.engine, w.id, slackRequest('other', body, now()))).toMatchObject({ status: 401 });
      expect(await deliver(h.engine, w.id, slackRequest(SIGNING, body, now() - 301_000))).toMatchObject({
        status: 401,
      });
      const signed = slackRequest(SIGNING, body, now());
      expect(await deliver(h.engine, w.id, { ...signed, body: body.replace('trig-x', 'trig-y') })).toMatchObject({
        status: 401,
      });
      const challenge = slackRequest(
        SIGNING,
        JSON.stringify({ type: 'url_verification', challenge: 'c-123' }),
        now(),
        'application/json',
      );
      expect(await deliver(h.engine, w.id, challenge)).toMatchObject({ status: 200, body: 'c-123' });
      expect((await jobsOf(h.engine, w.id)).filter((j) => j.kind === 'slack.interaction')).toEqual([]);
    });
  },
  {
    engine: {
      mail: { publicUrl: 'https://feedback.test' },
      integrations: { slack: { apiUrl: slack.apiUrl, hooksUrl: slack.hooksUrl } },
    },
  },
);
