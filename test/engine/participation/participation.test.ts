import { expect, it } from 'vitest';
import { describeMatrix, eventPayloads as events, type Harness } from '../../helpers/harness.js';

async function setup(h: Harness, plan: { plan?: 'free' | 'paid'; contactCap?: number | null } = {}) {
  const ws = await h.seed(plan);
  const w = h.engine.workspace(ws.org.id);
  const board = await w.boards.create({ name: 'Public ideas' });
  const post = await w.posts.create(board.id, { title: 'Seed post' });
  return { ws, w, board, post };
}

const detail = async (h: Harness, key: string, id: string) =>
  (await h.request('GET', `/v1/contacts/${id}`, { key })).body.data;

describeMatrix(
  'public interactions, counts, changelog, backfill',
  (h) => {
    it('with the opt-in a public post creates a contact (public_post, public_interaction_opt_in) with contact.created', async () => {
      const { ws, w, board } = await setup(h);
      const post = await w.participation.post({
        boardId: board.id,
        email: 'Eve@Example.com',
        name: 'Eve',
        title: 'Please add SSO',
        notifyMe: true,
      });
      expect(post.contactId).toMatch(/^ctc_/);
      const contact = await detail(h, ws.key, post.contactId!);
      expect(contact).toMatchObject({
        email: 'Eve@Example.com',
        name: 'Eve',
        source: 'public_post',
        consentBasis: 'public_interaction_opt_in',
        postCount: 1,
      });
      const kinds = (await events(h, ws.org.id)).map((e) => e.event);
      expect(kinds.slice(-2)).toEqual(['contact.created', 'post.created']);
      expect((await events(h, ws.org.id)).at(-2).contact).toMatchObject({
        id: post.contactId,
        source: 'public_post',
        consentBasis: 'public_interaction_opt_in',
      });
    });

    it('without the opt-in no contact is created and the item keeps contactId null', async () => {
      const { ws, w, board, post } = await setup(h);
      const before = (await h.request('GET', '/v1/contacts', { key: ws.key })).body.data.length;
      const p = await w.participation.post({
        boardId: board.id,
        email: 'quiet@example.com',
        title: 'Anonymous idea',
        notifyMe: false,
      });
      const v = await w.participation.vote({ postId: post.id, email: 'quiet@example.com', notifyMe: false });
      const c = await w.participation.comment({
        postId: post.id,
        email: 'quiet@example.com',
        bodyText: 'me too',
        notifyMe: false,
      });
      expect([p.contactId, v.contactId, c.contactId]).toEqual([null, null, null]);
      expect((await h.request('GET', '/v1/contacts', { key: ws.key })).body.data.length).toBe(before);
      expect(
        (await events(h, ws.org.id)).some((e) => e.event === 'contact.created' && e.contact.source !== 'admin'),
      ).toBe(false);
    });

    it('with the opt-in an existing contact with that email is used and its lastSeenAt advances; no new contact', async () => {
      const { ws, w, post } = await setup(h);
      const existing = (
        await h.request('POST', '/v1/contacts/identify', {
          key: ws.key,
          body: { externalUserId: 'u1', email: 'bob@example.com' },
        })
      ).body.data;
      h.advance(10_000);
      const vote = await w.participation.vote({ postId: post.id, email: ' BOB@example.com'.trim(), notifyMe: true });
      h.advance(-10_000);
      expect(vote.contactId).toBe(existing.id);
      const after = await detail(h, ws.key, existing.id);
      expect(Date.parse(after.lastSeenAt) - Date.parse(existing.lastSeenAt)).toBeGreaterThanOrEqual(10_000);
      expect(after.source).toBe('identify');
      expect((await events(h, ws.org.id)).filter((e) => e.event === 'contact.created')).toHaveLength(1);
    });

    it('vote.created and comment.created carry the exact payloads; replies have parentId; counts move on the post', async () => {
      const { ws, w, board, post } = await setup(h);
      const vote = await w.participation.vote({
        postId: post.id,
        email: 'v@example.com',
        userId: 'usr_9',
        notifyMe: false,
      });
      const anon = await w.participation.vote({ postId: post.id, email: 'anon@example.com', notifyMe: false });
      const comment = await w.participation.comment({
        postId: post.id,
        email: 'c@example.com',
        authorUserId: 'usr_c',
        bodyText: 'Great idea',
        notifyMe: false,
      });
      const reply = await w.participation.comment({
        postId: post.id,
        email: 'd@example.com',
        parentId: comment.id,
        bodyText: 'Agreed',
        notifyMe: false,
      });
      const evts = await events(h, ws.org.id);
      expect(evts.find((e) => e.event === 'vote.created' && e.vote.id === vote.id)).toEqual({
        event: 'vote.created',
        organizationId: ws.org.id,
        boardId: board.id,
        vote: { id: vote.id, postId: post.id, userId: 'usr_9', createdAt: vote.createdAt },
      });
      expect(evts.find((e) => e.event === 'vote.created' && e.vote.id === anon.id).vote.userId).toBeNull();
      expect(evts.find((e) => e.event === 'comment.created' && e.comment.id === reply.id)).toEqual({
        event: 'comment.created',
        organizationId: ws.org.id,
        boardId: board.id,
        comment: {
          id: reply.id,
          postId: post.id,
          parentId: comment.id,
          authorUserId: null,
          bodyText: 'Agreed',
          createdAt: reply.createdAt,
        },
      });
      const updated = await w.posts.retrieve(post.id);
      expect([updated.voteCount, updated.commentCount]).toEqual([2, 2]);
    });

    it('one vote per voter and post: the same user, or the same email when anonymous, is 409 and writes nothing', async () => {
      const { ws, w, post } = await setup(h);
      await w.participation.vote({ postId: post.id, email: 'x@example.com', userId: 'usr_1', notifyMe: true });
      const before = (await events(h, ws.org.id)).length;
      await expect(
        w.participation.vote({ postId: post.id, email: 'other@example.com', userId: 'usr_1', notifyMe: true }),
      ).rejects.toMatchObject({ code: 'ERR_CONFLICT' });
      await w.participation.vote({ postId: post.id, email: 'anon@example.com', notifyMe: false });
      await expect(
        w.participation.vote({ postId: post.id, email: 'ANON@example.com', notifyMe: false }),
      ).rejects.toMatchObject({ code: 'ERR_CONFLICT' });
      // The refused vote created no contact for other@example.com: nothing half-written.
      expect((await events(h, ws.org.id)).length).toBe(before + 1);
      expect((await w.posts.retrieve(post.id)).voteCount).toBe(2);
    });

    it('voteCount and commentCount of a contact follow the email hash of votes and comments (approximate)', async () => {
      const { ws, w, board, post } = await setup(h);
      const contact = (await h.request('POST', '/v1/contacts', { key: ws.key, body: { email: 'Fan@Example.com' } }))
        .body.data;
      const second = await w.posts.create(board.id, { title: 'Second' });
      await w.participation.vote({ postId: post.id, email: 'fan@example.com', notifyMe: false });
      await w.participation.vote({ postId: second.id, email: 'FAN@example.COM', notifyMe: false });
      await w.participation.comment({ postId: post.id, email: 'fan@example.com', bodyText: 'one', notifyMe: false });
      await w.participation.vote({ postId: post.id, email: 'someone@example.com', notifyMe: false });
      expect(await detail(h, ws.key, contact.id)).toMatchObject({ voteCount: 2, commentCount: 1, postCount: 0 });
      // Changing the contact's email moves the approximate counts with it.
      await h.request('PATCH', `/v1/contacts/${contact.id}`, { key: ws.key, body: { email: 'someone@example.com' } });
      expect(await detail(h, ws.key, contact.id)).toMatchObject({ voteCount: 1, commentCount: 0 });
      const other = await h.seed();
      const foreign = (await h.request('POST', '/v1/contacts', { key: other.key, body: { email: 'fan@example.com' } }))
        .body.data;
      expect(await detail(h, other.key, foreign.id)).toMatchObject({ voteCount: 0, commentCount: 0 });
    });

    it('a reply to a comment of another post is 422 on parentId; a private board is not found by the public', async () => {
      const { w, board, post } = await setup(h);
      const second = await w.posts.create(board.id, { title: 'Two' });
      const c = await w.participation.comment({
        postId: second.id,
        email: 'a@example.com',
        bodyText: 'x',
        notifyMe: false,
      });
      await expect(
        w.participation.comment({
          postId: post.id,
          email: 'a@example.com',
          parentId: c.id,
          bodyText: 'y',
          notifyMe: false,
        }),
      ).rejects.toMatchObject({
        code: 'ERR_VALIDATION',
        details: { issues: [{ path: 'parentId' }] },
      });
      const hidden = await w.boards.create({ name: 'Internal', isPublic: false });
      const internal = await w.posts.create(hidden.id, { title: 'Internal' });
      await expect(
        w.participation.post({ boardId: hidden.id, email: 'a@example.com', title: 'x', notifyMe: false }),
      ).rejects.toMatchObject({ code: 'ERR_NOT_FOUND' });
      await expect(
        w.participation.vote({ postId: internal.id, email: 'a@example.com', notifyMe: false }),
      ).rejects.toMatchObject({ code: 'ERR_NOT_FOUND' });
      await expect(
        w.participation.comment({ postId: post.id, email: 'not-an-email', bodyText: 'x', notifyMe: false }),
      ).rejects.toMatchObject({ code: 'ERR_VALIDATION' });
      await expect(
        w.participation.comment({ postId: post.id, email: 'a@example.com', bodyText: '', notifyMe: false }),
      ).rejects.toMatchObject({ code: 'ERR_VALIDATION' });
    });

    it('a workspace at its contact cap keeps the interaction without creating a contact', async () => {
      const { ws, w, post } = await setup(h, { plan: 'free', contactCap: 0 });
      const vote = await w.participation.vote({ postId: post.id, email: 'late@example.com', notifyMe: true });
      expect(vote.contactId).toBeNull();
      expect((await events(h, ws.org.id)).some((e) => e.event === 'contact.created')).toBe(false);
      expect((await events(h, ws.org.id)).some((e) => e.event === 'vote.created')).toBe(true);
    });

    it('a changelog entry moves from draft to published once, with changelog.published', async () => {
      const { ws, w, board } = await setup(h);
      const draft = await w.changelog.create({ boardId: board.id, title: 'Dark mode is here', body: 'Enjoy.' });
      expect(draft).toMatchObject({ status: 'draft', publishedAt: null, slug: 'dark-mode-is-here' });
      expect((await w.changelog.create({ boardId: board.id, title: 'Dark mode is here' })).slug).toBe(
        'dark-mode-is-here-2',
      );
      expect((await events(h, ws.org.id)).some((e) => e.event === 'changelog.published')).toBe(false);
      const published = await w.changelog.publish(draft.id);
      expect(published).toMatchObject({ status: 'published' });
      await expect(w.changelog.publish(draft.id)).rejects.toMatchObject({ code: 'ERR_CONFLICT' });
      const fired = (await events(h, ws.org.id)).filter((e) => e.event === 'changelog.published');
      expect(fired).toEqual([
        {
          event: 'changelog.published',
          organizationId: ws.org.id,
          boardId: board.id,
          entry: {
            id: draft.id,
            title: 'Dark mode is here',
            slug: 'dark-mode-is-here',
            publishedAt: published.publishedAt,
          },
        },
      ]);
      const again = await w.changelog.create({ boardId: board.id, title: 'Concurrent' });
      const results = await Promise.allSettled([
        w.changelog.publish(again.id),
        w.changelog.publish(again.id),
        w.changelog.publish(again.id),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect((await events(h, ws.org.id)).filter((e) => e.event === 'changelog.published')).toHaveLength(2);
      await expect(w.changelog.publish('chg_nope')).rejects.toMatchObject({ code: 'ERR_NOT_FOUND' });
      const other = await h.seed();
      await expect(h.engine.workspace(other.org.id).changelog.publish(again.id)).rejects.toMatchObject({
        code: 'ERR_NOT_FOUND',
      });
    });

    it('backfill imports historical users as legacy_inferred contacts, skipping emails that already have one', async () => {
      const { ws, w } = await setup(h);
      await h.request('POST', '/v1/contacts', { key: ws.key, body: { email: 'Known@example.com' } });
      const result = await w.contacts.backfill([
        {
          email: 'old1@example.com',
          name: 'Old One',
          firstSeenAt: '2024-01-01T00:00:00.000Z',
          lastSeenAt: '2024-06-01T00:00:00.000Z',
          source: 'public_vote',
        },
        { email: 'known@EXAMPLE.com', firstSeenAt: '2024-01-01T00:00:00.000Z', lastSeenAt: '2024-01-02T00:00:00.000Z' },
        { email: 'old1@example.com', firstSeenAt: '2024-01-01T00:00:00.000Z', lastSeenAt: '2024-01-02T00:00:00.000Z' },
      ]);
      expect(result.created).toHaveLength(1);
      expect(result.skipped).toBe(2);
      expect(await detail(h, ws.key, result.created[0]!)).toMatchObject({
        email: 'old1@example.com',
        name: 'Old One',
        source: 'public_vote',
        consentBasis: 'legacy_inferred',
        firstSeenAt: '2024-01-01T00:00:00.000Z',
        lastSeenAt: '2024-06-01T00:00:00.000Z',
      });
      await expect(
        w.contacts.backfill([
          { email: 'x@example.com', firstSeenAt: '2024-02-01T00:00:00.000Z', lastSeenAt: '2024-01-01T00:00:00.000Z' },
        ]),
      ).rejects.toMatchObject({
        code: 'ERR_VALIDATION',
      });
    });
  },
  { transports: ['fetch'] },
);
