import { expect, it } from 'vitest';
import { OPERATIONS } from '../../src/contract/index.js';
import { describeMatrix, eventPayloads } from '../helpers/harness.js';

describeMatrix('tags over REST', (h) => {
  it('creates, lists, renames (the slug follows; a taken one is 409) and deletes tags, each in its workspace', async () => {
    const { key, readKey } = await h.seed();
    const other = await h.seed();
    const call = (method: string, path: string, body?: unknown) =>
      h.request(method, path, { key, ...(body === undefined ? {} : { body }) });
    const mobile = await call('POST', '/v1/tags', { name: ' Mobile app ' });
    expect(mobile.status).toBe(201);
    expect(mobile.body.data).toMatchObject({ name: 'Mobile app', slug: 'mobile-app' });
    expect(mobile.body.data.id).toMatch(/^tag_/);
    h.advance(1000);
    const billing = (await call('POST', '/v1/tags', { name: 'Billing' })).body.data;
    const dup = await call('POST', '/v1/tags', { name: 'mobile APP' });
    expect(dup.status).toBe(409);
    expect(dup.body.error.message).toBe('A tag with slug mobile-app already exists.');
    const page = await h.request('GET', '/v1/tags?limit=1', { key: readKey });
    expect(page.body.data.map((t: { name: string }) => t.name)).toEqual(['Mobile app']);
    const rest = await h.request('GET', `/v1/tags?limit=1&cursor=${page.body.nextCursor}`, { key: readKey });
    expect(rest.body.data.map((t: { name: string }) => t.name)).toEqual(['Billing']);

    const renamed = await call('PATCH', `/v1/tags/${billing.id}`, { name: 'Payments' });
    expect(renamed.body.data).toMatchObject({ id: billing.id, name: 'Payments', slug: 'payments' });
    expect((await call('PATCH', `/v1/tags/${billing.id}`, { name: 'Mobile app' })).status).toBe(409);
    expect((await call('PATCH', `/v1/tags/${billing.id}`, { name: '' })).status).toBe(422);
    expect((await h.request('PATCH', `/v1/tags/${billing.id}`, { key: other.key, body: { name: 'X' } })).status).toBe(
      404,
    );
    expect((await h.request('DELETE', `/v1/tags/${billing.id}`, { key: other.key })).status).toBe(404);
    expect((await h.request('DELETE', `/v1/tags/${billing.id}`, { key: readKey })).status).toBe(403);
    expect((await call('DELETE', `/v1/tags/${billing.id}`)).body.data).toEqual({ id: billing.id, deleted: true });
    expect((await call('DELETE', `/v1/tags/${billing.id}`)).status).toBe(404);
  });

  it("PUT a post's tags: exactly these (at most 3, of the workspace), announced; deleting a tag takes it off its posts", async () => {
    const { org, key } = await h.seed();
    const other = await h.seed();
    const call = (method: string, path: string, body?: unknown) =>
      h.request(method, path, { key, ...(body === undefined ? {} : { body }) });
    const board = (await call('POST', '/v1/boards', { name: 'Ideas' })).body.data;
    const post = (await call('POST', `/v1/boards/${board.id}/posts`, { title: 'Dark mode' })).body.data;
    const [a, b, c, d] = await Promise.all(
      ['Alpha', 'Beta', 'Gamma', 'Delta'].map(async (name) => (await call('POST', '/v1/tags', { name })).body.data),
    );
    const foreign = (await h.request('POST', '/v1/tags', { key: other.key, body: { name: 'Foreign' } })).body.data;
    const set = await call('PUT', `/v1/posts/${post.id}/tags`, { tagIds: [b.id, a.id] });
    expect(set.status).toBe(200);
    expect(set.body.data.tags.map((t: { name: string }) => t.name)).toEqual(['Alpha', 'Beta']);
    // The same tags again change nothing.
    await call('PUT', `/v1/posts/${post.id}/tags`, { tagIds: [a.id, b.id] });
    const tooMany = await call('PUT', `/v1/posts/${post.id}/tags`, { tagIds: [a.id, b.id, c.id, d.id] });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error.details.issues[0]).toMatchObject({ path: 'tagIds', message: 'at most 3 tags per post' });
    const theirs = await call('PUT', `/v1/posts/${post.id}/tags`, { tagIds: [foreign.id] });
    expect(theirs.status).toBe(422);
    expect(theirs.body.error.details.issues[0]).toMatchObject({ path: 'tagIds', code: 'not_found' });
    expect((await h.request('PUT', `/v1/posts/${post.id}/tags`, { key: other.key, body: { tagIds: [] } })).status).toBe(
      404,
    );

    await call('DELETE', `/v1/tags/${a.id}`);
    expect((await call('GET', `/v1/posts/${post.id}`)).body.data.tags.map((t: { id: string }) => t.id)).toEqual([b.id]);
    const updates = (await eventPayloads(h, org.id)).filter((e) => e.event === 'post.updated');
    expect(updates.map((e) => e.changes)).toEqual([
      { tagIds: { from: [], to: [a.id, b.id].sort() } },
      { tagIds: { from: [a.id, b.id].sort(), to: [b.id] } },
    ]);
  });

  it('is in the contract: each operation with its agent tool and client method', () => {
    const rows = Object.entries(OPERATIONS).filter(([, op]) => op.resource === 'tags');
    expect(rows.map(([id, op]) => [id, op.method, op.path, op.tool, op.client])).toEqual([
      ['listTags', 'GET', '/v1/tags', 'list_tags', 'tags.list'],
      ['createTag', 'POST', '/v1/tags', 'create_tag', 'tags.create'],
      ['updateTag', 'PATCH', '/v1/tags/:tagId', 'update_tag', 'tags.update'],
      ['deleteTag', 'DELETE', '/v1/tags/:tagId', 'delete_tag', 'tags.delete'],
      ['setPostTags', 'PUT', '/v1/posts/:postId/tags', 'set_post_tags', 'tags.setForPost'],
    ]);
  });
});
