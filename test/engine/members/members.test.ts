import { afterAll, expect, it } from 'vitest';
import { CLI_ACTOR, createEngine, TEAM_LIFETIMES } from '../../../src/engine/index.js';
import { describeEngine, refusal } from '../../helpers/harness.js';
import { startSmtpSink, unfold } from '../../helpers/smtp.js';
import { until } from '../../helpers/wait.js';

// The console's team in the engine (docs/console.md): members and roles, one-time sign-in links and codes mailed
// through a real SMTP server, sessions with idle and absolute lifetimes, and the audit log.

const smtp = await startSmtpSink();
afterAll(() => smtp.close());

describeEngine(
  'team',
  (h) => {
    let n = 0;
    async function workspace(name = `Team ${++n}`) {
      const org = await h.engine.organizations.create({ name, plan: 'paid' });
      return { org, team: h.engine.workspace(org.id).team };
    }
    const tokenOf = (link: string | null) => new URL(link!).searchParams.get('token')!;

    it('the command line adds the first owner with a one-time link on the public address; the link starts a session once', async () => {
      const { org, team } = await workspace('Acme');
      const { member, signIn } = await team.add(
        CLI_ACTOR,
        { email: ' Owner@Example.COM ', role: 'owner', name: 'Olive' },
        { invite: false, workspace: org.name },
      );
      expect(member).toMatchObject({
        email: 'owner@example.com',
        role: 'owner',
        name: 'Olive',
        addedBy: 'cli',
        joinedAt: null,
      });
      expect(signIn.link).toMatch(/^https:\/\/feedback\.example\/console\/sign-in\/link\?token=[\w-]{43}$/);
      expect(signIn.expiresAt.getTime() - Date.now()).toBeGreaterThan(TEAM_LIFETIMES.issuedSignIn * 1000 - 60_000);

      const session = await h.engine.team.redeem({ token: tokenOf(signIn.link) });
      expect(session.email).toBe('owner@example.com');
      expect(await h.engine.team.session(session.token)).toEqual({
        email: 'owner@example.com',
        teams: [{ organizationId: org.id, workspace: 'Acme', role: 'owner', name: 'Olive' }],
        elsewhere: [],
        addressProven: true,
      });
      expect((await team.list())[0]!.joinedAt).not.toBeNull();
      expect(await refusal(h.engine.team.redeem({ token: tokenOf(signIn.link) }))).toEqual({
        code: 'ERR_VALIDATION',
        message: 'This sign-in is no longer valid; ask for a new one.',
      });

      await h.engine.team.signOut(session.token);
      expect(await h.engine.team.session(session.token)).toBeNull();
    });

    it('a mailed code counts wrong tries and works once; an address on no team gets no mail and the same answers', async () => {
      const { org, team } = await workspace();
      await team.add(CLI_ACTOR, { email: 'max@example.com', role: 'member' }, { invite: false, workspace: org.name });
      const seen = smtp.mails.length;
      const { signInId } = await h.engine.team.requestSignIn('max@example.com');
      const code = await smtp.codeFor('max@example.com', seen);
      const mail = unfold(smtp.mails.filter((m) => m.to.includes('max@example.com')).at(-1)!.data);
      expect(mail).toContain(`Subject: ${code} is your feedback console code`);
      expect(mail).toContain('https://feedback.example/console/sign-in/link?token=');
      // It says that someone asked for it, as whom and when.
      expect(mail).toMatch(
        /Someone asked to sign in to the feedback console as max@example.com on \d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC\./,
      );
      expect(mail).toContain('If it was not you, ignore this message');
      // The HTML part is the one mail layout: the console's name at the top, the code large, the link a button.
      const [parsed] = (await smtp.parsed())
        .filter((m) => m.to && JSON.stringify(m.to).includes('max@example.com'))
        .slice(-1);
      const htmlPart = String(parsed!.html);
      expect(htmlPart).toMatch(/<span style="vertical-align:middle">Feedback console<\/span>/);
      expect(htmlPart).toMatch(new RegExp(`letter-spacing:6px[^"]*">${code}</p>`));
      expect(htmlPart).toMatch(
        /<a href="https:\/\/feedback\.example\/console\/sign-in\/link\?token=[\w-]+" style="display:inline-block[^"]*">Sign in<\/a>/,
      );
      const wrong = code === '000000' ? '111111' : '000000';
      expect(await refusal(h.engine.team.redeem({ signInId, code: wrong }))).toEqual({
        code: 'ERR_VALIDATION',
        message: 'That code is wrong; 4 tries left.',
      });
      const session = await h.engine.team.redeem({ signInId, code });
      expect((await h.engine.team.session(session.token))!.teams.map((t) => t.role)).toEqual(['member']);
      expect((await refusal(h.engine.team.redeem({ signInId, code }))).message).toBe(
        'This sign-in is no longer valid; ask for a new one.',
      );

      const before = smtp.mails.length;
      const stranger = await h.engine.team.requestSignIn('nobody@example.com');
      expect(await refusal(h.engine.team.redeem({ signInId: stranger.signInId, code: '123456' }))).toEqual({
        code: 'ERR_VALIDATION',
        message: 'That code is wrong; 4 tries left.',
      });
      await h.engine.team.requestSignIn('max@example.com');
      await smtp.waitFor(before + 1);
      // The stranger's message was written like any other, and the mail lane did not send it.
      const stranger_mail = () =>
        h.engine.db.one<{ status: string; error: string }>('SELECT status, error FROM mail WHERE change_id = ?', [
          stranger.signInId,
        ]);
      await until(
        "the stranger's message is settled",
        async () => (await stranger_mail())?.status !== 'pending',
        10_000,
      );
      expect(await stranger_mail()).toEqual({ status: 'cancelled', error: 'not sent: the address is on no team' });
      expect(smtp.mails.slice(before).flatMap((m) => m.to)).toEqual(['max@example.com']);
      expect((await refusal(h.engine.team.requestSignIn('not an address'))).code).toBe('ERR_VALIDATION');
    });

    it('five wrong codes end a sign-in; an expired sign-in is refused', async () => {
      const { org, team } = await workspace();
      await team.add(CLI_ACTOR, { email: 'kim@example.com', role: 'viewer' }, { invite: false, workspace: org.name });
      const seen = smtp.mails.length;
      const { signInId } = await h.engine.team.requestSignIn('kim@example.com');
      const code = await smtp.codeFor('kim@example.com', seen);
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 4; i++) await refusal(h.engine.team.redeem({ signInId, code: wrong }));
      expect((await refusal(h.engine.team.redeem({ signInId, code: wrong }))).message).toBe(
        'That code is wrong, and it was the last try; ask for a new one.',
      );
      expect((await refusal(h.engine.team.redeem({ signInId, code }))).message).toBe(
        'This sign-in is no longer valid; ask for a new one.',
      );

      const again = smtp.mails.length;
      const second = await h.engine.team.requestSignIn('kim@example.com');
      const code2 = await smtp.codeFor('kim@example.com', again);
      h.advance(TEAM_LIFETIMES.mailedSignIn * 1000 + 1);
      expect((await refusal(h.engine.team.redeem({ signInId: second.signInId, code: code2 }))).message).toBe(
        'This sign-in has expired; ask for a new one.',
      );
    });

    it('a session ends after 12 idle hours, and after 7 days however active', async () => {
      const { org, team } = await workspace();
      const { signIn } = await team.add(
        CLI_ACTOR,
        { email: 'ida@example.com', role: 'owner' },
        { invite: false, workspace: org.name },
      );
      const idle = await h.engine.team.redeem({ token: tokenOf(signIn.link) });
      h.advance(TEAM_LIFETIMES.sessionIdle * 1000 - 60_000);
      expect(await h.engine.team.session(idle.token)).not.toBeNull(); // used: its idle time starts again
      h.advance(TEAM_LIFETIMES.sessionIdle * 1000 - 60_000);
      expect(await h.engine.team.session(idle.token)).not.toBeNull();
      h.advance(TEAM_LIFETIMES.sessionIdle * 1000 + 1);
      expect(await h.engine.team.session(idle.token)).toBeNull();

      const { signIn: next } = await team.add(
        CLI_ACTOR,
        { email: 'ian@example.com', role: 'member' },
        { invite: false, workspace: org.name },
      );
      const active = await h.engine.team.redeem({ token: tokenOf(next.link) });
      for (let hours = 0; hours < 7 * 24 - 6; hours += 6) {
        h.advance(6 * 3600_000);
        expect(await h.engine.team.session(active.token)).not.toBeNull();
      }
      h.advance(6 * 3600_000);
      expect(await h.engine.team.session(active.token)).toBeNull();
    });

    it('roles: admins add all but owners, members add nobody, a workspace keeps an owner; each change is in the audit log', async () => {
      const { org, team } = await workspace();
      await team.add(CLI_ACTOR, { email: 'own@example.com', role: 'owner' }, { invite: false, workspace: org.name });
      const owner = { email: 'own@example.com', ip: '203.0.113.7' };
      const seen = smtp.mails.length;
      await team.add(owner, { email: 'adm@example.com', role: 'admin' }, { invite: true, workspace: org.name });
      await smtp.waitFor(seen + 1);
      expect(unfold(smtp.mails.at(-1)!.data)).toContain(`own@example.com added you to ${org.name}'s team as admin.`);
      const admin = { email: 'adm@example.com' };
      await team.add(admin, { email: 'mem@example.com', role: 'member' }, { invite: false, workspace: org.name });
      expect(
        await refusal(
          team.add(admin, { email: 'o2@example.com', role: 'owner' }, { invite: false, workspace: org.name }),
        ),
      ).toEqual({
        code: 'ERR_FORBIDDEN',
        message: 'Your role does not allow adding an owner.',
      });
      expect(
        (
          await refusal(
            team.add(
              { email: 'mem@example.com' },
              { email: 'x@example.com', role: 'viewer' },
              { invite: false, workspace: org.name },
            ),
          )
        ).code,
      ).toBe('ERR_FORBIDDEN');
      expect(
        (
          await refusal(
            team.add(
              { email: 'stranger@example.com' },
              { email: 'x@example.com', role: 'viewer' },
              { invite: false, workspace: org.name },
            ),
          )
        ).code,
      ).toBe('ERR_FORBIDDEN');
      expect(
        (
          await refusal(
            team.add(owner, { email: 'mem@example.com', role: 'viewer' }, { invite: false, workspace: org.name }),
          )
        ).code,
      ).toBe('ERR_CONFLICT');
      expect((await refusal(team.changeRole(admin, 'own@example.com', 'admin'))).code).toBe('ERR_FORBIDDEN');
      expect(await refusal(team.changeRole(owner, 'own@example.com', 'admin'))).toEqual({
        code: 'ERR_CONFLICT',
        message: 'A workspace keeps at least one owner: make someone else owner first.',
      });
      expect((await refusal(team.remove(owner, 'own@example.com'))).code).toBe('ERR_CONFLICT');
      await team.changeRole(owner, 'mem@example.com', 'viewer');
      expect((await team.list()).map((m) => `${m.role}:${m.email}`)).toEqual([
        'owner:own@example.com',
        'admin:adm@example.com',
        'viewer:mem@example.com',
      ]);

      const log = (await team.auditLog(owner, { limit: 10 })).data;
      expect(log.map((e) => [e.actor, e.action, e.resourceId, e.detail])).toEqual([
        ['own@example.com', 'team.role_changed', 'mem@example.com', { from: 'member', to: 'viewer' }],
        ['adm@example.com', 'team.member_added', 'mem@example.com', { role: 'member' }],
        ['own@example.com', 'team.member_added', 'adm@example.com', { role: 'admin' }],
        ['cli', 'team.member_added', 'own@example.com', { role: 'owner' }],
      ]);
      expect(log[0]!.ip).toBe('203.0.113.7');
      expect((await refusal(team.auditLog({ email: 'mem@example.com' }, { limit: 10 }))).code).toBe('ERR_FORBIDDEN');
      // Another workspace's owner reads nothing of this one.
      const other = await workspace();
      await other.team.add(
        CLI_ACTOR,
        { email: 'own@example.com', role: 'owner' },
        { invite: false, workspace: other.org.name },
      );
      expect((await other.team.auditLog(owner, { limit: 10 })).data.map((e) => e.resourceId)).toEqual([
        'own@example.com',
      ]);
    });

    it('two owners demoting or removing each other at the same moment leave one owner (12 trials; on PostgreSQL from two engines)', async () => {
      // On PostgreSQL, two instances on one database, as behind a load balancer: each owner's request reaches another.
      // SQLite is served by one process (a second engine in this one would block its event loop waiting for the lock).
      const other = h.database === 'postgresql' ? await createEngine({ database: h.url, log: () => {} }) : h.engine;
      try {
        const changes = [
          (org: string, by: string, whom: string) => other.workspace(org).team.changeRole({ email: by }, whom, 'admin'),
          (org: string, by: string, whom: string) => other.workspace(org).team.remove({ email: by }, whom),
        ];
        const outcomes: string[] = [];
        for (let trial = 0; trial < 12; trial++) {
          const { org, team } = await workspace();
          await team.add(
            CLI_ACTOR,
            { email: 'one@example.com', role: 'owner' },
            { invite: false, workspace: org.name },
          );
          await team.add(
            CLI_ACTOR,
            { email: 'two@example.com', role: 'owner' },
            { invite: false, workspace: org.name },
          );
          const mine =
            trial % 2 === 0
              ? team.changeRole({ email: 'one@example.com' }, 'two@example.com', 'member')
              : team.remove({ email: 'one@example.com' }, 'two@example.com');
          const theirs = changes[Math.floor(trial / 2) % 2]!(org.id, 'two@example.com', 'one@example.com');
          const settled = await Promise.allSettled([mine, theirs]);
          const owners = (await team.list()).filter((m) => m.role === 'owner');
          expect(owners, `trial ${trial}`).toHaveLength(1);
          // One change went through; the other, made second, was refused: as the last owner's (409), or because its
          // actor was no longer an owner when its turn came (403).
          expect(
            settled.filter((s) => s.status === 'fulfilled'),
            `trial ${trial}`,
          ).toHaveLength(1);
          const refused = settled.find((s) => s.status === 'rejected') as PromiseRejectedResult;
          outcomes.push((refused.reason as { code: string }).code);
          expect(['ERR_CONFLICT', 'ERR_FORBIDDEN', 'ERR_NOT_FOUND']).toContain(
            (refused.reason as { code: string }).code,
          );
        }
        expect(outcomes).toHaveLength(12);
      } finally {
        if (other !== h.engine) await other.close();
      }
    });

    it('a removed member sees nothing of the workspace at once; leaving the last team ends their sessions', async () => {
      const a = await workspace('Alpha');
      const b = await workspace('Beta');
      await a.team.add(CLI_ACTOR, { email: 'boss@example.com', role: 'owner' }, { invite: false, workspace: 'Alpha' });
      await b.team.add(CLI_ACTOR, { email: 'boss@example.com', role: 'owner' }, { invite: false, workspace: 'Beta' });
      const { signIn } = await a.team.add(
        CLI_ACTOR,
        { email: 'sam@example.com', role: 'member' },
        { invite: false, workspace: 'Alpha' },
      );
      await b.team.add(CLI_ACTOR, { email: 'sam@example.com', role: 'viewer' }, { invite: false, workspace: 'Beta' });
      const session = await h.engine.team.redeem({ token: tokenOf(signIn.link) });
      expect((await h.engine.team.session(session.token))!.teams.map((t) => t.workspace)).toEqual(['Alpha', 'Beta']);
      await a.team.remove({ email: 'boss@example.com' }, 'sam@example.com');
      expect((await h.engine.team.session(session.token))!.teams.map((t) => `${t.workspace}:${t.role}`)).toEqual([
        'Beta:viewer',
      ]);
      await b.team.remove({ email: 'boss@example.com' }, 'sam@example.com');
      expect(await h.engine.team.session(session.token)).toBeNull();
    });

    it('"new since I last looked": a look at the posts page starts after 30 minutes away; the filter shows what came since the look before', async () => {
      const { org, team } = await workspace();
      await team.add(
        CLI_ACTOR,
        { email: 'looker@example.com', role: 'member' },
        { invite: false, workspace: org.name },
      );
      const me = { email: 'looker@example.com' };
      const w = h.engine.workspace(org.id);
      const board = await w.boards.create({ name: 'Ideas' });
      await w.posts.create(board.id, { title: 'Before my first look' });
      expect(await team.lookAtPosts(me)).toBeNull();
      h.advance(10 * 60_000);
      expect(await team.lookAtPosts(me)).toBeNull(); // the same look
      h.advance(5 * 60_000);
      await w.posts.create(board.id, { title: 'While I was away' });
      h.advance(40 * 60_000);
      const since = await team.lookAtPosts(me);
      expect(since).not.toBeNull();
      expect((await w.triage.posts({ since: since! })).data.map((p) => p.title)).toEqual(['While I was away']);
      // Reloading within the look keeps the same point; the next look after a pause moves it on.
      h.advance(60_000);
      expect(await team.lookAtPosts(me)).toEqual(since);
      h.advance(31 * 60_000);
      expect((await team.lookAtPosts(me))!.getTime()).toBeGreaterThan(since!.getTime());
    });
  },
  { engine: { mail: { smtpUrl: smtp.url, publicUrl: 'https://feedback.example' } }, scheduler: true },
);
