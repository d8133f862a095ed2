import { expect, it } from 'vitest';
import { OPERATIONS } from '../../src/contract/index.js';
import { describeMatrix, eventPayloads } from '../helpers/harness.js';

describeMatrix('boards', (h) => {
  it('create (201): the slug from the name, numbered when taken, or given; a blank description is none', async () => {
    const { org, key } = await h.seed();
    const create = (body: Record<string, unknown>) => h.request('POST', '/v1/boards', { key, body });
    const first = await create({ name: 'Feature requests', description: '  What to build next.  ' });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({
      organizationId: org.id,
      name: 'Feature requests',
      description: 'What to build next.',
      slug: 'feature-requests',
      isPublic: true,
    });
    expect(first.body.data.id).toMatch(/^brd_/);
    const second = await create({ name: 'Feature requests', description: '   ', isPublic: false });
    expect(second.body.data).toMatchObject({ slug: 'feature-requests-2', description: null, isPublic: false });
    expect((await create({ name: 'Bugs', slug: 'defects' })).body.data.slug).toBe('defects');
    const listed = await h.request('GET', '/v1/boards', { key });
    expect(listed.body.data.map((b: { slug: string }) => b.slug)).toEqual([
      'feature-requests',
      'feature-requests-2',
      'defects',
    ]);
  });

  it('refuses bad input in the documented envelope, and writes nothing', async () => {
    const { key } = await h.seed();
    const refused = async (body: Record<string, unknown>) => {
      const res = await h.request('POST', '/v1/boards', { key, body });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('ERR_VALIDATION');
      return res.body.error.details.issues.map((i: { path: string; message: string }) => `${i.path}: ${i.message}`);
    };
    expect(await refused({ name: '' })).toEqual(['name: name must be 1 to 200 characters']);
    expect(await refused({ name: 'A', description: 'x'.repeat(501) })).toEqual([
      'description: description must be at most 500 characters',
    ]);
    expect(await refused({ name: 'A', slug: 'Not A Slug' })).toEqual([
      'slug: slug must be lower-case letters and digits joined by single hyphens',
    ]);
    expect(await refused({ name: 'A', visibility: 'private' })).toEqual([
      'visibility: visibility is not a field or parameter this operation takes',
    ]);
    expect((await h.request('GET', '/v1/boards', { key })).body.data).toEqual([]);
  });

  it('retrieve and update, each in its own workspace only; a slug another board has is 409', async () => {
    const { key, readKey } = await h.seed();
    const other = await h.seed();
    const board = (await h.request('POST', '/v1/boards', { key, body: { name: 'Ideas' } })).body.data;
    await h.request('POST', '/v1/boards', { key, body: { name: 'Bugs' } });
    expect((await h.request('GET', `/v1/boards/${board.id}`, { key: readKey })).body.data).toEqual(board);
    expect((await h.request('GET', `/v1/boards/${board.id}`, { key: other.key })).status).toBe(404);
    expect((await h.request('PATCH', `/v1/boards/${board.id}`, { key: other.key, body: { name: 'X' } })).status).toBe(
      404,
    );
    expect((await h.request('PATCH', `/v1/boards/${board.id}`, { key: readKey, body: { name: 'X' } })).status).toBe(
      403,
    );

    h.advance(1000);
    const patched = await h.request('PATCH', `/v1/boards/${board.id}`, {
      key,
      body: { name: 'Product ideas', description: 'Tell us.', isPublic: false, slug: 'product-ideas' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({
      id: board.id,
      name: 'Product ideas',
      description: 'Tell us.',
      isPublic: false,
      slug: 'product-ideas',
    });
    expect(patched.body.data.updatedAt > board.updatedAt).toBe(true);
    // Only what is given changes; null clears the description.
    const cleared = await h.request('PATCH', `/v1/boards/${board.id}`, { key, body: { description: null } });
    expect(cleared.body.data).toMatchObject({ name: 'Product ideas', description: null, isPublic: false });
    const taken = await h.request('PATCH', `/v1/boards/${board.id}`, { key, body: { slug: 'bugs' } });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({
      code: 'ERR_CONFLICT',
      message: 'slug bugs is already taken by another board',
    });
    expect((await h.request('GET', `/v1/boards/${board.id}`, { key })).body.data.slug).toBe('product-ideas');
  });

  it('delete keeps a board with posts (409) unless force=true, then its posts go with it, announced', async () => {
    const { org, key } = await h.seed();
    const empty = (await h.request('POST', '/v1/boards', { key, body: { name: 'Empty' } })).body.data;
    const gone = await h.request('DELETE', `/v1/boards/${empty.id}`, { key });
    expect(gone.status).toBe(200);
    expect(gone.body.data).toEqual({ id: empty.id, deleted: true, deletedPosts: 0, deletedChangelogEntries: 0 });
    expect((await h.request('GET', `/v1/boards/${empty.id}`, { key })).status).toBe(404);
    expect((await h.request('DELETE', `/v1/boards/${empty.id}`, { key })).status).toBe(404);

    const board = (await h.request('POST', '/v1/boards', { key, body: { name: 'Ideas' } })).body.data;
    const keep = (await h.request('POST', '/v1/boards', { key, body: { name: 'Keep' } })).body.data;
    const post = async (boardId: string, title: string) =>
      (await h.request('POST', `/v1/boards/${boardId}/posts`, { key, body: { title } })).body.data;
    const a = await post(board.id, 'Dark mode');
    const b = await post(board.id, 'Export to CSV');
    const kept = await post(keep.id, 'Stays');

    const refused = await h.request('DELETE', `/v1/boards/${board.id}`, { key });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(
      `Board ${board.id} has 2 posts and 0 changelog entries; delete with force=true to delete them with it.`,
    );
    const badForce = await h.request('DELETE', `/v1/boards/${board.id}?force=yes`, { key });
    expect(badForce.status).toBe(422);
    expect(badForce.body.error.details.issues[0].path).toBe('force');
    expect((await h.request('GET', `/v1/posts/${a.id}`, { key })).status).toBe(200);

    const forced = await h.request('DELETE', `/v1/boards/${board.id}?force=true`, { key });
    expect(forced.body.data).toEqual({ id: board.id, deleted: true, deletedPosts: 2, deletedChangelogEntries: 0 });
    expect((await h.request('GET', `/v1/posts/${a.id}`, { key })).status).toBe(404);
    expect((await h.request('GET', `/v1/posts/${kept.id}`, { key })).status).toBe(200);
    const deleted = (await eventPayloads(h, org.id)).filter((e) => e.event === 'post.deleted');
    expect(deleted.map((e) => [e.boardId, e.post.id]).sort()).toEqual(
      [
        [board.id, a.id],
        [board.id, b.id],
      ].sort(),
    );
    expect(deleted[0].post).toEqual({
      id: expect.any(String),
      title: expect.any(String),
      slug: expect.any(String),
      status: 'open',
      createdAt: expect.any(String),
    });
  });

  it('is in the contract: five operations, each with its agent tool and client method', () => {
    const rows = Object.entries(OPERATIONS).filter(([, op]) => op.resource === 'boards');
    expect(rows.map(([id, op]) => [id, op.method, op.path, op.tool, op.client])).toEqual([
      ['listBoards', 'GET', '/v1/boards', 'list_boards', 'boards.list'],
      ['createBoard', 'POST', '/v1/boards', 'create_board', 'boards.create'],
      ['retrieveBoard', 'GET', '/v1/boards/:boardId', 'get_board', 'boards.retrieve'],
      ['updateBoard', 'PATCH', '/v1/boards/:boardId', 'update_board', 'boards.update'],
      ['deleteBoard', 'DELETE', '/v1/boards/:boardId', 'delete_board', 'boards.delete'],
    ]);
  });
});
