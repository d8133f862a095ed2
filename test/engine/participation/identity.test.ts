import { expect, it } from 'vitest';
import type { PortalIdentity } from '../../../src/engine/index.js';
import { hashEmail } from '../../../src/engine/shared/index.js';
import { votes } from '../../../src/engine/store/index.js';
import { describeEngine, type EngineHarness } from '../../helpers/harness.js';

// One person, one vote: the same address signed in by the workspace's token and by a mailed code is one person, in
// either order, with or without a contact (docs/identity.md).

async function setup(h: EngineHarness) {
  const org = await h.engine.organizations.create({ name: 'Acme', plan: 'paid' });
  const w = h.engine.workspace(org.id);
  const board = await w.boards.create({ name: 'Ideas' });
  const post = await w.posts.create(board.id, { title: 'Dark mode' });
  const byToken = (externalUserId: string, email: string): PortalIdentity => ({
    verified: true,
    externalUserId,
    email,
    name: null,
  });
  const byCode = (email: string): PortalIdentity => ({ verified: false, externalUserId: null, email, name: null });
  const vote = (who: PortalIdentity, notifyMe = false) =>
    w.participation.act(who, { kind: 'vote', postId: post.id, notifyMe, returnTo: '/' });
  const count = async () => (await w.posts.retrieve(post.id)).voteCount;
  const voted = async (who: PortalIdentity) => (await w.participation.votedOn(who, [post.id])).has(post.id);
  return { w, post, byToken, byCode, vote, count, voted };
}

describeEngine('one person, one vote, whichever way they signed in', (h) => {
  it('token first, then a mailed code with the same address: the second vote is refused and the page shows the vote', async () => {
    const { w, post, byToken, byCode, vote, count, voted } = await setup(h);
    await w.contacts.identify({ externalUserId: 'u1', email: 'ada@example.com' });
    await vote(byToken('u1', 'ada@example.com'));
    expect(await voted(byCode('Ada@Example.com'))).toBe(true);
    await expect(vote(byCode('Ada@Example.com'))).rejects.toMatchObject({ code: 'ERR_CONFLICT' });
    expect(await count()).toBe(1);
    // Taken back by the code's session: the token's vote goes.
    await w.participation.act(byCode('ada@example.com'), {
      kind: 'unvote',
      postId: post.id,
      notifyMe: false,
      returnTo: '/',
    });
    expect(await count()).toBe(0);
    expect(await voted(byToken('u1', 'ada@example.com'))).toBe(false);
  });

  it("a mailed code with notify-me first, then the token: identify links that contact (the token's sub), and the token's vote is refused", async () => {
    const { w, byToken, byCode, vote, count, voted } = await setup(h);
    await vote(byCode('grace@example.com'), true);
    const [before] = (await w.contacts.list({})).data;
    expect(before).toMatchObject({ email: 'grace@example.com', externalUserId: null });
    const linked = await w.contacts.identify({ externalUserId: 'u2', email: 'grace@example.com', name: 'Grace' });
    expect(linked).toMatchObject({ created: false, contact: { id: before!.id, externalUserId: 'u2', name: 'Grace' } });
    expect((await w.contacts.list({})).data).toHaveLength(1);
    const updated = (await w.events.list()).filter((e) => e.type === 'contact.updated').at(-1)!;
    expect(updated.payload).toMatchObject({ changes: { externalUserId: { from: null, to: 'u2' } } });
    expect(await voted(byToken('u2', 'grace@example.com'))).toBe(true);
    await expect(vote(byToken('u2', 'grace@example.com'))).rejects.toMatchObject({ code: 'ERR_CONFLICT' });
    expect(await count()).toBe(1);
  });

  it('a mailed code without notify-me (no contact), then the token: still one vote', async () => {
    const { w, post, byToken, byCode, vote, count, voted } = await setup(h);
    await vote(byCode('kim@example.com'));
    expect((await w.contacts.list({})).data).toHaveLength(0);
    await w.contacts.identify({ externalUserId: 'u3', email: 'kim@example.com' });
    expect(await voted(byToken('u3', 'kim@example.com'))).toBe(true);
    await expect(vote(byToken('u3', 'kim@example.com'))).rejects.toMatchObject({ code: 'ERR_CONFLICT' });
    // The backend voting for its signed-in user finds the same vote.
    const contact = (await w.contacts.list({})).data[0]!;
    expect((await w.posts.vote(post.id, { contactId: contact.id })).created).toBe(false);
    expect(await count()).toBe(1);
  });

  it('two users of the workspace sharing one address are two people: each votes once', async () => {
    const { w, byToken, vote, count } = await setup(h);
    await w.contacts.identify({ externalUserId: 'desk-1', email: 'support@acme.example' });
    await w.contacts.identify({ externalUserId: 'desk-2', email: 'support@acme.example' });
    await vote(byToken('desk-1', 'support@acme.example'));
    await vote(byToken('desk-2', 'support@acme.example'));
    await expect(vote(byToken('desk-2', 'support@acme.example'))).rejects.toMatchObject({ code: 'ERR_CONFLICT' });
    expect(await count()).toBe(2);
  });
});

