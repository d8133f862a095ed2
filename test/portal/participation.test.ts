import type { H3 } from 'h3';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/h3/index.js';
import { createPortal } from '../../src/portal/index.js';
import { describeEngine, intoFreshMinute } from '../helpers/harness.js';
import { startSmtpSink, unfold } from '../helpers/smtp.js';
import { until } from '../helpers/wait.js';
import { Visitor } from './visitor.js';

const smtp = await startSmtpSink();
afterAll(() => smtp.close());

/**
 * A token as the documented recipe mints it (docs/portal.md), issued at `now` (the engine's clock, which the suite
 * moves forward) and expiring `exp` seconds later (10 minutes by default).
 */
function mint(
  now: Date,
  secret: string,
  claims: { sub: string; email?: string; name?: string; plan?: string },
  options: { aud: string; exp?: number; alg?: string },
) {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: options.alg ?? 'HS256' })
    .setAudience(options.aud)
    .setIssuedAt(iat)
    .setExpirationTime(iat + (options.exp ?? 600))
    .sign(new TextEncoder().encode(secret));
}

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describeEngine(
  'taking part on the portal',
  (e) => {
    let app: H3;
    let n = 0;
    async function workspace(settings: { portalVerifiedOnly?: boolean; portalModeration?: boolean } = {}) {
      const handle = `part-${++n}`;
      const org = await e.engine.organizations.create({ name: 'Acme', plan: 'paid' });
      await e.engine.organizations.update(org.id, { handle, portalEnabled: true, ...settings });
      const w = e.engine.workspace(org.id);
      const board = await w.boards.create({ name: 'Ideas' });
      const post = await w.posts.create(board.id, { title: 'Dark mode' });
      const key = (await e.engine.keys.create(org.id, 'read:write')).key;
      const base = `/portal/${handle}`;
      return { org, w, board, post, key, base, postPath: `${base}/b/${board.slug}/p/${post.slug}` };
    }
    const kinds = async (w: { events: { list(): Promise<Array<{ payload: unknown }>> } }) =>
      (await w.events.list()).map((x) => (x.payload as { event: string }).event);
    const rest = async (key: string, path: string) =>
      (
        await app.fetch(new Request(`http://portal.test/v1${path}`, { headers: { authorization: `Bearer ${key}` } }))
      ).json() as Promise<any>;

    beforeAll(() => {
      app = createApp({ engine: e.engine, sites: [createPortal({ engine: e.engine })], logError: () => {} });
    });

    it('an anonymous vote waits for the emailed code; with the opt-in the voter becomes a contact (seen through REST)', async () => {
      const { w, post, postPath, key } = await workspace();
      const v = new Visitor(app);
      expect((await v.get(postPath)).text).toContain('class="vote-button" aria-pressed="false"');
      // Not signed in: the vote asks who they are first, and writes nothing yet.
      const ask = await v.post(`${postPath}/vote`, {});
      expect(ask.status).toBe(200);
      expect(ask.text).toContain('Confirm your email to vote');
      expect(ask.text).toMatch(/<input type="checkbox" name="notify_me" value="on">/); // never ticked for them
      const seen = smtp.mails.length;
      const sent = await v.post(`${postPath}/vote`, { name: 'Ann', email: 'ann@example.com', notify_me: 'on' });
      expect(sent.status).toBe(303);
      expect(sent.location).toMatch(/\/confirm\/pcode_/);
      expect((await w.posts.retrieve(post.id)).voteCount).toBe(0);
      const code = await smtp.codeFor('ann@example.com', seen);
      await v.get(sent.location!);
      const wrong = await v.post(sent.location!, { code: code === '000000' ? '111111' : '000000' });
      expect(wrong.status).toBe(422);
      expect(wrong.text).toContain('That code is wrong; 4 tries left.');
      const done = await v.post(sent.location!, { code });
      expect(done.status).toBe(303);
      expect(done.location).toBe(`${postPath}?done=vote`);
      expect(done.headers.getSetCookie().find((c) => c.startsWith('fs_session='))).toMatch(/HttpOnly; SameSite=Lax/);
      const after = await v.get(done.location!);
      expect(after.text).toContain('Your vote counts.');
      expect(after.text).toContain('class="vote-button" aria-pressed="true"');
      expect((await w.posts.retrieve(post.id)).voteCount).toBe(1);
      // The code worked once.
      expect((await v.post(sent.location!, { code })).text).toContain('This code is no longer valid');
      const contacts = (await rest(key, '/contacts?limit=10')).data;
      expect(contacts).toEqual([
        expect.objectContaining({
          email: 'ann@example.com',
          name: 'Ann',
          source: 'public_vote',
          consentBasis: 'public_interaction_opt_in',
        }),
      ]);
      expect((await kinds(w)).slice(-2)).toEqual(['contact.created', 'vote.created']);
    });

    it('without the opt-in no contact is made and the vote keeps contactId null; the session spares a second code', async () => {
      const { w, board, post, postPath, key, base } = await workspace();
      const other = await w.posts.create(board.id, { title: 'Export to CSV' });
      const v = new Visitor(app);
      await v.get(postPath);
      const seen = smtp.mails.length;
      const sent = await v.post(`${postPath}/vote`, { name: 'Bo', email: 'bo@example.com' });
      await v.post(sent.location!, { code: await smtp.codeFor('bo@example.com', seen) });
      expect((await rest(key, '/contacts?limit=10')).data).toEqual([]);
      const vote = (await w.events.list()).map((x) => x.payload as any).find((p) => p.event === 'vote.created');
      expect(vote.vote).toMatchObject({ postId: post.id, userId: null });
      // Signed in by the code: the next vote counts at once, with no mail.
      const mails = smtp.mails.length;
      const second = await v.post(`${base}/b/${board.slug}/p/${other.slug}/vote`, {});
      expect(second.location).toBe(`${base}/b/${board.slug}/p/${other.slug}?done=vote`);
      expect((await w.posts.retrieve(other.id)).voteCount).toBe(1);
      expect(smtp.mails.length).toBe(mails);
      // A second vote by the same person on the same post is not counted twice.
      expect((await v.post(`${postPath}/vote`, {})).location).toBe(`${postPath}?done=voted`);
      expect((await w.posts.retrieve(post.id)).voteCount).toBe(1);
    });

    it('a cross-site form post is refused and writes nothing, as is a form without its anti-forgery token', async () => {
      const { w, post, postPath } = await workspace();
      const v = new Visitor(app);
      await v.get(postPath);
      const seen = smtp.mails.length;
      const crossSite = await v.post(
        `${postPath}/vote`,
        { email: 'x@example.com' },
        { 'sec-fetch-site': 'cross-site', origin: 'https://evil.test' },
      );
      expect(crossSite.status).toBe(403);
      expect(crossSite.text).toContain('This form was sent from another site');
      // An older browser without Fetch Metadata: the Origin decides.
      const byOrigin = await v.post(
        `${postPath}/vote`,
        { email: 'x@example.com' },
        { 'sec-fetch-site': '', origin: 'https://evil.test' },
      );
      expect(byOrigin.status).toBe(403);
      const noToken = await v.post(`${postPath}/vote`, { email: 'x@example.com', csrf: '' });
      expect(noToken.status).toBe(403);
      expect(noToken.text).toContain('This form has expired');
      const wrongToken = await v.post(`${postPath}/vote`, { email: 'x@example.com', csrf: 'A'.repeat(43) });
      expect(wrongToken.status).toBe(403);
      expect((await w.posts.retrieve(post.id)).voteCount).toBe(0);
      expect(smtp.mails.length).toBe(seen);
    });

    it('a filled honeypot is answered like success and nothing is written or mailed', async () => {
      const { w, postPath } = await workspace();
      const v = new Visitor(app);
      await v.get(postPath);
      const seen = smtp.mails.length;
      const bot = await v.post(`${postPath}/comment`, {
        body_text: 'Buy now',
        name: 'Bot',
        email: 'bot@example.com',
        website: 'http://spam.test',
      });
      expect(bot.status).toBe(303);
      expect(bot.location).toBe(postPath);
      expect(smtp.mails.length).toBe(seen);
      expect(await kinds(w)).not.toContain('comment.created');
    });

    it('code requests are limited per email: the fourth in a minute is 429 with Retry-After, and nothing is mailed', async () => {
      const { postPath } = await workspace();
      const v = new Visitor(app);
      await v.get(postPath);
      const many = `many-${e.database}@example.com`; // one SMTP server hears both databases' suites
      intoFreshMinute(e); // the four requests share one clock minute's budget
      const mailsTo = () => smtp.mails.filter((m) => m.to.includes(many)).length;
      for (let i = 0; i < 3; i++) expect((await v.post(`${postPath}/vote`, { email: many })).status).toBe(303);
      await until('the three codes are mailed (from the outbox, after the answers)', () => mailsTo() === 3);
      const fourth = await v.post(`${postPath}/vote`, { email: many });
      expect(fourth.status).toBe(429);
      // The seconds left in the engine's clock minute, however far that clock is from the machine's.
      expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(fourth.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      expect(mailsTo()).toBe(3);
    });

    it('five wrong codes end the code; an expired code is refused', async () => {
      const { w, postPath } = await workspace();
      const v = new Visitor(app);
      await v.get(postPath);
      const seen = smtp.mails.length;
      const sent = await v.post(`${postPath}/comment`, { body_text: 'Yes please', email: 'cat@example.com' });
      const code = await smtp.codeFor('cat@example.com', seen);
      const wrong = code === '999999' ? '888888' : '999999';
      for (let i = 0; i < 4; i++) expect((await v.post(sent.location!, { code: wrong })).status).toBe(422);
      expect((await v.post(sent.location!, { code: wrong })).text).toContain('it was the last try');
      expect((await v.post(sent.location!, { code })).text).toContain('This code is no longer valid');
      const again = await v.post(`${postPath}/comment`, { body_text: 'Yes please', email: 'cat@example.com' });
      const fresh = await smtp.codeFor('cat@example.com', seen + 1);
      e.advance(16 * 60_000);
      expect((await v.post(again.location!, { code: fresh })).text).toContain('This code has expired');
      expect(await kinds(w)).not.toContain('comment.created');
    });

    it('wrong codes are bounded per address on a portal, across codes: after 10 in an hour every code is refused, the right one too, and a new one is 429 with a plain message', async () => {
      const { w, postPath } = await workspace();
      const v = new Visitor(app);
      await v.get(postPath);
      const seen = smtp.mails.length;
      const kept = await v.post(`${postPath}/comment`, { body_text: 'Kept for later', email: 'dan@example.com' });
      const right = await smtp.codeFor('dan@example.com', seen);
      let last = '';
      for (let code = 0; code < 2; code++) {
        const asked = await v.post(`${postPath}/comment`, { body_text: 'Guessing', email: 'dan@example.com' });
        for (let i = 0; i < 5; i++) last = (await v.post(asked.location!, { code: 'abcdef' })).text;
      }
      expect(last).toMatch(
        /That code is wrong\. Too many wrong codes were typed for this address, so codes for it are paused until [A-Z][a-z]{2} \d{1,2}, \d{4}, \d\d:\d\d UTC\. Try again then\./,
      );
      const refused = await v.post(kept.location!, { code: right });
      expect(refused.status).toBe(422);
      expect(refused.text).toContain('Too many wrong codes were typed for this address');
      e.advance(61_000); // past the minute's budget of three codes an address, which is not what is tested here
      const paused = await v.post(`${postPath}/comment`, { body_text: 'Again', email: 'dan@example.com' });
      expect(paused.status).toBe(429);
      expect(Number(paused.headers.get('retry-after'))).toBeGreaterThan(57 * 60);
      expect(paused.text).toContain('Codes are paused for this address');
      // Another workspace's portal counts its own: the same address is not paused there.
      const other = await workspace();
      const elsewhere = new Visitor(app);
      await elsewhere.get(other.postPath);
      expect(
        (await elsewhere.post(`${other.postPath}/comment`, { body_text: 'Hi', email: 'dan@example.com' })).status,
      ).toBe(303);
      expect(await kinds(w)).not.toContain('comment.created');
      // The code mail says someone asked for it.
      expect(unfold(smtp.mails.filter((m) => m.to.includes('dan@example.com'))[0]!.data)).toMatch(
        /Someone asked for a code to take part on Acme's feedback page as dan@example.com on /,
      );
    });

    it('a token the workspace minted signs in: identify runs as REST identify does, and votes carry the user id', async () => {
      const { org, w, post, postPath, base, key } = await workspace();
      const { secret } = await w.participation.secret.create();
      expect(secret).toMatch(/^fps_[A-Za-z0-9_-]{43}$/);
      const token = await mint(
        e.engine.clock(),
        secret,
        { sub: 'user-42', email: 'dana@example.com', name: 'Dana', plan: 'pro' },
        { aud: org.id },
      );
      const v = new Visitor(app);
      const signIn = await v.get(`${base}/sign-in?token=${token}&return=${encodeURIComponent(postPath)}`);
      expect(signIn.status).toBe(303);
      expect(signIn.location).toBe(postPath);
      expect(signIn.headers.get('referrer-policy')).toBe('no-referrer');
      const page = await v.get(postPath);
      expect(page.text).toContain('aria-label="Account: Dana"');
      expect(page.text).not.toContain('name="notify_me"'); // their consent basis is the workspace's identify
      const contact = (await rest(key, '/contacts?limit=10')).data[0];
      expect(contact).toMatchObject({
        externalUserId: 'user-42',
        email: 'dana@example.com',
        name: 'Dana',
        plan: 'pro',
        source: 'identify',
        consentBasis: 'sdk_identify',
      });
      await v.post(`${postPath}/vote`, {});
      const vote = (await w.events.list()).map((x) => x.payload as any).find((p) => p.event === 'vote.created');
      expect(vote.vote).toMatchObject({ postId: post.id, userId: 'user-42' });
      expect((await kinds(w)).filter((k) => k.startsWith('contact.'))).toEqual(['contact.created']);
      // A landing page elsewhere is not followed.
      const elsewhere = await new Visitor(app).get(
        `${base}/sign-in?token=${token}&return=${encodeURIComponent('https://evil.test/')}`,
      );
      expect(elsewhere.location).toBe(`${base}/`);
      // Signing out ends the session.
      const out = await v.post(`${base}/sign-out`, {});
      expect(out.location).toBe(`${base}/?done=signed-out`);
      expect((await v.get(postPath)).text).not.toContain('aria-label="Account:');
    });

    it("a board's list votes from any row without the script: one form for the list, each row's button its own post, back to the list with that row pressed", async () => {
      const { org, w, board, post, base } = await workspace();
      const other = await w.posts.create(board.id, { title: 'Offline mode' });
      const { secret } = await w.participation.secret.create();
      const token = await mint(e.engine.clock(), secret, { sub: 'u-7', email: 'lee@example.com' }, { aud: org.id });
      const v = new Visitor(app);
      await v.get(`${base}/sign-in?token=${token}`);
      const listPath = `${base}/b/${board.slug}`;
      const list = await v.get(listPath);
      // The list's form carries the anti-forgery field, the honeypot and the way back once, not once per row.
      const form = /<form class="votes" method="post"[^>]*>([\s\S]*?)<\/form>/.exec(list.text)![1]!;
      expect(form.match(/name="csrf"/g)).toHaveLength(1);
      expect(form.match(/name="website"/g)).toHaveLength(1);
      const back = /<input type="hidden" name="return" value="([^"]+)">/.exec(form)![1]!;
      expect(back).toBe(listPath);
      const actions = [...form.matchAll(/<button type="submit" formaction="([^"]+)" class="vote-button"/g)].map(
        (m) => m[1]!,
      );
      expect(actions.sort()).toEqual([`${listPath}/p/${post.slug}/vote`, `${listPath}/p/${other.slug}/vote`].sort());
      // The browser posts the form's fields to the pressed button's address.
      const voted = await v.post(`${listPath}/p/${other.slug}/vote`, { website: '', return: back });
      expect(voted.status).toBe(303);
      expect(voted.location).toBe(`${listPath}?done=vote`);
      expect((await w.posts.retrieve(other.id)).voteCount).toBe(1);
      expect((await w.posts.retrieve(post.id)).voteCount).toBe(0);
      const after = await v.get(voted.location!);
      expect(after.text).toContain('Your vote counts.');
      const pressed = [...after.text.matchAll(/<li class="card">([\s\S]*?)<\/li>/g)].map((m) => [
        /class="post-title"[^>]*>([^<]+)</.exec(m[1]!)![1],
        /aria-pressed="(true|false)"/.exec(m[1]!)![1],
      ]);
      expect(pressed.sort()).toEqual([
        ['Dark mode', 'false'],
        ['Offline mode', 'true'],
      ]);
    });

    it('takes a vote back without the script, from the list (the pressed row posts to /unvote) and from the post page', async () => {
      const { org, w, board, post, base } = await workspace();
      const { secret } = await w.participation.secret.create();
      const token = await mint(e.engine.clock(), secret, { sub: 'u-8', email: 'kim@example.com' }, { aud: org.id });
      const v = new Visitor(app);
      await v.get(`${base}/sign-in?token=${token}`);
      const listPath = `${base}/b/${board.slug}`;
      const postPath = `${listPath}/p/${post.slug}`;
      await v.get(listPath);
      await v.post(`${postPath}/vote`, { website: '', return: listPath });
      expect((await w.posts.retrieve(post.id)).voteCount).toBe(1);
      const list = await v.get(listPath);
      expect(list.text).toContain(
        `<button type="submit" formaction="${postPath}/unvote" class="vote-button" aria-pressed="true"`,
      );
      const back = await v.post(`${postPath}/unvote`, { website: '', return: listPath });
      expect(back.status).toBe(303);
      expect(back.location).toBe(`${listPath}?done=unvote`);
      expect((await w.posts.retrieve(post.id)).voteCount).toBe(0);
      const after = await v.get(back.location!);
      expect(after.text).toContain('Your vote is taken back.');
      expect(after.text).toContain(`formaction="${postPath}/vote" class="vote-button" aria-pressed="false"`);
      // Again from the post page: its form posts to /unvote once voted; taking back twice changes nothing.
      await v.post(`${postPath}/vote`, { website: '' });
      expect((await v.get(postPath)).text).toContain(`<form class="vote" method="post" action="${postPath}/unvote">`);
      expect((await v.post(`${postPath}/unvote`, { website: '' })).location).toBe(`${postPath}?done=unvote`);
      expect((await v.post(`${postPath}/unvote`, { website: '' })).location).toBe(`${postPath}?done=unvote`);
      expect((await w.posts.retrieve(post.id)).voteCount).toBe(0);
      const kinds = (await w.events.list()).map((ev) => ev.type).filter((k) => k.startsWith('vote.'));
      expect(kinds).toEqual(['vote.created', 'vote.deleted', 'vote.created', 'vote.deleted']);
      // Nobody signed in takes a vote back without saying who they are first.
      const visitor = new Visitor(app);
      await visitor.get(postPath);
      const stranger = await visitor.post(`${postPath}/unvote`, { website: '' });
      expect(stranger.status).toBe(200);
      expect(stranger.text).toContain('Confirm your email to take your vote back');
      expect((await w.posts.retrieve(post.id)).voteCount).toBe(0);
    });

    it('refuses other algorithms, alg none, a wrong audience, an expired or far-off token and a bad signature, saying which', async () => {
      const { org, w, base } = await workspace();
      const noSecret = await new Visitor(app).get(
        `${base}/sign-in?token=${await mint(e.engine.clock(), 'x'.repeat(32), { sub: 'u', email: 'u@example.com' }, { aud: org.id })}`,
      );
      expect(noSecret.status).toBe(403);
      expect(noSecret.text).toContain('the workspace has no portal secret yet');
      const { secret } = await w.participation.secret.create();
      await expect(w.participation.secret.create()).rejects.toMatchObject({ code: 'ERR_CONFLICT' });
      const claims = { sub: 'u-1', email: 'u@example.com' };
      const now = Math.floor(e.engine.clock().getTime() / 1000);
      const cases: Array<[string, string]> = [
        [
          await mint(e.engine.clock(), secret, claims, { aud: org.id, alg: 'HS512' }),
          'signed with HS512; this portal accepts only HS256',
        ],
        [
          `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims, aud: org.id, exp: now + 600 })}.`,
          'signed with none; this portal accepts only HS256',
        ],
        [
          await mint(e.engine.clock(), secret, claims, { aud: 'org_someone_else' }),
          `its aud must be this workspace's id (${org.id})`,
        ],
        [await mint(e.engine.clock(), secret, claims, { aud: org.id, exp: -3600 }), 'The sign-in token has expired'],
        [
          await mint(e.engine.clock(), secret, claims, { aud: org.id, exp: 25 * 3600 }),
          'expires more than 24 hours ahead',
        ],
        [
          await mint(e.engine.clock(), `${secret}x`, claims, { aud: org.id }),
          "signature does not verify with this workspace's portal secret",
        ],
        [await mint(e.engine.clock(), secret, { sub: 'u-1' }, { aud: org.id }), 'has no email claim'],
        [
          await mint(e.engine.clock(), secret, { ...claims, email: 'not-an-email' }, { aud: org.id }),
          'claims are not a valid identity',
        ],
        ['not.a.token', 'is not a JWT'],
      ];
      for (const [token, message] of cases) {
        const page = await new Visitor(app).get(`${base}/sign-in?token=${encodeURIComponent(token)}`);
        expect(page.status, message).toBe(401);
        expect(page.text, message).toContain(message.replace(/'/g, '&#39;'));
        expect(
          page.headers.getSetCookie().some((c) => c.startsWith('fs_session=')),
          message,
        ).toBe(false);
      }
      expect(await kinds(w)).not.toContain('contact.created');
    });

    it('a rotation keeps the old secret verifying for its grace period, then only the new one', async () => {
      const { org, w, base } = await workspace();
      const { secret: old } = await w.participation.secret.create();
      const { secret: next, previousValidUntil } = await w.participation.secret.rotate(3600);
      expect(Date.parse(previousValidUntil!) - e.engine.clock().getTime()).toBeGreaterThan(3590_000);
      expect(Date.parse(previousValidUntil!) - e.engine.clock().getTime()).toBeLessThanOrEqual(3600_000);
      const claims = { sub: 'u-2', email: 'rot@example.com' };
      const signIn = async (secret: string) =>
        (
          await new Visitor(app).get(
            `${base}/sign-in?token=${await mint(e.engine.clock(), secret, claims, { aud: org.id, exp: 6 * 3600 })}`,
          )
        ).status;
      expect(await signIn(old)).toBe(303);
      expect(await signIn(next)).toBe(303);
      e.advance(2 * 3600_000);
      expect(await signIn(old)).toBe(401);
      expect(await signIn(next)).toBe(303);
      const { secret: third } = await w.participation.secret.rotate(0);
      expect(await signIn(next)).toBe(401);
      expect(await signIn(third)).toBe(303);
    });

    it('a workspace that takes signed-in users only shows no forms to others and refuses their posts', async () => {
      const { org, w, post, postPath, base, board } = await workspace({ portalVerifiedOnly: true });
      const v = new Visitor(app);
      const page = await v.get(postPath);
      expect(page.text).toContain('takes feedback from signed-in users');
      expect(page.text).not.toContain('class="vote-button" aria-pressed="false"');
      expect((await v.get(`${base}/b/${board.slug}/new`)).text).not.toContain('name="title"');
      const seen = smtp.mails.length;
      // The page has no form; a post made anyway (with a valid anti-forgery token) is refused for what it is.
      v.csrf = v.cookies.get('fs_csrf')!.value;
      const refused = await v.post(`${postPath}/vote`, { email: 'anon@example.com' });
      expect(refused.status).toBe(403);
      expect(refused.text).toContain('Acme takes feedback only from signed-in users.');
      expect(smtp.mails.length).toBe(seen);
      const { secret } = await w.participation.secret.create();
      await v.get(
        `${base}/sign-in?token=${await mint(e.engine.clock(), secret, { sub: 'u-3', email: 'v@example.com' }, { aud: org.id })}`,
      );
      expect((await v.get(postPath)).text).toContain('class="vote-button" aria-pressed="false"');
      expect((await v.post(`${postPath}/vote`, {})).status).toBe(303);
      expect((await w.posts.retrieve(post.id)).voteCount).toBe(1);
    });

    it('with moderation an anonymous post waits as pending, unannounced, until approved; a signed-in user is not held', async () => {
      const { org, w, board, base } = await workspace({ portalModeration: true });
      const v = new Visitor(app);
      await v.get(`${base}/b/${board.slug}/new`);
      const seen = smtp.mails.length;
      const sent = await v.post(`${base}/b/${board.slug}/new`, {
        title: 'Held idea',
        details: 'Line one\nLine two',
        email: 'eve@example.com',
        name: 'Eve',
      });
      const done = await v.post(sent.location!, { code: await smtp.codeFor('eve@example.com', seen) });
      expect(done.location).toBe(`${base}/b/${board.slug}?done=held`);
      expect((await v.get(done.location!)).text).toContain('Your post will appear once the team has looked at it.');
      expect((await v.get(`${base}/b/${board.slug}`)).text).not.toContain('Held idea');
      const [held] = await w.posts.pending();
      expect(held).toMatchObject({ title: 'Held idea', moderationStatus: 'pending', bodyText: 'Line one\nLine two' });
      expect((await kinds(w)).filter((k) => k === 'post.created')).toHaveLength(1); // the seed post's only
      await w.posts.moderate(held!.id, 'approved');
      expect((await kinds(w)).filter((k) => k === 'post.created')).toHaveLength(2);
      expect((await v.get(`${base}/b/${board.slug}`)).text).toContain('Held idea');
      await expect(w.posts.moderate(held!.id, 'approved')).rejects.toMatchObject({ code: 'ERR_CONFLICT' });
      // Signed in with the workspace's token: posted at once.
      const { secret } = await w.participation.secret.create();
      const t = new Visitor(app);
      await t.get(
        `${base}/sign-in?token=${await mint(e.engine.clock(), secret, { sub: 'u-9', email: 'team@example.com', name: 'Tess' }, { aud: org.id })}`,
      );
      await t.get(`${base}/b/${board.slug}/new`);
      const posted = await t.post(`${base}/b/${board.slug}/new`, { title: 'Trusted idea' });
      expect(posted.location).toBe(`${base}/b/${board.slug}/p/trusted-idea?done=post`);
      expect((await t.get(posted.location!)).text).toContain('Your post is up.');
    });

    it("the script's vote answers JSON for someone signed in and 401 for anyone else; similar titles are found", async () => {
      const { org, w, board, post, postPath, base } = await workspace();
      await w.posts.create(board.id, { title: 'Dark theme for the editor' });
      const anonymous = new Visitor(app);
      await anonymous.get(postPath);
      const refused = await anonymous.post(`${postPath}/vote`, {}, { accept: 'application/json' });
      expect(refused.status).toBe(401);
      expect(JSON.parse(refused.text).error.code).toBe('ERR_UNAUTHORIZED');
      const { secret } = await w.participation.secret.create();
      const v = new Visitor(app);
      await v.get(
        `${base}/sign-in?token=${await mint(e.engine.clock(), secret, { sub: 'u-js', email: 'js@example.com' }, { aud: org.id })}`,
      );
      await v.get(postPath);
      const voted = await v.post(`${postPath}/vote`, {}, { accept: 'application/json' });
      expect(voted.status).toBe(200);
      // With the words the script shows, in the page's language.
      expect(JSON.parse(voted.text)).toEqual({
        voted: true,
        already: false,
        voteCount: 1,
        words: {
          count: '1',
          label: 'Vote, 1 vote',
          total: '1 vote',
          title: 'You voted for this: press to take your vote back',
          notice: 'Your vote counts.',
        },
      });
      expect(JSON.parse((await v.post(`${postPath}/vote`, {}, { accept: 'application/json' })).text)).toMatchObject({
        voted: true,
        already: true,
        voteCount: 1,
        words: { notice: 'You have already voted for this post.' },
      });
      expect((await w.posts.retrieve(post.id)).voteCount).toBe(1);
      const similar = JSON.parse(
        (await v.get(`${base}/b/${board.slug}/similar?q=${encodeURIComponent('a darker mode?')}`)).text,
      );
      expect(similar.data.map((p: { title: string }) => p.title).sort()).toEqual(['Dark mode']);
      expect(similar.data[0].href).toBe(postPath);
      expect(similar.data[0].votes).toBe('1 vote');
      expect(similar.heading).toBe('Similar posts: vote for one instead?');
      expect(JSON.parse((await v.get(`${base}/b/${board.slug}/similar?q=ab`)).text).data).toEqual([]);
    });

    it('the widget: widget.js is served, the pages name the allowed framing origins, and a framed page gets partitioned cookies', async () => {
      const { org, postPath } = await workspace();
      const script = await new Visitor(app).get('/portal/widget.js', { 'accept-encoding': 'br' });
      expect(script.status).toBe(200);
      expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(script.headers.get('cache-control')).toBe('public, max-age=300');
      expect(script.headers.get('content-encoding')).toBe('br');
      const policy = async () => (await new Visitor(app).get(postPath)).headers.get('content-security-policy');
      expect(await policy()).toContain("frame-ancestors 'none'");
      await e.engine.organizations.update(org.id, {
        portalFrameOrigins: ['https://app.acme.test', 'http://localhost:3000/'],
      });
      expect(await policy()).toMatch(/; frame-ancestors https:\/\/app\.acme\.test http:\/\/localhost:3000$/);
      for (const bad of [
        'app.acme.test',
        'https://app.acme.test/path',
        'ftp://x.test',
        'https://u:p@x.test',
        'https://x.test?q=1',
      ]) {
        await expect(e.engine.organizations.update(org.id, { portalFrameOrigins: [bad] }), bad).rejects.toMatchObject({
          code: 'ERR_VALIDATION',
        });
      }
      // In a frame (the widget's panel) a Lax cookie would never come back: there the cookies are partitioned.
      const framed = await new Visitor(app).get(postPath, { 'sec-fetch-dest': 'iframe' });
      expect(framed.headers.getSetCookie()[0]).toMatch(
        /^fs_csrf=[\w-]{43}; Path=\/portal; HttpOnly; SameSite=None; Secure; Partitioned$/,
      );
      const top = await new Visitor(app).get(postPath);
      expect(top.headers.getSetCookie()[0]).toMatch(/^fs_csrf=[\w-]{43}; Path=\/portal; HttpOnly; SameSite=Lax$/);
    });

    it('a reply threads under its comment, posted through the same code flow', async () => {
      const { w, post, postPath } = await workspace();
      const first = await w.participation.comment({
        postId: post.id,
        email: 'a@example.com',
        name: 'Al',
        bodyText: 'First!',
        notifyMe: false,
      });
      const v = new Visitor(app);
      const form = await v.get(`${postPath}?reply=${first.id}`);
      expect(form.text).toContain('Replying to Al');
      const seen = smtp.mails.length;
      const sent = await v.post(`${postPath}/comment`, {
        body_text: 'Agreed',
        parent_id: first.id,
        email: 'b@example.com',
        name: 'Bea',
      });
      const done = await v.post(sent.location!, { code: await smtp.codeFor('b@example.com', seen) });
      expect(done.location).toMatch(new RegExp(`^${postPath}\\?done=comment#cmt_`));
      const comment = (await w.events.list())
        .map((x) => x.payload as any)
        .filter((p) => p.event === 'comment.created')
        .at(-1).comment;
      expect(comment).toMatchObject({ parentId: first.id, bodyText: 'Agreed', postId: post.id });
      const page = await v.get(postPath);
      expect(page.text).toMatch(
        /First!<\/div>.*<ul><li class="comment" id="cmt_[^"]+"><div class="who-said">.*?<strong dir="auto">Bea</s,
      );
    });
  },
  { engine: { webhooks: { smtpUrl: smtp.url } }, scheduler: true },
);
