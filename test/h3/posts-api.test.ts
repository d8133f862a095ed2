import { expect, it } from 'vitest';
import { OPERATIONS } from '../../src/contract/index.js';
import { describeMatrix, eventPayloads, type Harness } from '../helpers/harness.js';

/** A workspace with a board, three posts and contacts who pay: Acme's two people, and Bo on their own. */
async function workspace(h: Harness) {
  const { org, key, readKey } = await h.seed();
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await h.request(method, path, { key, ...(body === undefined ? {} : { body }) });
    return res;
  };
  const board = (await call('POST', '/v1/boards', { name: 'Ideas' })).body.data;
  const other = (await call('POST', '/v1/boards', { name: 'Bugs' })).body.data;
  const contact = async (id: string, body: Record<string, unknown>) =>
    (await call('POST', '/v1/contacts/identify', { externalUserId: id, email: `${id}@example.com`, ...body })).body
      .data;
  const acme = [{ externalCompanyId: 'acme', name: 'Acme', mrrCents: 200_000, currency: 'USD' }];
  const ada = await contact('ada', { name: 'Ada', mrrCents: 1000, currency: 'USD', companies: acme });
  const alan = await contact('alan', { name: 'Alan', mrrCents: 3000, currency: 'USD', companies: acme });
  const bo = await contact('bo', { name: 'Bo', mrrCents: 5000, currency: 'USD' });
  const free = await contact('free', { name: 'Free' });
  const tag = (await h.engine.workspace(org.id).tags.create({ name: 'Mobile' })).id;
  const post = async (boardId: string, body: Record<string, unknown>) => {
    h.advance(1000);
    return (await call('POST', `/v1/boards/${boardId}/posts`, body)).body.data;
  };
  const dark = await post(board.id, { title: 'Dark mode', contactId: ada.id, tagIds: [tag] });
  const csv = await post(board.id, { title: 'Export to CSV', body: { json: {}, text: 'spreadsheets please' } });
  const crash = await post(other.id, { title: 'Crash on start', contactId: bo.id });
  return { org, key, readKey, call, board, other, ada, alan, bo, free, tag, dark, csv, crash };
}

