import { afterAll, expect, it } from 'vitest';
import { createEngine, type Engine, hashEmail, MAIL_RETRY_SCHEDULE_MS } from '../../../src/engine/index.js';
import { describeEngine, type EngineHarness } from '../../helpers/harness.js';
import { addresses, countsSince, portalWorkspace } from '../../helpers/notifications.js';
import { startSmtpSink } from '../../helpers/smtp.js';

const smtp = await startSmtpSink();
afterAll(() => smtp.close());

/** A voter who ticked notify-me, and the recipient their mail links name. */
async function optedInVoter(engine: Engine, orgId: string, postId: string, email: string) {
  const ws = engine.workspace(orgId);
  const vote = await ws.participation.vote({ postId, email, notifyMe: true });
  return { organizationId: orgId, contactId: vote.contactId!, emailHash: hashEmail(email)! };
}

const STATUSES = ['under_review', 'planned', 'in_progress', 'shipped', 'declined'] as const;

/** Run what is due `ms` from now (the suite's clock moved forward, and back after). */
async function runDueIn(h: EngineHarness, ms: number) {
  h.advance(ms);
  try {
    return await h.engine.scheduler.runDue();
  } finally {
    h.advance(-ms);
  }
}
const rowsOf = (h: EngineHarness, email: string) =>
  h.engine.db.all<{ status: string; attempt_count: unknown; error: string | null }>(
    'SELECT status, attempt_count, error FROM mail WHERE email = ? ORDER BY created_at, id',
    [email],
  );

