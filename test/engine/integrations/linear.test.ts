import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLI_ACTOR } from '../../../src/engine/index.js';
import { LINEAR_API_KEY, LINEAR_TEAM, linearDelivery, startFakeLinear } from '../../helpers/fakes/linear.js';
import { describeEngine, refusal } from '../../helpers/harness.js';
import { auditOf, deliver, integrationWorkspace, jobsOf, loseFirstAnswer } from '../../helpers/integrations.js';
import { startSmtpSink } from '../../helpers/smtp.js';

// Linear (docs/integrations.md): connected with an API key, an issue made from a post (Linear's client-chosen id makes
// a repeated call safe) or linked by its identifier, Linear's signed webhooks moving the linked posts' status, and a
// comment posted back only when the team asked; every call through the outbox, every change audited as Linear's.

const linear = await startFakeLinear();
const smtp = await startSmtpSink();
afterAll(async () => {
  await linear.close();
  await smtp.close();
});
const SECRET = 'lin_wh_secret_0123456789';

describeEngine(
  'Linear',
  (h) => {
    async function connected() {
      const w = await integrationWorkspace(h.engine);
      const { id } = await w.admin.integrations.connect({
        service: 'linear',
        apiKey: LINEAR_API_KEY,
        webhookSecret: SECRET,
      });
      await h.engine.scheduler.runDue();
      return { ...w, id };
    }
    const now = () => h.engine.clock().getTime();
    let seq = h.database === 'sqlite' ? 1000 : 5000;
    const ident = () => `ENG-${++seq}`;
    beforeAll(() => linear.clock(now));

    it('connects with an API key: the key goes as Linear asks, the account and its teams are kept, the key never shown', async () => {
      const w = await connected();
      const call = linear.calls.at(-1)!;
      expect(call.headers.authorization).toBe(LINEAR_API_KEY);
      expect(call.headers['content-type']).toMatch(/^application\/json/);
      const [view] = await w.ws.integrations.overview();
      expect(view).toMatchObject({
        service: 'linear',
        auth: 'api_key',
        account: 'Acme',
        status: 'active',
        lastError: null,
      });
      expect(view!.settings.teams).toEqual([LINEAR_TEAM]);
      expect(view!.inboundUrl).toBe(`https://feedback.test/integrations/${w.id}/webhook`);
      expect(JSON.stringify(await w.ws.integrations.list())).not.toContain(LINEAR_API_KEY);
      const stored = await h.engine.db.one<{ credentials: string }>(
        'SELECT credentials FROM integration WHERE id = ?',
        [w.id],
      );
      expect(stored!.credentials).not.toContain(LINEAR_API_KEY);
      expect(stored!.credentials).toMatch(/^fs1:/);
      expect((await auditOf(w))[0]).toMatchObject({
        action: 'integration.connected',
        detail: { service: 'linear', auth: 'api_key' },
      });
    });

    it('only owners and admins connect; a member may not, a viewer may not make an issue', async () => {
      const w = await connected();
      expect(await refusal(w.member.integrations.connect({ service: 'linear', apiKey: 'x' }))).toMatchObject({
        code: 'ERR_FORBIDDEN',
      });
      expect(await refusal(w.viewer.integrations.createIssue(w.post.id, 'linear', LINEAR_TEAM.id))).toMatchObject({
        code: 'ERR_FORBIDDEN',
      });
      expect(await refusal(w.admin.integrations.connect({ service: 'linear' }))).toMatchObject({
        code: 'ERR_VALIDATION',
      });
    });

    it('creates an issue from a post: the team, title, text, impact, a link back; the link and both audit entries', async () => {
      const w = await connected();
      await w.member.integrations.createIssue(w.post.id, 'linear', LINEAR_TEAM.id);
      expect((await w.ws.integrations.forPost(w.post.id)).calls).toMatchObject([
        { kind: 'linear.create_issue', status: 'pending' },
      ]);
      await h.engine.scheduler.runDue();
      const sent = linear.calls.at(-1)!;
      expect(sent.query).toContain('issueCreate');
      const input = sent.variables.input as Record<string, string>;
      expect(input.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(input).toMatchObject({ teamId: LINEAR_TEAM.id, title: 'Dark mode' });
      expect(input.description).toContain('2 votes');
      expect(input.description).toContain(`https://feedback.test/console/${w.org.id}/posts/${w.post.id}`);
      expect(input.description).toContain(`https://feedback.test/portal/${w.handle}/`);
      const { links, calls } = await w.ws.integrations.forPost(w.post.id);
      const issue = linear.issues.get(input.id)!;
      expect(links).toMatchObject([
        { service: 'linear', key: issue.identifier, url: issue.url, externalId: issue.id, state: 'Todo' },
      ]);
      expect(calls).toEqual([]);
      const log = await auditOf(w);
      expect(log.slice(0, 2)).toMatchObject([
        {
          actor: 'integration:linear',
          action: 'post.issue_created',
          detail: { service: 'linear', issue: issue.identifier },
        },
        { actor: w.a.member, action: 'post.issue_requested', detail: { service: 'linear', target: LINEAR_TEAM.id } },
      ]);
    });

    it('a call that reached Linear but whose answer was lost is made again with the same id: one issue, one link', async () => {
      const w = await connected();
      linear.onCreate(loseFirstAnswer());
      try {
        await w.member.integrations.createIssue(w.post.id, 'linear', LINEAR_TEAM.id, `Night theme ${h.database}`);
        await h.engine.scheduler.runDue();
        const [job] = (await jobsOf(h.engine, w.id)).filter((j) => j.kind === 'linear.create_issue');
        expect(job).toMatchObject({ status: 'pending', attempt_count: 1 });
        expect(job!.last_error).toBeTruthy();
        h.advance(10_000);
        await h.engine.scheduler.runDue();
      } finally {
        linear.onCreate(null);
      }
      const made = [...linear.issues.values()].filter((i) => i.title === `Night theme ${h.database}`);
      expect(made).toHaveLength(1);
      const creates = linear.calls.filter(
        (c) =>
          c.query.includes('issueCreate') &&
          (c.variables.input as { title: string }).title === `Night theme ${h.database}`,
      );
      expect(creates).toHaveLength(2);
      expect((creates[0]!.variables.input as { id: string }).id).toBe(
        (creates[1]!.variables.input as { id: string }).id,
      );
      expect((await w.ws.integrations.forPost(w.post.id)).links.map((l) => l.key)).toEqual([made[0]!.identifier]);
    });

    it("a rate limit is waited out until Linear's reset; the connection shows the error until a call succeeds", async () => {
      const w = await connected();
      linear.rateLimit(1);
      await w.member.integrations.createIssue(w.post.id, 'linear', LINEAR_TEAM.id);
      await h.engine.scheduler.runDue();
      const [job] = (await jobsOf(h.engine, w.id)).filter((j) => j.kind === 'linear.create_issue');
      expect(job).toMatchObject({ status: 'pending' });
      const due = new Date(job!.next_attempt_at as string | number).getTime();
      expect(due - now()).toBeGreaterThan(20_000);
      expect((await w.ws.integrations.overview())[0]).toMatchObject({
        status: 'failing',
        lastError: expect.stringMatching(/Rate limit/),
      });
      h.advance(10_000);
      await h.engine.scheduler.runDue();
      expect((await jobsOf(h.engine, w.id)).find((j) => j.id === job!.id)).toMatchObject({ status: 'pending' });
      h.advance(30_000);
      await h.engine.scheduler.runDue();
      expect((await jobsOf(h.engine, w.id)).find((j) => j.id === job!.id)).toMatchObject({ status: 'succeeded' });
      expect((await w.ws.integrations.overview())[0]).toMatchObject({ status: 'active', lastError: null });
    });

    it('links an existing issue by identifier or URL; an unknown one fails the call with a reason; unlinking is audited', async () => {
      const w = await connected();
      const issue = linear.addIssue(ident(), 'Dark theme');
      expect(await refusal(w.member.integrations.linkIssue(w.post.id, 'linear', 'not an issue'))).toMatchObject({
        code: 'ERR_VALIDATION',
      });
      await w.member.integrations.linkIssue(w.post.id, 'linear', issue.url);
      await w.member.integrations.linkIssue(w.post.id, 'linear', 'ENG-999');
      await h.engine.scheduler.runDue();
      const { links, calls } = await w.ws.integrations.forPost(w.post.id);
      expect(links).toMatchObject([
        { key: issue.identifier, externalId: issue.id, title: 'Dark theme', state: 'Backlog' },
      ]);
      expect(calls).toMatchObject([
        { kind: 'linear.link_issue', status: 'failed', lastError: expect.stringMatching(/ENG-999/) },
      ]);
      await w.member.integrations.unlink(links[0]!.id);
      expect((await w.ws.integrations.forPost(w.post.id)).links).toEqual([]);
      expect((await auditOf(w))[0]).toMatchObject({
        actor: w.a.member,
        action: 'post.issue_unlinked',
        detail: { issue: issue.identifier },
      });
    });

    it("Linear's Issue webhook moves the linked posts by the mapping, as the console would: event, audit, voters' mail", async () => {
      const w = await connected();
      const issue = linear.addIssue(ident(), 'Dark theme');
      await w.member.integrations.linkIssue(w.post.id, 'linear', issue.identifier);
      await h.engine.scheduler.runDue();
      const sentBefore = smtp.mails.length;
      const update = (type: string, name: string, extra: Record<string, unknown> = {}) =>
        linearDelivery(
          SECRET,
          {
            action: 'update',
            type: 'Issue',
            data: { id: issue.id, identifier: issue.identifier, title: 'Dark theme', state: { name, type } },
            ...extra,
          },
          now(),
        );
      const started = update('started', 'In Progress', { updatedFrom: { stateId: 'old' } });
      expect(await deliver(h.engine, w.id, started)).toMatchObject({ status: 200 });
      // The same delivery again (Linear retries what it thinks failed): one job.
      expect(await deliver(h.engine, w.id, started)).toMatchObject({ status: 200 });
      await h.engine.scheduler.runDue();
      expect((await w.ws.posts.retrieve(w.post.id)).status).toBe('in_progress');
      expect((await jobsOf(h.engine, w.id)).filter((j) => j.kind === 'linear.webhook')).toHaveLength(1);
      const events = (await w.ws.events.list({ type: 'post.status_changed' })).filter(
        (e) => (e.payload as { post: { id: string } }).post.id === w.post.id,
      );
      expect(events).toHaveLength(1);
      expect((await auditOf(w))[0]).toMatchObject({
        actor: 'integration:linear',
        action: 'post.status_changed',
        detail: { from: 'open', to: 'in_progress' },
      });
      await h.engine.scheduler.runDue();
      const to = smtp.mails.slice(sentBefore).flatMap((m) => m.to);
      expect(to.sort()).toEqual([w.a.voter1, w.a.voter2].sort());
      // A title edit (no state change) moves nothing; `completed` ships it.
      await deliver(h.engine, w.id, update('started', 'In Progress', { updatedFrom: { title: 'x' } }));
      await deliver(h.engine, w.id, update('completed', 'Done', { updatedFrom: { stateId: 'a' } }));
      await h.engine.scheduler.runDue();
      expect((await w.ws.posts.retrieve(w.post.id)).status).toBe('shipped');
      expect((await w.ws.integrations.forPost(w.post.id)).links[0]).toMatchObject({ state: 'Done' });
    });

    it('refuses a tampered body, a wrong secret, a stale or missing timestamp, and a missing delivery id: nothing is written', async () => {
      const w = await connected();
      const good = linearDelivery(SECRET, { action: 'update', type: 'Issue', data: { id: 'x' } }, now());
      const jobs = async () => (await jobsOf(h.engine, w.id)).filter((j) => j.kind === 'linear.webhook').length;
      const before = await jobs();
      expect(await deliver(h.engine, w.id, { ...good, body: good.body.replace('"x"', '"y"') })).toMatchObject({
        status: 401,
      });
      expect(await deliver(h.engine, w.id, linearDelivery('other', { type: 'Issue', data: {} }, now()))).toMatchObject({
        status: 401,
      });
      expect(
        await deliver(h.engine, w.id, linearDelivery(SECRET, { type: 'Issue', data: {} }, now() - 61_000)),
      ).toMatchObject({ status: 401 });
      const noDelivery = linearDelivery(SECRET, { type: 'Issue', data: {} }, now());
      delete (noDelivery.headers as Record<string, string>)['linear-delivery'];
      expect(await deliver(h.engine, w.id, noDelivery)).toMatchObject({ status: 400 });
      expect(await deliver(h.engine, 'int_nobody', good)).toMatchObject({ status: 404 });
      expect(await jobs()).toBe(before);
    });

    it('posts a Linear comment back as an official reply only when the team opted in, signed with its author', async () => {
      const w = await connected();
      const issue = linear.addIssue(ident(), 'Dark theme');
      await w.member.integrations.linkIssue(w.post.id, 'linear', issue.identifier);
      await h.engine.scheduler.runDue();
      const comment = (body: string) =>
        linearDelivery(
          SECRET,
          { action: 'create', type: 'Comment', data: { id: body, body, issueId: issue.id, user: { name: 'Lin Ear' } } },
          now(),
        );
      await deliver(h.engine, w.id, comment('Not yet'));
      await h.engine.scheduler.runDue();
      expect((await w.ws.posts.listComments(w.post.id)).data).toEqual([]);
      await w.admin.integrations.updateSettings(w.id, { replyComments: true });
      await deliver(h.engine, w.id, comment('Shipping next week.'));
      await h.engine.scheduler.runDue();
      expect((await w.ws.posts.listComments(w.post.id)).data).toMatchObject([
        { official: true, authorName: 'Lin Ear', bodyText: 'Shipping next week.' },
      ]);
    });

    it('changes the mapping (admins only; unknown states or statuses refused) and disconnects: links and calls go', async () => {
      const w = await connected();
      expect(await refusal(w.member.integrations.updateSettings(w.id, { replyComments: true }))).toMatchObject({
        code: 'ERR_FORBIDDEN',
      });
      expect(
        await refusal(w.admin.integrations.updateSettings(w.id, { statusMap: { finished: 'shipped' } })),
      ).toMatchObject({ code: 'ERR_VALIDATION' });
      expect(
        await refusal(w.admin.integrations.updateSettings(w.id, { statusMap: { started: 'done' } })),
      ).toMatchObject({ code: 'ERR_VALIDATION' });
      await w.admin.integrations.updateSettings(w.id, { statusMap: { started: 'planned' } });
      expect((await w.ws.integrations.overview())[0]!.settings.statusMap).toEqual({ started: 'planned' });
      await w.member.integrations.linkIssue(w.post.id, 'linear', linear.addIssue(ident(), 'x').url);
      await h.engine.scheduler.runDue();
      await w.admin.integrations.disconnect(w.id);
      expect((await w.ws.integrations.list()).data).toEqual([]);
      expect(await w.ws.integrations.forPost(w.post.id)).toEqual({ links: [], calls: [] });
      expect(await jobsOf(h.engine, w.id)).toEqual([]);
      expect((await auditOf(w))[0]).toMatchObject({ action: 'integration.disconnected' });
    });

    it('secrets rotate reseals the credentials, which still open', async () => {
      await connected();
      const report = await h.engine.rotateSecrets();
      expect(report.unopenable).toBe(0);
      const w = await connected();
      await w.member.integrations.createIssue(w.post.id, 'linear', LINEAR_TEAM.id);
      await h.engine.scheduler.runDue();
      expect((await w.ws.integrations.forPost(w.post.id)).links).toHaveLength(1);
      void CLI_ACTOR;
    });
  },
  {
    engine: {
      webhooks: { allowPrivateNetworks: false },
      mail: { smtpUrl: smtp.url, publicUrl: 'https://feedback.test' },
      integrations: { linear: { apiUrl: linear.apiUrl } },
    },
  },
);