describeMatrix('posts, votes over REST', (h) => {
  it('votes for a contact: 201, then the same vote (200) again; counted, with impact each company once', async () => {
    const w = await workspace(h);
    const first = await w.call('POST', `/v1/posts/${w.dark.id}/votes`, { contactId: w.ada.id });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({
      postId: w.dark.id,
      contactId: w.ada.id,
      userId: 'ada',
      voter: { id: w.ada.id, externalUserId: 'ada', name: 'Ada', mrrCents: 1000, currency: 'USD' },
      companies: [{ externalCompanyId: 'acme', name: 'Acme' }],
    });
    const again = await w.call('POST', `/v1/posts/${w.dark.id}/votes`, { contactId: w.ada.id });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    for (const c of [w.alan, w.bo, w.free]) await w.call('POST', `/v1/posts/${w.dark.id}/votes`, { contactId: c.id });

    const post = (await w.call('GET', `/v1/posts/${w.dark.id}`)).body.data;
    expect(post.voteCount).toBe(4);
    // Acme once (200,000) and Bo (5,000): 2 people of Acme bring the company once.
    expect(post.impact).toEqual([{ currency: 'USD', mrrCents: 205_000, companies: 1, people: 1 }]);
    expect(post.tags).toEqual([{ id: w.tag, name: 'Mobile', slug: 'mobile' }]);

    const refused = await w.call('POST', `/v1/posts/${w.dark.id}/votes`, { contactId: 'ctc_nope' });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details.issues[0]).toMatchObject({ path: 'contactId', code: 'not_found' });
    const other = await h.seed();
    expect(
      (await h.request('POST', `/v1/posts/${w.dark.id}/votes`, { key: other.key, body: { contactId: w.ada.id } }))
        .status,
    ).toBe(404);
    expect(
      (await h.request('POST', `/v1/posts/${w.dark.id}/votes`, { key: w.readKey, body: { contactId: w.ada.id } }))
        .status,
    ).toBe(403);
  });

  it("lists a post's votes newest first or by revenue in a currency, page by page; a vote taken back stops counting", async () => {
    const { org, ...w } = await workspace(h);
    for (const c of [w.ada, w.alan, w.bo, w.free]) {
      h.advance(1000);
      await w.call('POST', `/v1/posts/${w.dark.id}/votes`, { contactId: c.id });
    }
    const names = (res: { body: { data: Array<{ voter: { name: string } | null }> } }) =>
      res.body.data.map((v) => v.voter?.name);
    const page1 = await w.call('GET', `/v1/posts/${w.dark.id}/votes?limit=3`);
    expect(names(page1)).toEqual(['Free', 'Bo', 'Alan']);
    const page2 = await w.call('GET', `/v1/posts/${w.dark.id}/votes?limit=3&cursor=${page1.body.nextCursor}`);
    expect(names(page2)).toEqual(['Ada']);
    expect(page2.body.nextCursor).toBeNull();
    const byRevenue = await w.call('GET', `/v1/posts/${w.dark.id}/votes?sort=mrr&currency=USD&limit=2`);
    expect(names(byRevenue)).toEqual(['Bo', 'Alan']);
    const rest = await w.call(
      'GET',
      `/v1/posts/${w.dark.id}/votes?sort=mrr&currency=USD&limit=2&cursor=${byRevenue.body.nextCursor}`,
    );
    expect(names(rest)).toEqual(['Ada']);
    // A cursor of one order does not continue another.
    expect((await w.call('GET', `/v1/posts/${w.dark.id}/votes?cursor=${byRevenue.body.nextCursor}`)).status).toBe(422);
    const noCurrency = await w.call('GET', `/v1/posts/${w.dark.id}/votes?sort=mrr`);
    expect(noCurrency.status).toBe(422);
    expect(noCurrency.body.error.details.issues[0]).toMatchObject({
      path: 'currency',
      message: 'currency is required with sort=mrr',
    });

    const taken = await w.call('DELETE', `/v1/posts/${w.dark.id}/votes/${w.bo.id}`);
    expect(taken.status).toBe(200);
    expect(taken.body.data).toEqual({ id: expect.stringMatching(/^vote_/), deleted: true });
    expect((await w.call('DELETE', `/v1/posts/${w.dark.id}/votes/${w.bo.id}`)).status).toBe(404);
    const post = (await w.call('GET', `/v1/posts/${w.dark.id}`)).body.data;
    expect(post.voteCount).toBe(3);
    expect(post.impact).toEqual([{ currency: 'USD', mrrCents: 200_000, companies: 1, people: 0 }]);
    const events = (await eventPayloads(h, org.id)).filter((e) => e.event.startsWith('vote.'));
    expect(events.map((e) => e.event)).toEqual([
      'vote.created',
      'vote.created',
      'vote.created',
      'vote.created',
      'vote.deleted',
    ]);
    expect(events[4].vote).toEqual({ ...events[2].vote });
    expect(events[4].boardId).toBe(w.board.id);
  });

  it('lists posts with filters and sorts, each with tags and impact; cursors stay in their order', async () => {
    const w = await workspace(h);
    await w.call('POST', `/v1/posts/${w.csv.id}/votes`, { contactId: w.bo.id });
    await w.call('POST', `/v1/posts/${w.csv.id}/votes`, { contactId: w.free.id });
    await w.call('POST', `/v1/posts/${w.dark.id}/votes`, { contactId: w.ada.id });
    const titles = async (query: string) => {
      const res = await w.call('GET', `/v1/posts${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.map((p: { title: string }) => p.title);
    };
    expect(await titles('')).toEqual(['Crash on start', 'Export to CSV', 'Dark mode']);
    expect(await titles(`?boardId=${w.board.id}`)).toEqual(['Export to CSV', 'Dark mode']);
    expect(await titles(`?tagId=${w.tag}`)).toEqual(['Dark mode']);
    expect(await titles(`?contactId=${w.bo.id}`)).toEqual(['Crash on start']);
    expect(await titles(`?createdAfter=${w.csv.createdAt}`)).toEqual(['Crash on start']);
    expect(await titles('?sort=votes')).toEqual(['Export to CSV', 'Dark mode', 'Crash on start']);
    expect(await titles('?sort=impact&currency=USD')).toEqual(['Dark mode', 'Export to CSV']);
    expect(await titles('?sort=trending')).toEqual(['Export to CSV', 'Dark mode']);
    expect(await titles('?q=spreadsheets')).toEqual(['Export to CSV']);
    expect(await titles('?q="dark mode"')).toEqual(['Dark mode']);

    const listed = (await w.call('GET', `/v1/posts?tagId=${w.tag}`)).body.data[0];
    expect(listed).toMatchObject({
      id: w.dark.id,
      voteCount: 1,
      commentCount: 0,
      tags: [{ id: w.tag, name: 'Mobile', slug: 'mobile' }],
      impact: [{ currency: 'USD', mrrCents: 200_000, companies: 1, people: 0 }],
    });
    const page1 = await w.call('GET', '/v1/posts?sort=votes&limit=2');
    const page2 = await w.call('GET', `/v1/posts?sort=votes&limit=2&cursor=${page1.body.nextCursor}`);
    expect(page2.body.data.map((p: { title: string }) => p.title)).toEqual(['Crash on start']);
    expect((await w.call('GET', `/v1/posts?sort=newest&cursor=${page1.body.nextCursor}`)).status).toBe(422);

    const refused = async (query: string) => {
      const res = await w.call('GET', `/v1/posts${query}`);
      expect(res.status).toBe(422);
      return res.body.error.details.issues.map((i: { path: string; message: string }) => `${i.path}: ${i.message}`);
    };
    expect(await refused('?sort=impact')).toEqual(['currency: currency is required with sort=impact']);
    expect(await refused('?q=dark&sort=votes')).toEqual([
      'sort: sort cannot be used with q: matches come most relevant first',
    ]);
    expect(await refused('?status=done')).toEqual([expect.stringMatching(/^status: /)]);
    expect(await refused('?createdAfter=yesterday')).toEqual([expect.stringMatching(/^createdAfter: /)]);
  });

  it('update announces what changed (post.updated); delete is soft and announced; each only in its workspace', async () => {
    const { org, ...w } = await workspace(h);
    await w.call('PATCH', `/v1/posts/${w.dark.id}`, { title: 'Dark theme', tagIds: [], status: 'planned' });
    await w.call('PATCH', `/v1/posts/${w.dark.id}`, { title: 'Dark theme' });
    const updated = (await eventPayloads(h, org.id)).filter((e) => e.event === 'post.updated');
    expect(updated).toHaveLength(1);
    expect(updated[0].changes).toEqual({
      title: { from: 'Dark mode', to: 'Dark theme' },
      status: { from: 'open', to: 'planned' },
      tagIds: { from: [w.tag], to: [] },
    });

    const other = await h.seed();
    expect((await h.request('GET', `/v1/posts/${w.dark.id}`, { key: other.key })).status).toBe(404);
    expect((await h.request('DELETE', `/v1/posts/${w.dark.id}`, { key: other.key })).status).toBe(404);
    expect((await h.request('DELETE', `/v1/posts/${w.dark.id}`, { key: w.readKey })).status).toBe(403);
    const gone = await w.call('DELETE', `/v1/posts/${w.dark.id}`);
    expect(gone.body.data).toEqual({ id: w.dark.id, deleted: true });
    expect((await w.call('GET', `/v1/posts/${w.dark.id}`)).status).toBe(404);
    expect((await w.call('DELETE', `/v1/posts/${w.dark.id}`)).status).toBe(404);
    expect((await w.call('GET', '/v1/posts')).body.data.map((p: { id: string }) => p.id)).not.toContain(w.dark.id);
    const deleted = (await eventPayloads(h, org.id)).filter((e) => e.event === 'post.deleted');
    expect(deleted).toEqual([
      {
        event: 'post.deleted',
        organizationId: org.id,
        boardId: w.board.id,
        post: { id: w.dark.id, title: 'Dark theme', slug: w.dark.slug, status: 'planned', createdAt: w.dark.createdAt },
      },
    ]);
  });

  it('merges a duplicate: its votes move (each voter once), post.merged names both; refusals are clear', async () => {
    const { org, ...w } = await workspace(h);
    await w.call('POST', `/v1/posts/${w.csv.id}/votes`, { contactId: w.bo.id });
    await w.call('POST', `/v1/posts/${w.csv.id}/votes`, { contactId: w.ada.id });
    await w.call('POST', `/v1/posts/${w.dark.id}/votes`, { contactId: w.ada.id });
    const merged = await w.call('POST', `/v1/posts/${w.csv.id}/merge`, { intoPostId: w.dark.id });
    expect(merged.status).toBe(200);
    expect(merged.body.data).toMatchObject({ id: w.csv.id, status: 'duplicate', mergedIntoId: w.dark.id });
    const target = (await w.call('GET', `/v1/posts/${w.dark.id}`)).body.data;
    expect(target.voteCount).toBe(2);
    expect(target.impact).toEqual([{ currency: 'USD', mrrCents: 205_000, companies: 1, people: 1 }]);
    const event = (await eventPayloads(h, org.id)).find((e) => e.event === 'post.merged');
    expect(event).toMatchObject({
      boardId: w.board.id,
      post: { id: w.csv.id, status: 'duplicate' },
      into: { id: w.dark.id, title: 'Dark mode' },
    });
    // A merged post is listed (status duplicate, mergedIntoId), and takes no votes.
    expect(
      (await w.call('GET', '/v1/posts?status=duplicate')).body.data.map(
        (p: { mergedIntoId: string }) => p.mergedIntoId,
      ),
    ).toEqual([w.dark.id]);
    expect((await w.call('POST', `/v1/posts/${w.csv.id}/votes`, { contactId: w.free.id })).status).toBe(409);

    const again = await w.call('POST', `/v1/posts/${w.csv.id}/merge`, { intoPostId: w.crash.id });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(`Post ${w.csv.id} is already merged into ${w.dark.id}.`);
    const self = await w.call('POST', `/v1/posts/${w.crash.id}/merge`, { intoPostId: w.crash.id });
    expect(self.status).toBe(422);
    expect(self.body.error.details.issues[0]).toMatchObject({ path: 'intoPostId' });
    expect((await w.call('POST', `/v1/posts/${w.crash.id}/merge`, { intoPostId: 'post_nope' })).status).toBe(404);
  });

  it('is in the contract: each operation with its agent tool and client method', () => {
    const rows = Object.entries(OPERATIONS).filter(([, op]) => op.resource === 'posts' || op.resource === 'votes');
    expect(rows.map(([id, op]) => [id, op.tool, op.client])).toEqual([
      ['listContactPosts', 'list_contact_posts', 'contacts.listPosts'],
      ['listPosts', 'list_posts', 'posts.list'],
      ['retrievePost', 'get_post', 'posts.retrieve'],
      ['createPost', 'create_post', 'posts.create'],
      ['updatePost', 'update_post', 'posts.update'],
      ['deletePost', 'delete_post', 'posts.delete'],
      ['mergePost', 'merge_post', 'posts.merge'],
      ['listPostVotes', 'list_post_votes', 'votes.list'],
      ['createVote', 'create_vote', 'votes.create'],
      ['deleteVote', 'delete_vote', 'votes.delete'],
    ]);
  });
});