describeEngine(
  'the mail lane',
  (h) => {
    it('an hourly-digest person gets one message an hour for everything that happened in it', async () => {
      const { ws, org, post } = await portalWorkspace(h.engine);
      const a = addresses('hourly', 'instant');
      const hourly = await optedInVoter(h.engine, org.id, post.id, a.hourly);
      await optedInVoter(h.engine, org.id, post.id, a.instant);
      await ws.notifications.updatePreferences(hourly, { digest: 'hourly' });
      const from = smtp.mails.length;
      for (const status of STATUSES.slice(0, 3)) {
        await ws.posts.update(post.id, { status });
        await h.engine.scheduler.runDue();
      }
      expect(Object.fromEntries(countsSince(smtp, from))).toEqual({ [a.instant]: 3 });
      await runDueIn(h, 60 * 60 * 1000);
      expect(Object.fromEntries(countsSince(smtp, from))).toEqual({ [a.instant]: 3, [a.hourly]: 1 });
      const digest = (await smtp.parsed()).slice(from).find((m) => (m.to as { text: string }).text === a.hourly)!;
      expect(digest.subject).toBe('3 updates from Acme');
      for (const line of [
        '“Dark mode” is now Under review',
        '“Dark mode” is now Planned',
        '“Dark mode” is now In progress',
      ])
        expect(digest.text).toContain(line);
    });

    it(`an instant person who gets many in an hour gets the rest of the hour as one digest`, async () => {
      const { ws, org, post } = await portalWorkspace(h.engine);
      const a = addresses('busy');
      await optedInVoter(h.engine, org.id, post.id, a.busy);
      const from = smtp.mails.length;
      for (const status of STATUSES) {
        await ws.posts.update(post.id, { status });
        await h.engine.scheduler.runDue();
      }
      expect(countsSince(smtp, from).get(a.busy)).toBe(3);
      await runDueIn(h, 60 * 60 * 1000);
      expect(countsSince(smtp, from).get(a.busy)).toBe(4);
      expect((await smtp.parsed()).at(-1)!.subject).toBe('2 updates from Acme');
    });

    it('a message the server refuses for now is retried on the schedule; one it refuses for good fails, with the reason', async () => {
      const { ws, org, post } = await portalWorkspace(h.engine);
      const a = addresses('later', 'never');
      await optedInVoter(h.engine, org.id, post.id, a.later);
      smtp.refuse(451, 'Try again later');
      const from = smtp.mails.length;
      try {
        await ws.posts.update(post.id, { status: 'planned' });
        expect((await h.engine.scheduler.runDue()).mail).toEqual({
          sent: 0,
          retried: 1,
          failed: 0,
          unconfirmed: 0,
          cancelled: 0,
        });
      } finally {
        smtp.accept();
      }
      expect(await rowsOf(h, a.later)).toEqual([
        expect.objectContaining({ status: 'pending', error: expect.stringContaining('451') }),
      ]);
      expect((await h.engine.scheduler.runDue()).mail.sent).toBe(0); // not due yet
      await runDueIn(h, MAIL_RETRY_SCHEDULE_MS[0]);
      expect(countsSince(smtp, from).get(a.later)).toBe(1);
      expect(await rowsOf(h, a.later)).toEqual([expect.objectContaining({ status: 'sent', error: null })]);
      expect(Number((await rowsOf(h, a.later))[0]!.attempt_count)).toBe(2);

      const { ws: ws2, org: org2, post: post2 } = await portalWorkspace(h.engine);
      await optedInVoter(h.engine, org2.id, post2.id, a.never);
      smtp.refuse(550, 'No such user here');
      try {
        await ws2.posts.update(post2.id, { status: 'planned' });
        expect((await h.engine.scheduler.runDue()).mail).toEqual({
          sent: 0,
          retried: 0,
          failed: 1,
          unconfirmed: 0,
          cancelled: 0,
        });
      } finally {
        smtp.accept();
      }
      expect(await rowsOf(h, a.never)).toEqual([
        expect.objectContaining({ status: 'failed', error: expect.stringContaining('550') }),
      ]);
    });

    it('an unreachable SMTP server leaves the mail pending for the next attempt; nothing is lost', async () => {
      const { ws, org, post } = await portalWorkspace(h.engine);
      const a = addresses('patient');
      await optedInVoter(h.engine, org.id, post.id, a.patient);
      const down = await createEngine({ database: h.url, log: () => {}, mail: { smtpUrl: 'smtp://127.0.0.1:9' } });
      try {
        await ws.posts.update(post.id, { status: 'planned' });
        expect((await down.scheduler.runDue()).mail).toEqual({
          sent: 0,
          retried: 1,
          failed: 0,
          unconfirmed: 0,
          cancelled: 0,
        });
      } finally {
        await down.close();
      }
      expect(await rowsOf(h, a.patient)).toEqual([
        expect.objectContaining({ status: 'pending', error: expect.stringContaining('cannot reach the SMTP server') }),
      ]);
      const from = smtp.mails.length;
      await runDueIn(h, MAIL_RETRY_SCHEDULE_MS[0]);
      expect(countsSince(smtp, from).get(a.patient)).toBe(1);
    });

    it('a workspace without SMTP logs what each message was and to whom (masked), never its words or links; counts it sent', async () => {
      const logged: string[] = [];
      const quiet = await createEngine({
        database: h.url,
        log: (m) => logged.push(m),
        mail: { publicUrl: 'https://feedback.test' },
      });
      try {
        const { ws, org, post } = await portalWorkspace(quiet);
        const a = addresses('logged');
        await optedInVoter(quiet, org.id, post.id, a.logged);
        await ws.posts.update(post.id, { status: 'shipped' });
        expect((await quiet.scheduler.runDue()).mail.sent).toBe(1);
        const line = logged.find((l) => l.includes('no SMTP server configured'))!;
        expect(line).toContain('post_status to l***@example.com');
        expect(line).not.toContain(a.logged);
        for (const secret of ['?t=', '/portal/mail/', 'Dark mode']) expect(logged.join('\n')).not.toContain(secret);
      } finally {
        await quiet.close();
      }
    });

    it('with logBodies (development only) the log has each message in full, links included', async () => {
      const logged: string[] = [];
      const dev = await createEngine({
        database: h.url,
        log: (m) => logged.push(m),
        mail: { publicUrl: 'https://feedback.test', logBodies: true },
      });
      try {
        const { ws, org, post } = await portalWorkspace(dev);
        await optedInVoter(dev, org.id, post.id, addresses('dev').dev!);
        await ws.posts.update(post.id, { status: 'shipped' });
        await dev.scheduler.runDue();
        const line = logged.find((l) => l.includes('no SMTP server configured'))!;
        expect(line).toContain('“Dark mode” is now Shipped');
        expect(line).toContain('https://feedback.test/portal/mail/unsubscribe?t=');
      } finally {
        await dev.close();
      }
    });

    it('a portal sign-in code without SMTP: the log says a code was not sent, never the code (unless logBodies)', async () => {
      for (const logBodies of [false, true]) {
        const logged: string[] = [];
        const engine = await createEngine({ database: h.url, log: (m) => logged.push(m), mail: { logBodies } });
        try {
          const { ws, post } = await portalWorkspace(engine);
          const { codeId } = await ws.participation.requestCode(
            { email: 'coder@example.com' },
            { kind: 'vote', postId: post.id, notifyMe: false },
            { workspace: 'Acme' },
          );
          // The code's mail goes through the outbox like every other message.
          await engine.scheduler.runDue();
          const line = logged.find((l) => l.includes('no SMTP server configured'))!;
          expect(line).toContain('a sign-in code to c***@example.com');
          const code = /(\d{6}) is your code/.exec(line)?.[1];
          if (!logBodies) expect(code).toBeUndefined();
          else
            await expect(ws.participation.confirmCode(codeId, code!)).resolves.toMatchObject({
              action: { kind: 'vote' },
            });
        } finally {
          await engine.close();
        }
      }
    });

    it('without a public address, messages go out without links, and the log says so once', async () => {
      const logged: string[] = [];
      const bare = await createEngine({ database: h.url, log: (m) => logged.push(m) });
      try {
        const { ws, org, post } = await portalWorkspace(bare);
        for (const name of ['bare1', 'bare2']) await optedInVoter(bare, org.id, post.id, addresses(name)[name]!);
        await ws.posts.update(post.id, { status: 'shipped' });
        expect((await bare.scheduler.runDue()).mail.sent).toBe(2);
        expect(logged.filter((l) => l.includes('without links or a one-click unsubscribe'))).toHaveLength(1);
        expect(
          logged.filter((l) => l.includes('no SMTP server configured')).every((l) => !l.includes('/portal/mail/')),
        ).toBe(true);
      } finally {
        await bare.close();
      }
    });

    it('a running scheduler wakes the lanes of what a commit wrote: events alone claim no mail, mail is sent at once', async () => {
      const running = await createEngine({
        database: h.url,
        log: () => {},
        mail: { smtpUrl: smtp.url },
        webhooks: { scheduler: { pollMs: 600_000 } },
      });
      let mailClaims = 0;
      const all = running.db.all.bind(running.db);
      (running.db as { all: typeof all }).all = (sql, params) => {
        if ((typeof sql === 'string' ? sql : sql.text).startsWith('UPDATE mail SET lease_token')) mailClaims++;
        return all(sql, params);
      };
      try {
        const { ws, org, post } = await portalWorkspace(running);
        const { awake } = addresses('awake');
        await optedInVoter(running, org.id, post.id, awake);
        await running.scheduler.start();
        await new Promise((r) => setTimeout(r, 100)); // the start's own wake claims once in every lane
        const atStart = mailClaims;
        for (let i = 0; i < 20; i++) {
          await ws.contacts.identify({ externalUserId: `awake-${i}`, plan: 'pro' });
          await new Promise((r) => setImmediate(r));
        }
        await new Promise((r) => setTimeout(r, 50));
        expect(mailClaims).toBe(atStart);
        const from = smtp.mails.length;
        await ws.posts.update(post.id, { status: 'planned' });
        await smtp.waitFor(from + 1);
        expect(countsSince(smtp, from).get(awake)).toBe(1);
      } finally {
        await running.close();
      }
    });

    it('two schedulers on one database send each message once', async () => {
      const { ws, org, post } = await portalWorkspace(h.engine);
      const emails = Array.from({ length: 40 }, (_, i) => addresses(`two${i}`)[`two${i}`]!);
      for (const email of emails) await optedInVoter(h.engine, org.id, post.id, email);
      const other = await createEngine({ database: h.url, log: () => {}, mail: { smtpUrl: smtp.url } });
      const from = smtp.mails.length;
      try {
        await ws.posts.update(post.id, { status: 'planned' });
        const [one, two] = await Promise.all([h.engine.scheduler.runDue(), other.scheduler.runDue()]);
        expect(one.mail.sent + two.mail.sent).toBe(40);
      } finally {
        await other.close();
      }
      const counts = countsSince(smtp, from);
      expect(counts.size).toBe(40);
      expect([...counts.values()].every((n) => n === 1)).toBe(true);
    });

    it('an unsubscribe is honoured and survives a later identify; the person can take it back on their preferences', async () => {
      const { ws, post } = await portalWorkspace(h.engine);
      const a = addresses('user');
      const { contact } = await ws.contacts.identify({ externalUserId: 'quit', email: a.user, name: 'Quinn' });
      await ws.participation.vote({ postId: post.id, email: a.user, userId: 'quit', vouched: true, notifyMe: false });
      const me = { organizationId: contact.organizationId, contactId: contact.id, emailHash: hashEmail(a.user)! };
      expect(await ws.notifications.unsubscribe(me, 'one_click')).toEqual({ recorded: true });
      expect(await ws.notifications.unsubscribe(me, 'one_click')).toEqual({ recorded: false });
      await ws.contacts.identify({ externalUserId: 'quit', email: a.user, name: 'Quinn Q.', plan: 'pro' });
      const from = smtp.mails.length;
      await ws.posts.update(post.id, { status: 'planned' });
      await h.engine.scheduler.runDue();
      expect(countsSince(smtp, from).get(a.user)).toBeUndefined();
      expect(await ws.notifications.preferences(me)).toMatchObject({ all: true, email: 'u***@example.com' });
      await ws.notifications.updatePreferences(me, { all: false });
      await ws.posts.update(post.id, { status: 'shipped' });
      await h.engine.scheduler.runDue();
      expect(countsSince(smtp, from).get(a.user)).toBe(1);
    });

    it('deleting a contact cancels its mail not yet sent; the outbox keeps settled mail 30 days', async () => {
      const { ws, org, post } = await portalWorkspace(h.engine);
      const a = addresses('gone', 'kept');
      const gone = await optedInVoter(h.engine, org.id, post.id, a.gone);
      await optedInVoter(h.engine, org.id, post.id, a.kept);
      await ws.posts.update(post.id, { status: 'planned' });
      await ws.contacts.delete(gone.contactId);
      expect((await h.engine.scheduler.runDue()).mail.sent).toBe(1);
      expect(await rowsOf(h, a.gone)).toEqual([expect.objectContaining({ status: 'cancelled' })]);
      h.advance(31 * 86_400_000);
      await h.engine.scheduler.runChores();
      h.advance(-31 * 86_400_000);
      expect(await rowsOf(h, a.gone)).toEqual([]);
      expect(await rowsOf(h, a.kept)).toEqual([]);
    });
  },
  { engine: { mail: { smtpUrl: smtp.url, publicUrl: 'https://feedback.test' } } },
);
