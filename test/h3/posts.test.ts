import { expect, it } from 'vitest';
import {
  type ApiResponse,
  describeMatrix,
  eventPayloads as events,
  type Harness,
  type SeededWorkspace,
} from '../helpers/harness.js';

const POST_FIELDS = [
  'id',
  'organizationId',
  'boardId',
  'contactId',
  'authorUserId',
  'title',
  'slug',
  'body',
  'bodyText',
  'status',
  'moderationStatus',
  'hideFromRoadmap',
  'roadmapOrder',
  'mergedIntoId',
  'commentCount',
  'voteCount',
  'createdAt',
  'updatedAt',
  'deletedAt',
].sort();

async function setup(h: Harness) {
  const ws = await h.seed();
  const board = await h.engine.workspace(ws.org.id).boards.create({ name: 'Ideas' });
  const contact = (await h.request('POST', '/v1/contacts', { key: ws.key, body: { email: 'ann@example.com' } })).body
    .data;
  return { ws, board, contact };
}

const createPost = (h: Harness, ws: SeededWorkspace, boardId: string, body: Record<string, unknown>) =>
  h.request('POST', `/v1/boards/${boardId}/posts`, { key: ws.key, body });

async function walkContactPosts(
  h: Harness,
  key: string,
  contactId: string,
  limit: number,
  between?: () => Promise<void>,
) {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res: ApiResponse = await h.request(
      'GET',
      `/v1/contacts/${contactId}/posts?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { key },
    );
    expect(res.status).toBe(200);
    ids.push(...res.body.data.map((p: { id: string }) => p.id));
    cursor = res.body.nextCursor;
    if (between) await between();
  } while (cursor !== null && ++pages < 500);
  return ids;
}

describeMatrix('posts and boards', (h) => {
  it('GET /v1/boards lists the workspace boards oldest first, in cursor pages, and no other workspace sees them', async () => {
    const { ws } = await setup(h);
    const other = await h.seed();
    for (const name of ['Bugs', 'Roadmap', 'Integrations']) {
      h.advance(1);
      await h.engine.workspace(ws.org.id).boards.create({ name });
    }
    const all = await h.request('GET', '/v1/boards?limit=100', { key: ws.readKey });
    expect(all.status).toBe(200);
    expect(all.body.data.map((b: { name: string }) => b.name)).toEqual(['Ideas', 'Bugs', 'Roadmap', 'Integrations']);
    expect(Object.keys(all.body.data[0]).sort()).toEqual([
      'createdAt',
      'description',
      'id',
      'isPublic',
      'name',
      'organizationId',
      'slug',
      'updatedAt',
    ]);
    const first = await h.request('GET', '/v1/boards?limit=3', { key: ws.key });
    const second = await h.request('GET', `/v1/boards?limit=3&cursor=${encodeURIComponent(first.body.nextCursor)}`, {
      key: ws.key,
    });
    expect([...first.body.data, ...second.body.data].map((b: { id: string }) => b.id)).toEqual(
      all.body.data.map((b: { id: string }) => b.id),
    );
    expect(second.body.nextCursor).toBeNull();
    expect((await h.request('GET', '/v1/boards', { key: other.key })).body.data).toEqual([]);
    expect((await h.request('GET', '/v1/boards?limit=0', { key: ws.key })).status).toBe(422);
    expect((await h.request('GET', '/v1/boards?cursor=junk', { key: ws.key })).status).toBe(422);
  });

  it('POST /v1/boards/{boardId}/posts answers 201 with the Post shape field for field and emits post.created', async () => {
    const { ws, board, contact } = await setup(h);
    const res = await createPost(h, ws, board.id, {
      title: 'Dark mode, please!',
      body: { json: { type: 'doc', content: [1, 2] }, text: 'Dark mode' },
      contactId: contact.id,
    });
    expect(res.status).toBe(201);
    const post = res.body.data;
    expect(Object.keys(post).sort()).toEqual(POST_FIELDS);
    expect(post).toMatchObject({
      organizationId: ws.org.id,
      boardId: board.id,
      contactId: contact.id,
      authorUserId: null,
      title: 'Dark mode, please!',
      slug: 'dark-mode-please',
      body: JSON.stringify({ type: 'doc', content: [1, 2] }),
      bodyText: 'Dark mode',
      status: 'open',
      moderationStatus: 'approved',
      hideFromRoadmap: false,
      roadmapOrder: null,
      mergedIntoId: null,
      commentCount: 0,
      voteCount: 0,
      deletedAt: null,
    });
    expect(post.id).toMatch(/^post_[0-9a-z]{26}$/);
    expect((await events(h, ws.org.id)).at(-1)).toEqual({
      event: 'post.created',
      organizationId: ws.org.id,
      boardId: board.id,
      post: { id: post.id, title: post.title, slug: post.slug, status: 'open', createdAt: post.createdAt },
    });
    const bare = (await createPost(h, ws, board.id, { title: 'No body' })).body.data;
    expect([bare.body, bare.bodyText, bare.contactId]).toEqual(['', '', null]);
  });

  it('slugs derive from the title and are unique within the board (-2, -3), per board', async () => {
    const { ws, board } = await setup(h);
    const other = await h.engine.workspace(ws.org.id).boards.create({ name: 'Other' });
    const slugs = [];
    for (let i = 0; i < 3; i++)
      slugs.push((await createPost(h, ws, board.id, { title: 'Export to CSV' })).body.data.slug);
    expect(slugs).toEqual(['export-to-csv', 'export-to-csv-2', 'export-to-csv-3']);
    expect((await createPost(h, ws, other.id, { title: 'Export to CSV' })).body.data.slug).toBe('export-to-csv');
    expect((await createPost(h, ws, board.id, { title: 'Éçà ünïcode' })).body.data.slug).toBe('eca-unicode');
    expect((await createPost(h, ws, board.id, { title: '!!!' })).body.data.slug).toBe('untitled');
    // Every script is transliterated: a title in Cyrillic, Greek or Chinese is not `untitled`.
    expect((await createPost(h, ws, board.id, { title: 'Тёмная тема' })).body.data.slug).toBe('temnaya-tema');
    expect((await createPost(h, ws, board.id, { title: 'Ελληνικά μενού' })).body.data.slug).toBe('ellinika-menoy');
    expect((await createPost(h, ws, board.id, { title: '深色模式' })).body.data.slug).toBe('shensemoshi');
    const long = (await createPost(h, ws, board.id, { title: 'word '.repeat(40).trim() })).body.data.slug;
    expect(long.length).toBeLessThanOrEqual(80);
    expect(long).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    const concurrent = await Promise.all(
      Array.from({ length: 5 }, () => createPost(h, ws, board.id, { title: 'Same time' })),
    );
    expect(concurrent.every((r) => r.status === 201)).toBe(true);
    expect(new Set(concurrent.map((r) => r.body.data.slug)).size).toBe(5);
  });

  it('every bound of post create is 422 ERR_VALIDATION and writes nothing', async () => {
    const { ws, board } = await setup(h);
    const bad: Record<string, unknown>[] = [
      {},
      { title: '' },
      { title: 'x'.repeat(201) },
      { title: 5 },
      { title: 'ok', body: { json: {}, text: 'x'.repeat(50_001) } },
      { title: 'ok', body: { text: 'no json' } },
      { title: 'ok', body: { json: {} } },
      { title: 'ok', body: 'a string' },
      { title: 'ok', body: { json: {}, text: 'x', extra: 1 } },
      { title: 'ok', tagIds: ['a', 'b', 'c', 'd'] },
      { title: 'ok', tagIds: [''] },
      { title: 'ok', contactId: '' },
      { title: 'ok', status: 'open' },
    ];
    for (const body of bad) {
      const res = await createPost(h, ws, board.id, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(res.body.error.code).toBe('ERR_VALIDATION');
    }
    expect(
      (await createPost(h, ws, board.id, { title: 'x'.repeat(200), body: { json: null, text: 'x'.repeat(50_000) } }))
        .status,
    ).toBe(201);
    expect((await events(h, ws.org.id)).filter((e) => e.event === 'post.created')).toHaveLength(1);
  });

  it('a contactId or tag not in the workspace is 422 on that field; a board not in it is 404', async () => {
    const { ws, board } = await setup(h);
    const other = await setup(h);
    const foreignTag = await h.engine.workspace(other.ws.org.id).tags.create({ name: 'Foreign' });
    const tag = await h.engine.workspace(ws.org.id).tags.create({ name: 'UX' });
    const c = await createPost(h, ws, board.id, { title: 't', contactId: other.contact.id });
    expect(c.status).toBe(422);
    expect(c.body.error.details.issues[0].path).toBe('contactId');
    const t = await createPost(h, ws, board.id, { title: 't', tagIds: [tag.id, foreignTag.id] });
    expect(t.status).toBe(422);
    expect(t.body.error.details.issues[0].path).toBe('tagIds');
    expect((await createPost(h, ws, board.id, { title: 't', tagIds: [tag.id] })).status).toBe(201);
    expect((await createPost(h, ws, other.board.id, { title: 't' })).status).toBe(404);
    expect((await createPost(h, ws, 'brd_nope', { title: 't' })).status).toBe(404);
    expect(
      (await h.request('POST', `/v1/boards/${board.id}/posts`, { key: ws.readKey, body: { title: 't' } })).status,
    ).toBe(403);
  });

  it('PATCH /v1/posts/{postId} changes what is sent and answers 200 with the Post', async () => {
    const { ws, board, contact } = await setup(h);
    const post = (await createPost(h, ws, board.id, { title: 'Old' })).body.data;
    h.advance(5);
    const res = await h.request('PATCH', `/v1/posts/${post.id}`, {
      key: ws.key,
      body: {
        title: 'New title',
        body: { json: { v: 2 }, text: 'two' },
        hideFromRoadmap: true,
        slug: 'custom-slug',
        contactId: contact.id,
      },
    });
    h.advance(-5);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(POST_FIELDS);
    expect(res.body.data).toMatchObject({
      title: 'New title',
      body: '{"v":2}',
      bodyText: 'two',
      hideFromRoadmap: true,
      slug: 'custom-slug',
      contactId: contact.id,
      status: 'open',
    });
    expect(res.body.data.updatedAt).not.toBe(post.updatedAt);
    const same = await h.request('PATCH', `/v1/posts/${post.id}`, { key: ws.key, body: {} });
    expect(same.body.data.updatedAt).toBe(res.body.data.updatedAt);
  });

  it('post.status_changed is emitted with previousStatus only when the status really changes', async () => {
    const { ws, board } = await setup(h);
    const post = (await createPost(h, ws, board.id, { title: 'Status' })).body.data;
    for (const status of ['planned', 'planned', 'in_progress', 'shipped']) {
      expect(
        (await h.request('PATCH', `/v1/posts/${post.id}`, { key: ws.key, body: { status } })).body.data.status,
      ).toBe(status);
    }
    const changes = (await events(h, ws.org.id)).filter((e) => e.event === 'post.status_changed');
    expect(changes.map((e) => [e.previousStatus, e.post.status])).toEqual([
      ['open', 'planned'],
      ['planned', 'in_progress'],
      ['in_progress', 'shipped'],
    ]);
    expect(changes[0]).toEqual({
      event: 'post.status_changed',
      organizationId: ws.org.id,
      boardId: board.id,
      previousStatus: 'open',
      post: { id: post.id, title: 'Status', slug: post.slug, status: 'planned', createdAt: post.createdAt },
    });
    expect((await h.request('PATCH', `/v1/posts/${post.id}`, { key: ws.key, body: { title: 'Renamed' } })).status).toBe(
      200,
    );
    expect((await events(h, ws.org.id)).filter((e) => e.event === 'post.status_changed')).toHaveLength(3);
  });

  it('PATCH bounds: slug pattern and length, status values, tags, unknown fields are 422; a slug taken in the board is 409', async () => {
    const { ws, board } = await setup(h);
    const a = (await createPost(h, ws, board.id, { title: 'Alpha' })).body.data;
    const b = (await createPost(h, ws, board.id, { title: 'Beta' })).body.data;
    for (const body of [
      { slug: 'Upper' },
      { slug: 'a--b' },
      { slug: '-a' },
      { slug: 'a-' },
      { slug: '' },
      { slug: 'a'.repeat(81) },
      { slug: 'sp ace' },
      { status: 'done' },
      { status: null },
      { title: '' },
      { title: 'x'.repeat(201) },
      { tagIds: ['1', '2', '3', '4'] },
      { hideFromRoadmap: 'yes' },
      { contactId: '' },
      { moderationStatus: 'spam' },
      { body: { json: 1, text: 'x'.repeat(50_001) } },
    ]) {
      const res = await h.request('PATCH', `/v1/posts/${b.id}`, { key: ws.key, body });
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(422);
    }
    expect(
      (await h.request('PATCH', `/v1/posts/${b.id}`, { key: ws.key, body: { slug: 'a'.repeat(80) } })).status,
    ).toBe(200);
    const taken = await h.request('PATCH', `/v1/posts/${b.id}`, { key: ws.key, body: { slug: a.slug } });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('ERR_CONFLICT');
  });

  it('PATCH of an unknown, foreign or soft-deleted post is 404', async () => {
    const { ws, board } = await setup(h);
    const other = await setup(h);
    const post = (await createPost(h, ws, board.id, { title: 'Mine' })).body.data;
    expect((await h.request('PATCH', '/v1/posts/post_nope', { key: ws.key, body: { title: 'x' } })).status).toBe(404);
    expect((await h.request('PATCH', `/v1/posts/${post.id}`, { key: other.ws.key, body: { title: 'x' } })).status).toBe(
      404,
    );
    await h.engine.workspace(ws.org.id).posts.delete(post.id);
    expect((await h.request('PATCH', `/v1/posts/${post.id}`, { key: ws.key, body: { title: 'x' } })).status).toBe(404);
  });

  it('GET /v1/contacts/{id}/posts spans boards newest first; postCount equals a full walk; deleted posts are left out', async () => {
    const { ws, board, contact } = await setup(h);
    const other = await h.engine.workspace(ws.org.id).boards.create({ name: 'Second' });
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      h.advance(1);
      ids.push(
        (await createPost(h, ws, i % 2 ? other.id : board.id, { title: `p${i}`, contactId: contact.id })).body.data.id,
      );
    }
    await createPost(h, ws, board.id, { title: 'not theirs' });
    await h.engine.workspace(ws.org.id).posts.delete(ids[3]!);
    const walked = await walkContactPosts(h, ws.key, contact.id, 2);
    expect(walked).toEqual(ids.filter((_, i) => i !== 3).reverse());
    expect((await h.request('GET', `/v1/contacts/${contact.id}`, { key: ws.key })).body.data.postCount).toBe(
      walked.length,
    );
    const list = (await h.request('GET', `/v1/contacts?limit=100`, { key: ws.key })).body.data.find(
      (c: { id: string }) => c.id === contact.id,
    );
    expect(list.postCount).toBe(6);
    const page = await h.request('GET', `/v1/contacts/${contact.id}/posts`, { key: ws.readKey });
    expect(Object.keys(page.body.data[0]).sort()).toEqual(POST_FIELDS);
    for (const qs of ['limit=0', 'limit=101', 'cursor=junk', 'sort=created']) {
      expect((await h.request('GET', `/v1/contacts/${contact.id}/posts?${qs}`, { key: ws.key })).status, qs).toBe(422);
    }
    expect((await h.request('GET', '/v1/contacts/ctc_nope/posts', { key: ws.key })).status).toBe(404);
    // Another workspace's key: the contact and its posts are indistinguishable from absent ones.
    const stranger = await h.seed();
    expect((await h.request('GET', `/v1/contacts/${contact.id}/posts`, { key: stranger.key })).status).toBe(404);
  });

  it('per-contact cursors never repeat or skip while posts are inserted during the walk', async () => {
    const { ws, board, contact } = await setup(h);
    const before: string[] = [];
    for (let i = 0; i < 9; i++)
      before.push((await createPost(h, ws, board.id, { title: `b${i}`, contactId: contact.id })).body.data.id);
    const walked = await walkContactPosts(h, ws.key, contact.id, 2, async () => {
      await createPost(h, ws, board.id, { title: 'during', contactId: contact.id });
    });
    expect(new Set(walked).size).toBe(walked.length);
    for (const id of before) expect(walked).toContain(id);
  });

  it('attaching and detaching moves postCount; a deleted contact keeps its posts with contactId null and they still emit', async () => {
    const { ws, board, contact } = await setup(h);
    const post = (await createPost(h, ws, board.id, { title: 'Attach me' })).body.data;
    const count = async () =>
      (await h.request('GET', `/v1/contacts/${contact.id}`, { key: ws.key })).body.data.postCount;
    expect(await count()).toBe(0);
    await h.request('PATCH', `/v1/posts/${post.id}`, { key: ws.key, body: { contactId: contact.id } });
    expect(await count()).toBe(1);
    await h.request('PATCH', `/v1/posts/${post.id}`, { key: ws.key, body: { contactId: null } });
    expect(await count()).toBe(0);
    await h.request('PATCH', `/v1/posts/${post.id}`, { key: ws.key, body: { contactId: contact.id } });
    expect((await h.request('DELETE', `/v1/contacts/${contact.id}`, { key: ws.key })).status).toBe(200);
    expect((await h.request('GET', `/v1/contacts/${contact.id}/posts`, { key: ws.key })).status).toBe(404);
    const changed = await h.request('PATCH', `/v1/posts/${post.id}`, { key: ws.key, body: { status: 'declined' } });
    expect(changed.body.data.contactId).toBeNull();
    expect((await events(h, ws.org.id)).at(-1)).toMatchObject({
      event: 'post.status_changed',
      previousStatus: 'open',
      post: { id: post.id, status: 'declined' },
    });
    expect((await createPost(h, ws, board.id, { title: 'After delete' })).status).toBe(201);
  });

  it('a workspace in read-only billing refuses post writes but lists', async () => {
    const { ws, board, contact } = await setup(h);
    const post = (await createPost(h, ws, board.id, { title: 'x', contactId: contact.id })).body.data;
    await h.engine.organizations.update(ws.org.id, { billingState: 'read_only' });
    expect((await createPost(h, ws, board.id, { title: 'y' })).body.error.code).toBe('ERR_FORBIDDEN');
    expect(
      (await h.request('PATCH', `/v1/posts/${post.id}`, { key: ws.key, body: { title: 'z' } })).body.error.code,
    ).toBe('ERR_FORBIDDEN');
    expect((await h.request('GET', `/v1/contacts/${contact.id}/posts`, { key: ws.key })).status).toBe(200);
    expect((await h.request('GET', '/v1/boards', { key: ws.key })).status).toBe(200);
  });
});
