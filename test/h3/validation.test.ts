import { expect, it } from 'vitest';
import { fillPath, OPERATION_IDS, OPERATIONS } from '../../src/contract/index.js';
import { email, INVALID_CONTACT_BODIES as INVALID, keys, s } from '../helpers/contact-cases.js';
import { describeMatrix } from '../helpers/harness.js';

describeMatrix('validation', (h) => {
  it('accepts every bound at its edge', async () => {
    const ws = await h.seed();
    const body = {
      externalUserId: s(255),
      email: email(320),
      name: s(200),
      plan: s(100),
      mrrCents: 100_000_000,
      currency: 'ZZZ',
      metadata: keys(100),
    };
    const res = await h.request('POST', '/v1/contacts', { key: ws.key, body });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject(body);
    expect(
      (
        await h.request('POST', '/v1/contacts', {
          key: ws.key,
          body: { mrrCents: 0, currency: 'USD', name: 'x', plan: 'p', externalUserId: 'y' },
        })
      ).status,
    ).toBe(201);
  });

  for (const [what, body, path] of INVALID) {
    it(`rejects ${what} with 422 ERR_VALIDATION and issue details, writing nothing`, async () => {
      const ws = await h.seed();
      const existing = (await h.request('POST', '/v1/contacts', { key: ws.key, body: { externalUserId: 'base' } })).body
        .data;
      const attempts = [
        await h.request('POST', '/v1/contacts', { key: ws.key, body: { ...body } }),
        await h.request('POST', '/v1/contacts/identify', { key: ws.key, body: { externalUserId: 'new-one', ...body } }),
        await h.request('PATCH', `/v1/contacts/${existing.id}`, { key: ws.key, body: { ...body } }),
      ];
      for (const res of attempts) {
        expect(res.status).toBe(422);
        expect(res.body.error.code).toBe('ERR_VALIDATION');
        expect(typeof res.body.error.message).toBe('string');
        const issues = res.body.error.details.issues as { path: string; code: string; message: string }[];
        expect(issues.length).toBeGreaterThan(0);
        for (const issue of issues) expect(Object.keys(issue).sort()).toEqual(['code', 'message', 'path']);
        if (path) expect(issues.map((i) => i.path)).toContain(path);
      }
      const list = await h.request('GET', '/v1/contacts', { key: ws.key });
      expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([existing.id]);
      expect(list.body.data[0].updatedAt).toBe(existing.updatedAt);
      expect((await h.engine.workspace(ws.org.id).events.list()).length).toBe(1);
    });
  }

  it('every operation refuses a query parameter it does not take: 422 naming it, before anything else is looked at', async () => {
    const ws = await h.seed();
    const bodies: Partial<Record<string, unknown>> = {
      createContact: {},
      identifyContact: { externalUserId: 'q' },
      upsertCompany: { externalCompanyId: 'q' },
      updateCompany: {},
      updateContact: {},
      createPost: { title: 't' },
      updatePost: {},
      mergePost: { intoPostId: 'x_2' },
      createVote: { contactId: 'x_2' },
      createTag: { name: 'q' },
      updateTag: { name: 'q' },
      setPostTags: { tagIds: [] },
      createChangelogEntry: { boardId: 'x_2', title: 'q' },
      updateChangelogEntry: {},
      publishChangelogEntry: {},
      createComment: { bodyText: 'x', official: true },
      updateComment: { bodyText: 'x' },
      createNote: { bodyText: 'x', authorEmail: 'a@example.com' },
      createBoard: { name: 'q' },
      updateBoard: {},
      createWebhook: { url: 'https://example.com/hook', events: ['post.created'] },
      updateWebhook: {},
    };
    for (const id of OPERATION_IDS) {
      const op = OPERATIONS[id];
      const path = fillPath(
        op.path,
        [...op.path.matchAll(/:[A-Za-z]+/g)].map(() => 'x_1'),
      );
      const res = await h.request(op.method, `${path}?bogus=1`, {
        key: ws.key,
        ...(id in bodies ? { body: bodies[id] } : {}),
      });
      expect(res.status, `${op.method} ${op.path}`).toBe(422);
      expect(res.body.error.code).toBe('ERR_VALIDATION');
      expect(
        res.body.error.details.issues.map((i: { path: string }) => i.path),
        id,
      ).toContain('bogus');
    }
  });

  it('an operation that takes no body refuses the fields of one that is sent (422), and takes an empty one', async () => {
    const ws = await h.seed();
    const contact = (await h.request('POST', '/v1/contacts', { key: ws.key, body: {} })).body.data;
    const refused = await h.request('DELETE', `/v1/contacts/${contact.id}`, { key: ws.key, body: { really: true } });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details.issues.map((i: { path: string }) => i.path)).toEqual(['really']);
    expect((await h.request('DELETE', `/v1/contacts/${contact.id}`, { key: ws.key, body: {} })).status).toBe(200);
  });

  it('identify requires externalUserId', async () => {
    const ws = await h.seed();
    const res = await h.request('POST', '/v1/contacts/identify', { key: ws.key, body: { email: 'a@b.co' } });
    expect(res.status).toBe(422);
    expect(res.body.error.details.issues[0].path).toBe('externalUserId');
  });

  it('a body that is not valid JSON is 400 ERR_BAD_REQUEST', async () => {
    const ws = await h.seed();
    for (const rawBody of ['{', '{"a":}', 'undefined', "{'a':1}"]) {
      const res = await h.request('POST', '/v1/contacts/identify', {
        key: ws.key,
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('ERR_BAD_REQUEST');
    }
  });

  it('a body that is JSON but not an object, or is empty, is 400 ERR_BAD_REQUEST', async () => {
    const ws = await h.seed();
    for (const rawBody of ['[]', '"x"', '42', 'null', 'true', '']) {
      const res = await h.request('POST', '/v1/contacts', {
        key: ws.key,
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('ERR_BAD_REQUEST');
    }
  });

  it('a body over 1 MiB is 413 ERR_PAYLOAD_TOO_LARGE; exactly 1 MiB is read', async () => {
    const ws = await h.seed();
    const big = JSON.stringify({ externalUserId: 'u', metadata: { blob: 'x'.repeat(1024 * 1024) } });
    const res = await h.request('POST', '/v1/contacts/identify', { key: ws.key, rawBody: big });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('ERR_PAYLOAD_TOO_LARGE');
    const base = JSON.stringify({ externalUserId: 'u', metadata: { blob: '' } });
    const exact = JSON.stringify({ externalUserId: 'u', metadata: { blob: 'x'.repeat(1024 * 1024 - base.length) } });
    expect(new TextEncoder().encode(exact).length).toBe(1024 * 1024);
    expect((await h.request('POST', '/v1/contacts/identify', { key: ws.key, rawBody: exact })).status).toBe(201);
  });

  it('list query parameters are validated: limit, sort, q length, unknown parameters', async () => {
    const ws = await h.seed();
    const bad = [
      'limit=0',
      'limit=101',
      'limit=abc',
      'limit=1.5',
      'sort=name',
      `q=${s(201)}`,
      'q=',
      'cursor=',
      'unknown=1',
      'plan=',
    ];
    for (const qs of bad) {
      const res = await h.request('GET', `/v1/contacts?${qs}`, { key: ws.key });
      expect(res.status, qs).toBe(422);
      expect(res.body.error.code).toBe('ERR_VALIDATION');
    }
    for (const qs of ['limit=1', 'limit=100', `q=${s(200)}`, 'sort=mrr', 'sort=last_seen', 'sort=created']) {
      expect((await h.request('GET', `/v1/contacts?${qs}`, { key: ws.key })).status, qs).toBe(200);
    }
  });

  it('a cursor that does not decode, or was made for another sort, is 422', async () => {
    const ws = await h.seed();
    for (let i = 0; i < 3; i++)
      await h.request('POST', '/v1/contacts', { key: ws.key, body: { mrrCents: i, currency: 'USD' } });
    const page = await h.request('GET', '/v1/contacts?limit=1&sort=mrr', { key: ws.key });
    const cursor = page.body.nextCursor as string;
    expect(cursor).toBeTruthy();
    const other = await h.request('GET', `/v1/contacts?limit=1&sort=created&cursor=${encodeURIComponent(cursor)}`, {
      key: ws.key,
    });
    expect(other.status).toBe(422);
    expect(other.body.error.details.issues[0].path).toBe('cursor');
    for (const junk of ['garbage', 'eyJ4IjoxfQ', Buffer.from('{"s":"mrr","v":"1","i":"x"}').toString('base64url')]) {
      expect((await h.request('GET', `/v1/contacts?sort=mrr&cursor=${junk}`, { key: ws.key })).status).toBe(422);
    }
  });
});
