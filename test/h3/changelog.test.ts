import { expect, it } from 'vitest';
import { OPERATIONS } from '../../src/contract/index.js';
import { describeMatrix, eventPayloads } from '../helpers/harness.js';

describeMatrix('changelog over REST', (h) => {
  async function workspace() {
    const ws = await h.seed();
    const call = (method: string, path: string, body?: unknown) =>
      h.request(method, path, { key: ws.key, ...(body === undefined ? {} : { body }) });
    const board = (await call('POST', '/v1/boards', { name: 'Ideas' })).body.data;
    const post = async (title: string) =>
      (await call('POST', `/v1/boards/${board.id}/posts`, { title })).body.data as { id: string };
    return { ...ws, call, board, dark: await post('Dark mode'), csv: await post('CSV export') };
  }

  it('writes a draft with the posts it ships, changes it, publishes it once (shipping the posts), then keeps it', async () => {
    const w = await workspace();
    const created = await w.call('POST', '/v1/changelog', {
      boardId: w.board.id,
      title: 'Dark mode is here',
      body: 'Switch it on in **Settings**.',
      postIds: [w.dark.id, w.dark.id],
    });
    expect(created.status).toBe(201);
    const entry = created.body.data;
    expect(entry).toMatchObject({
      status: 'draft',
      publishedAt: null,
      slug: 'dark-mode-is-here',
      postIds: [w.dark.id],
    });
    expect(entry.id).toMatch(/^chg_/);

    const changed = await w.call('PATCH', `/v1/changelog/${entry.id}`, {
      title: 'Dark mode and CSV',
      postIds: [w.dark.id, w.csv.id],
    });
    expect(changed.body.data).toMatchObject({ title: 'Dark mode and CSV', slug: 'dark-mode-is-here' });
    expect([...changed.body.data.postIds].sort()).toEqual([w.dark.id, w.csv.id].sort());
    const missing = await w.call('PATCH', `/v1/changelog/${entry.id}`, { postIds: ['post_nope'] });
    expect(missing.status).toBe(404);
    expect((await w.call('GET', `/v1/changelog/${entry.id}`)).body.data.postIds).toHaveLength(2);

    const published = await w.call('POST', `/v1/changelog/${entry.id}/publish`, { shipPosts: true });
    expect(published.status).toBe(200);
    expect(published.body.data).toMatchObject({ status: 'published', publishedAt: expect.any(String) });
    for (const id of [w.dark.id, w.csv.id])
      expect((await w.call('GET', `/v1/posts/${id}`)).body.data.status).toBe('shipped');
    const again = await w.call('POST', `/v1/changelog/${entry.id}/publish`, {});
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('This changelog entry is already published.');
    expect((await w.call('PATCH', `/v1/changelog/${entry.id}`, { title: 'Edited' })).status).toBe(409);
    expect((await w.call('DELETE', `/v1/changelog/${entry.id}`)).status).toBe(409);

    const kinds = (await eventPayloads(h, w.org.id)).map((e) => e.event);
    expect(kinds.filter((k) => k === 'changelog.published')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'post.status_changed')).toHaveLength(2);
  });

  it('lists entries newest first, by board and status; deletes drafts; each in its workspace', async () => {
    const w = await workspace();
    const other = await h.seed();
    const write = async (title: string) => {
      h.advance(1000);
      return (await w.call('POST', '/v1/changelog', { boardId: w.board.id, title })).body.data;
    };
    const first = await write('First');
    const second = await write('Second');
    const third = await write('Third');
    await w.call('POST', `/v1/changelog/${second.id}/publish`, {});
    const titles = async (query: string) =>
      (await w.call('GET', `/v1/changelog${query}`)).body.data.map((e: { title: string }) => e.title);
    expect(await titles('')).toEqual(['Third', 'Second', 'First']);
    expect(await titles('?status=draft')).toEqual(['Third', 'First']);
    expect(await titles('?status=published')).toEqual(['Second']);
    expect(await titles(`?boardId=${w.board.id}&limit=1`)).toEqual(['Third']);
    const page1 = await w.call('GET', '/v1/changelog?limit=2');
    expect(
      (await w.call('GET', `/v1/changelog?limit=2&cursor=${page1.body.nextCursor}`)).body.data.map(
        (e: { id: string }) => e.id,
      ),
    ).toEqual([first.id]);

    expect((await h.request('GET', `/v1/changelog/${third.id}`, { key: other.key })).status).toBe(404);
    expect((await h.request('DELETE', `/v1/changelog/${third.id}`, { key: other.key })).status).toBe(404);
    expect((await h.request('POST', `/v1/changelog/${third.id}/publish`, { key: other.key, body: {} })).status).toBe(
      404,
    );
    expect((await h.request('DELETE', `/v1/changelog/${third.id}`, { key: w.readKey })).status).toBe(403);
    expect((await w.call('DELETE', `/v1/changelog/${third.id}`)).body.data).toEqual({ id: third.id, deleted: true });
    expect((await w.call('GET', `/v1/changelog/${third.id}`)).status).toBe(404);
    const bad = await w.call('POST', '/v1/changelog', { boardId: w.board.id, title: '' });
    expect(bad.status).toBe(422);
    expect((await w.call('POST', '/v1/changelog', { boardId: 'brd_nope', title: 'X' })).status).toBe(404);
    expect((await w.call('GET', '/v1/changelog?status=live')).status).toBe(422);
  });

  it('is in the contract: each operation with its agent tool and client method', () => {
    const rows = Object.entries(OPERATIONS).filter(([, op]) => op.resource === 'changelog');
    expect(rows.map(([id, op]) => [id, op.method, op.path, op.tool, op.client])).toEqual([
      ['listChangelogEntries', 'GET', '/v1/changelog', 'list_changelog_entries', 'changelog.list'],
      ['createChangelogEntry', 'POST', '/v1/changelog', 'create_changelog_entry', 'changelog.create'],
      ['retrieveChangelogEntry', 'GET', '/v1/changelog/:entryId', 'get_changelog_entry', 'changelog.retrieve'],
      ['updateChangelogEntry', 'PATCH', '/v1/changelog/:entryId', 'update_changelog_entry', 'changelog.update'],
      ['deleteChangelogEntry', 'DELETE', '/v1/changelog/:entryId', 'delete_changelog_entry', 'changelog.delete'],
      [
        'publishChangelogEntry',
        'POST',
        '/v1/changelog/:entryId/publish',
        'publish_changelog_entry',
        'changelog.publish',
      ],
    ]);
  });
});