describeEngine('merging what was written before one person, one vote (the OnePerson upgrade)', (h) => {
  it("merges a code's contact into the token's, takes each person's second votes off with events, and is idempotent", async () => {
    const { w, post, byCode, vote } = await setup(h);
    const org = (await w.boards.list()).data[0]!.organizationId;
    const other = await w.posts.create((await w.boards.list()).data[0]!.id, { title: 'Offline mode' });
    // Before the rule: Ada's mailed code with notify-me made a contact and a vote on Dark mode ...
    await vote(byCode('ada@example.com'), true);
    const codeContact = (await w.contacts.list({})).data[0]!;
    await w.participation.comment({ postId: post.id, email: 'ada@example.com', bodyText: 'Please!', notifyMe: true });
    // ... and her token (created as a second contact, as identify did then) voted again on it, and on Offline mode
    // where her mailed code, without notify-me, had voted too.
    const tokenContact = await w.contacts.create({
      externalUserId: 'u1',
      email: 'ada@example.com',
      mrrCents: 5000,
      currency: 'USD',
    });
    const legacy = async (postId: string, key: string, contactId: string | null, at: string) =>
      votes.insert(h.engine.db, {
        id: `vote_legacy_${postId.slice(-6)}_${key.slice(0, 1)}`,
        organizationId: org,
        postId,
        userId: key.startsWith('u:') ? 'u1' : null,
        emailHash: hashEmail('ada@example.com'),
        voterKey: key,
        contactId,
        createdAt: new Date(at),
      });
    await legacy(post.id, 'u:u1', tokenContact.id, '2030-01-01T00:00:00Z');
    await legacy(other.id, `e:${hashEmail('ada@example.com')}`, null, '2030-01-01T00:00:00Z');
    await legacy(other.id, 'u:u1', tokenContact.id, '2030-01-02T00:00:00Z');
    expect((await w.posts.retrieve(post.id)).voteCount).toBe(2);
    expect((await w.posts.retrieve(other.id)).voteCount).toBe(2);

    await h.engine.db.run("INSERT INTO upgrade_chore (name) VALUES ('merge_people')");
    await h.engine.migrate();

    // One contact, the token's, with what the code's had: its comment, its vote, its subscription.
    const people = (await w.contacts.list({})).data;
    expect(people.map((c) => c.id)).toEqual([tokenContact.id]);
    const thread = (await w.posts.listComments(post.id)).data;
    expect(thread.map((c) => c.contactId)).toEqual([tokenContact.id]);
    const topics = await h.engine.db.all<{ topic: string }>(
      'SELECT topic FROM mail_subscription WHERE contact_id = ?',
      [tokenContact.id],
    );
    expect(topics.map((t) => t.topic)).toContain(`post:${post.id}`);
    // One vote each, the oldest kept; the impact counts her once.
    for (const p of [post, other]) expect((await w.posts.retrieve(p.id)).voteCount).toBe(1);
    expect((await w.posts.detail(post.id)).impact).toEqual([
      { currency: 'USD', mrrCents: 5000, companies: 0, people: 1 },
    ]);
    const kept = (await w.posts.listVotes(other.id)).data;
    expect(kept.map((v) => v.createdAt)).toEqual(['2030-01-01T00:00:00.000Z']);
    const kinds = (await w.events.list()).map((e) => e.type);
    expect(kinds.filter((k) => k === 'contact.deleted')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'vote.deleted')).toHaveLength(2);
    const deleted = (await w.events.list()).find((e) => e.type === 'contact.deleted')!;
    expect(deleted.payload).toMatchObject({ contact: { id: codeContact.id, externalUserId: null } });
    expect(await h.engine.db.all('SELECT name FROM upgrade_chore')).toEqual([]);

    // Run again (a second migrate, or a process that died after the last transaction): nothing more.
    await h.engine.db.run("INSERT INTO upgrade_chore (name) VALUES ('merge_people')");
    await h.engine.migrate();
    expect((await w.events.list()).length).toBe(kinds.length);
  });
});
