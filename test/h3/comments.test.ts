import { expect, it } from 'vitest';
import { OPERATIONS } from '../../src/contract/index.js';
import { describeMatrix, eventPayloads } from '../helpers/harness.js';

describeMatrix('comments and notes over REST', (h) => {
  async function post() {
    const ws = await h.seed();
    const call = (method: string, path: string, body?: unknown) =>
      h.request(method, path, { key: ws.key, ...(body === undefined ? {} : { body }) });
    const board = (await call('POST', '/v1/boards', { name: 'Ideas' })).body.data;
    const created = (await call('POST', `/v1/boards/${board.id}/posts`, { title: 'Dark mode' })).body.data;
    const ada = (
      await call('POST', '/v1/contacts/identify', { externalUserId: 'ada', email: 'ada@example.com', name: 'Ada' })
    ).body.data;
    return { ...ws, call, board, post: created, ada };
  }

  it('comments for a contact or as the team, replies, edits and deletes; the count and events follow', async () => {
    const w = await post();
    const first = await w.call('POST', `/v1/posts/${w.post.id}/comments`, {
      bodyText: ' Yes please ',
      contactId: w.ada.id,
    });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({
      postId: w.post.id,
      parentId: null,
      contactId: w.ada.id,
      authorUserId: 'ada',
      authorName: 'Ada',
      official: false,
      bodyText: 'Yes please',
      updatedAt: null,
    });
    h.advance(1000);
    const reply = await w.call('POST', `/v1/posts/${w.post.id}/comments`, {
      bodyText: 'Planned for May.',
      official: true,
      authorName: 'Grace from Acme',
      parentId: first.body.data.id,
    });
    expect(reply.body.data).toMatchObject({ official: true, authorName: 'Grace from Acme', contactId: null });
    expect((await w.call('GET', `/v1/posts/${w.post.id}`)).body.data.commentCount).toBe(2);

    h.advance(1000);
    const edited = await w.call('PATCH', `/v1/comments/${first.body.data.id}`, { bodyText: 'Yes, please!' });
    expect(edited.body.data).toMatchObject({ bodyText: 'Yes, please!', updatedAt: expect.any(String) });
    // The same text again changes nothing.
    await w.call('PATCH', `/v1/comments/${first.body.data.id}`, { bodyText: 'Yes, please!' });
    const list = await w.call('GET', `/v1/posts/${w.post.id}/comments?limit=1`);
    expect(list.body.data.map((c: { bodyText: string }) => c.bodyText)).toEqual(['Yes, please!']);
    const next = await w.call('GET', `/v1/posts/${w.post.id}/comments?limit=1&cursor=${list.body.nextCursor}`);
    expect(next.body.data.map((c: { parentId: string }) => c.parentId)).toEqual([first.body.data.id]);

    const gone = await w.call('DELETE', `/v1/comments/${first.body.data.id}`);
    expect(gone.body.data).toEqual({ id: first.body.data.id, deleted: true });
    expect((await w.call('DELETE', `/v1/comments/${first.body.data.id}`)).status).toBe(404);
    expect((await w.call('PATCH', `/v1/comments/${first.body.data.id}`, { bodyText: 'x' })).status).toBe(404);
    expect((await w.call('GET', `/v1/posts/${w.post.id}`)).body.data.commentCount).toBe(1);
    expect((await w.call('GET', `/v1/posts/${w.post.id}/comments`)).body.data.map((c: { id: string }) => c.id)).toEqual(
      [reply.body.data.id],
    );
    // A reply to a deleted comment is refused: it is no longer on the post.
    const orphan = await w.call('POST', `/v1/posts/${w.post.id}/comments`, {
      bodyText: 'Me too',
      contactId: w.ada.id,
      parentId: first.body.data.id,
    });
    expect(orphan.status).toBe(422);
    expect(orphan.body.error.details.issues[0]).toMatchObject({ path: 'parentId', code: 'not_found' });

    const events = (await eventPayloads(h, w.org.id)).filter((e) => e.event.startsWith('comment.'));
    expect(events.map((e) => e.event)).toEqual([
      'comment.created',
      'comment.created',
      'comment.updated',
      'comment.deleted',
    ]);
    expect(events[2].changes).toEqual({ bodyText: { from: 'Yes please', to: 'Yes, please!' } });
    expect(events[3].comment).toMatchObject({ id: first.body.data.id, bodyText: 'Yes, please!' });
  });

  it('refuses a comment of nobody or of both, a contact of another workspace, an empty text; each in its workspace', async () => {
    const w = await post();
    const other = await post();
    const refused = async (body: Record<string, unknown>) => {
      const res = await w.call('POST', `/v1/posts/${w.post.id}/comments`, body);
      expect(res.status).toBe(422);
      return res.body.error.details.issues.map((i: { path: string; message: string }) => `${i.path}: ${i.message}`);
    };
    const either = 'contactId: give contactId (a contact writes it) or official: true (the team writes it), not both';
    expect(await refused({ bodyText: 'x' })).toEqual([either]);
    expect(await refused({ bodyText: 'x', official: true, contactId: w.ada.id })).toEqual([either]);
    expect(await refused({ bodyText: '   ', official: true })).toEqual(['bodyText: bodyText must not be empty']);
    expect(await refused({ bodyText: 'x', contactId: w.ada.id, authorName: 'Me' })).toEqual([
      'authorName: authorName signs official comments only',
    ]);
    expect(await refused({ bodyText: 'x', contactId: other.ada.id })).toEqual([
      `contactId: No contact with id ${other.ada.id} in this workspace.`,
    ]);
    const theirs = (await other.call('POST', `/v1/posts/${other.post.id}/comments`, { bodyText: 'x', official: true }))
      .body.data;
    expect((await w.call('PATCH', `/v1/comments/${theirs.id}`, { bodyText: 'mine now' })).status).toBe(404);
    expect((await w.call('DELETE', `/v1/comments/${theirs.id}`)).status).toBe(404);
    expect((await w.call('GET', `/v1/posts/${other.post.id}/comments`)).status).toBe(404);
    // A cursor is validated before anything is looked up: a bad one is 422 even on a post that is not there.
    expect((await w.call('GET', `/v1/posts/${other.post.id}/comments?cursor=nope`)).status).toBe(422);
    expect((await w.call('GET', `/v1/posts/${other.post.id}/votes?cursor=nope`)).status).toBe(422);
    expect((await h.request('DELETE', `/v1/comments/${theirs.id}`, { key: other.readKey })).status).toBe(403);
  });

  it("notes are the team's: listed under their own operation, never in the comments or on the portal", async () => {
    const w = await post();
    const note = await w.call('POST', `/v1/posts/${w.post.id}/notes`, {
      bodyText: 'Acme asked twice on calls.',
      authorEmail: 'grace@acme.example',
    });
    expect(note.status).toBe(201);
    expect(note.body.data).toMatchObject({ postId: w.post.id, authorEmail: 'grace@acme.example' });
    expect(note.body.data.id).toMatch(/^note_/);
    expect((await w.call('GET', `/v1/posts/${w.post.id}/notes`)).body.data).toEqual([note.body.data]);
    expect((await w.call('GET', `/v1/posts/${w.post.id}/comments`)).body.data).toEqual([]);
    expect((await w.call('GET', `/v1/posts/${w.post.id}`)).body.data.commentCount).toBe(0);
    const bad = await w.call('POST', `/v1/posts/${w.post.id}/notes`, { bodyText: 'x' });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.issues[0].path).toBe('authorEmail');
    expect((await eventPayloads(h, w.org.id)).some((e) => JSON.stringify(e).includes('Acme asked'))).toBe(false);
  });

  it('is in the contract: each operation with its agent tool and client method', () => {
    const rows = Object.entries(OPERATIONS).filter(([, op]) => op.resource === 'comments');
    expect(rows.map(([id, op]) => [id, op.method, op.path, op.tool, op.client])).toEqual([
      ['listPostComments', 'GET', '/v1/posts/:postId/comments', 'list_post_comments', 'comments.list'],
      ['createComment', 'POST', '/v1/posts/:postId/comments', 'create_comment', 'comments.create'],
      ['updateComment', 'PATCH', '/v1/comments/:commentId', 'update_comment', 'comments.update'],
      ['deleteComment', 'DELETE', '/v1/comments/:commentId', 'delete_comment', 'comments.delete'],
      ['listPostNotes', 'GET', '/v1/posts/:postId/notes', 'list_post_notes', 'notes.list'],
      ['createNote', 'POST', '/v1/posts/:postId/notes', 'create_note', 'notes.create'],
    ]);
  });
});
