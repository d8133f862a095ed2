import { afterAll, expect, it } from 'vitest';
import { CLI_ACTOR } from '../../../src/engine/index.js';
import { describeEngine, refusal } from '../../helpers/harness.js';
import { startSmtpSink, unfold } from '../../helpers/smtp.js';
import { traceStatements } from '../../helpers/statements.js';
import { until } from '../../helpers/wait.js';

// Signing in to the console, as an attacker would try it (docs/security.md): asking for codes takes the same path for
// a team member and anyone else; wrong codes are bounded per address across codes; every sign-in, failed code and
// sign-out is in the audit log of the workspaces it concerns.

const smtp = await startSmtpSink();
afterAll(() => smtp.close());

describeEngine(
  'signing in to the console',
  (h) => {
    let n = 0;
    async function member(email: string, role: 'owner' | 'member' = 'member') {
      const org = await h.engine.organizations.create({ name: `Sign-in ${++n}`, plan: 'paid' });
      const team = h.engine.workspace(org.id).team;
      await team.add(CLI_ACTOR, { email, role }, { invite: false, workspace: org.name });
      return { org, team };
    }
    const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000');

    it('asking for a code, and typing a wrong one, run the same statements for a team member and for an address on no team', async () => {
      await member('known@example.com');
      // The scheduler shares the database: it is stopped while the requests are traced, so that only theirs are.
      await h.engine.scheduler.stop();
      const trace = traceStatements(h.engine.db);
      try {
        const known = await h.engine.team.requestSignIn('known@example.com');
        const askedKnown = trace.take();
        const stranger = await h.engine.team.requestSignIn('stranger@example.com');
        const askedStranger = trace.take();
        expect(askedStranger, JSON.stringify([askedKnown, askedStranger], null, 1)).toEqual(askedKnown);
        // The sign-in and its mail are written, and nothing is sent before the answer.
        expect(askedKnown.some((s) => /^INSERT INTO team_sign_in/.test(s))).toBe(true);
        expect(askedKnown.some((s) => /^INSERT INTO mail/.test(s))).toBe(true);

        // A wrong code (the codes are random: one of two wrong guesses is wrong for sure, and the trace takes the first).
        await refusal(h.engine.team.redeem({ signInId: known.signInId, code: 'abcdef' }, { ip: '203.0.113.9' }));
        const wrongKnown = trace.take();
        await refusal(h.engine.team.redeem({ signInId: stranger.signInId, code: 'abcdef' }, { ip: '203.0.113.9' }));
        const wrongStranger = trace.take();
        expect(wrongStranger).toEqual(wrongKnown);
        expect(wrongKnown.some((s) => /^INSERT INTO audit_entry/.test(s))).toBe(true);
      } finally {
        trace.stop();
        await h.engine.scheduler.start();
      }
    });

    it('wrong codes are bounded per address across codes: 10 an hour, then every code is refused (the right one too) until the hour passes, and the mail carries the link alone', async () => {
      await member('guess@example.com');
      // A sign-in asked for before the guessing: its right code is refused once codes are paused.
      let seen = smtp.mails.length;
      const earlier = await h.engine.team.requestSignIn('guess@example.com');
      const earlierCode = await smtp.codeFor('guess@example.com', seen);
      const messages: string[] = [];
      let signInId = '';
      for (let i = 0; i < 10; i++) {
        if (i % 5 === 0) ({ signInId } = await h.engine.team.requestSignIn('guess@example.com'));
        messages.push((await refusal(h.engine.team.redeem({ signInId, code: 'abcdef' }))).message);
      }
      expect(messages.slice(0, 4)).toEqual([
        'That code is wrong; 4 tries left.',
        'That code is wrong; 3 tries left.',
        'That code is wrong; 2 tries left.',
        'That code is wrong; 1 try left.',
      ]);
      expect(messages[9]).toMatch(
        /^That code is wrong\. Too many wrong codes were typed for this address, so codes for it are paused until \d\d:\d\d UTC on \d{4}-\d\d-\d\d\. Try again then\.$/,
      );
      expect((await refusal(h.engine.team.redeem({ signInId: earlier.signInId, code: earlierCode }))).message).toMatch(
        /^Too many wrong codes were typed for this address, so codes for it are paused until/,
      );

      // Asked again: the answer says until when, and the mail has a link, no code; the link works.
      seen = smtp.mails.length;
      const paused = await h.engine.team.requestSignIn('guess@example.com');
      expect(paused.codesPausedUntil!.getTime() - h.engine.clock().getTime()).toBeGreaterThan(59 * 60_000);
      expect(paused.codesPausedUntil!.getTime() - h.engine.clock().getTime()).toBeLessThanOrEqual(60 * 60_000);
      const pausedMail = () =>
        smtp.mails
          .slice(seen)
          .map((m) => unfold(m.data))
          .find((m) => m.includes('Subject: Your feedback console sign-in link'));
      await until('the mail of the sign-in asked while codes are paused', () => pausedMail() !== undefined);
      const mail = pausedMail()!;
      expect(mail).not.toMatch(/Your code is/);
      expect(mail).toContain('Sign-in codes for this address are paused after too many wrong codes were typed');
      const token = /sign-in\/link\?token=([\w-]+)/.exec(mail)![1]!;
      expect((await h.engine.team.redeem({ token })).email).toBe('guess@example.com');

      // An hour later, codes work again.
      h.advance(60 * 60_000 + 1_000);
      seen = smtp.mails.length;
      const again = await h.engine.team.requestSignIn('guess@example.com');
      expect(again.codesPausedUntil).toBeNull();
      expect(
        (await h.engine.team.redeem({ signInId: again.signInId, code: await smtp.codeFor('guess@example.com', seen) }))
          .email,
      ).toBe('guess@example.com');
    });

    it('... and 30 a day: three hours of 10 wrong codes pause codes until the first of them is a day old', async () => {
      await member('patient@example.com');
      const start = h.engine.clock().getTime();
      for (let hour = 0; hour < 3; hour++) {
        let signInId = '';
        for (let i = 0; i < 10; i++) {
          if (i % 5 === 0) ({ signInId } = await h.engine.team.requestSignIn('patient@example.com'));
          await refusal(h.engine.team.redeem({ signInId, code: 'abcdef' }));
        }
        h.advance(61 * 60_000);
      }
      // Past the hour's bound, the day's still holds: until the first wrong code is 24 hours old.
      const { codesPausedUntil } = await h.engine.team.requestSignIn('patient@example.com');
      expect(codesPausedUntil).not.toBeNull();
      expect(Math.abs(codesPausedUntil!.getTime() - (start + 86_400_000))).toBeLessThan(60_000);
      h.advance(start + 86_400_000 + 1_000 - h.engine.clock().getTime());
      expect((await h.engine.team.requestSignIn('patient@example.com')).codesPausedUntil).toBeNull();
    });

    it('sign-ins, failed codes and sign-outs are in the audit log of each workspace the address is on, with the method, address and client address', async () => {
      const a = await member('two@example.com', 'owner');
      const b = await member('two@example.com', 'owner');
      const seen = smtp.mails.length;
      const { signInId } = await h.engine.team.requestSignIn('two@example.com');
      const code = await smtp.codeFor('two@example.com', seen);
      await refusal(h.engine.team.redeem({ signInId, code: wrongFor(code) }, { ip: '198.51.100.7' }));
      const session = await h.engine.team.redeem({ signInId, code }, { ip: '198.51.100.7' });
      await h.engine.team.signOut(session.token, { ip: '198.51.100.8' });
      for (const { team } of [a, b]) {
        const log = (await team.auditLog(CLI_ACTOR, { limit: 10 })).data.map((e) => [
          e.action,
          e.actor,
          e.ip,
          e.detail,
        ]);
        expect(log.slice(0, 3)).toEqual([
          ['team.signed_out', 'two@example.com', '198.51.100.8', {}],
          ['team.signed_in', 'two@example.com', '198.51.100.7', { method: 'code' }],
          ['team.sign_in_failed', 'two@example.com', '198.51.100.7', { method: 'code', reason: 'wrong code' }],
        ]);
      }
    });
  },
  { engine: { mail: { smtpUrl: smtp.url, publicUrl: 'https://feedback.example' } }, scheduler: true },
);
