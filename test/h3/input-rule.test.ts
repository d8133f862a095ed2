import { expect, it } from 'vitest';
import { describeMatrix, type Harness, type SeededWorkspace } from '../helpers/harness.js';

// The input rule both databases keep (docs/security.md, "Input"): each case here was a 500 on PostgreSQL, SQLite or
// both before it. Every answer must be a 4xx in the error envelope, and nothing may be written.

const NUL = 'a\u0000b';
const LONE = 'a\ud800b';
const cursor = (k: string, v: unknown[]) => Buffer.from(JSON.stringify({ k, v })).toString('base64url');
/** A JSON text nesting `depth` containers (the outermost is level 1) around `inner`. */
const nested = (depth: number, inner = '1') => `${'{"a":'.repeat(depth - 1)}{"a":${inner}}${'}'.repeat(depth - 1)}`;

async function workspace(h: Harness) {
  const ws = await h.seed({ plan: 'paid' });
  const contact = (
    await h.request('POST', '/v1/contacts', { key: ws.key, body: { externalUserId: 'base', metadata: { keep: 1 } } })
  ).body.data;
  const board = await h.engine.workspace(ws.org.id).boards.create({ name: 'Ideas' });
  const webhook = (
    await h.request('POST', '/v1/webhooks', {
      key: ws.key,
      body: { url: 'http://127.0.0.1:9/hook', events: ['contact.created'] },
    })
  ).body.data;
  return { ws, contact, board, webhook };
}

/** Nothing was written: the workspace still has its one contact (unchanged), no post, and the events it had. */
async function expectNothingWritten(
  h: Harness,
  ws: SeededWorkspace,
  contact: { id: string; updatedAt: string },
  events: number,
) {
  const list = await h.request('GET', '/v1/contacts', { key: ws.key });
  expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([contact.id]);
  expect(list.body.data[0].updatedAt).toBe(contact.updatedAt);
  expect((await h.engine.workspace(ws.org.id).events.list()).length).toBe(events);
}

function expect422(res: { status: number; body: any }, path?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expect(res.body.error.code).toBe('ERR_VALIDATION');
  if (path !== undefined) expect(res.body.error.details.issues.map((i: { path: string }) => i.path)).toContain(path);
}

describeMatrix(
  'input rule',
  (h) => {
    it('a string with U+0000 or an unpaired surrogate is 422 naming the field, in every body field and metadata key or value', async () => {
      const { ws, contact, board } = await workspace(h);
      const before = (await h.engine.workspace(ws.org.id).events.list()).length;
      for (const bad of [NUL, LONE]) {
        const cases: Array<[string, string, Record<string, unknown>, string]> = [
          ['POST', '/v1/contacts', { name: bad }, 'name'],
          ['POST', '/v1/contacts', { externalUserId: bad }, 'externalUserId'],
          ['POST', '/v1/contacts', { plan: bad }, 'plan'],
          ['POST', '/v1/contacts', { email: `x${bad}@example.com` }, 'email'],
          ['POST', '/v1/contacts', { metadata: { k: bad } }, 'metadata.k'],
          ['POST', '/v1/contacts', { metadata: { deep: [{ x: bad }] } }, 'metadata.deep.0.x'],
          ['POST', '/v1/contacts', { metadata: { [bad]: 1 } }, `metadata.${bad}`],
          ['POST', '/v1/contacts/identify', { externalUserId: bad }, 'externalUserId'],
          ['PATCH', `/v1/contacts/${contact.id}`, { name: bad }, 'name'],
          ['PATCH', `/v1/contacts/${contact.id}`, { metadata: { k: bad } }, 'metadata.k'],
          ['POST', `/v1/boards/${board.id}/posts`, { title: bad }, 'title'],
          [
            'POST',
            `/v1/boards/${board.id}/posts`,
            { title: 't', body: { json: { t: bad }, text: 'x' } },
            'body.json.t',
          ],
          ['POST', `/v1/boards/${board.id}/posts`, { title: 't', body: { json: {}, text: bad } }, 'body.text'],
          ['POST', `/v1/boards/${board.id}/posts`, { title: 't', contactId: bad }, 'contactId'],
          ['POST', `/v1/boards/${board.id}/posts`, { title: 't', tagIds: [bad] }, 'tagIds.0'],
          ['POST', '/v1/webhooks', { url: `http://127.0.0.1:9/${bad}`, events: ['contact.created'] }, 'url'],
          [
            'POST',
            '/v1/webhooks',
            { url: 'http://127.0.0.1:9/', events: ['contact.created'], description: bad },
            'description',
          ],
        ];
        for (const [method, path, body, field] of cases)
          expect422(await h.request(method, path, { key: ws.key, body }), field);
      }
      await expectNothingWritten(h, ws, contact, before);
    });

    it('the same rule holds in queries: q, plan and cursor', async () => {
      const { ws } = await workspace(h);
      for (const bad of ['a%00b', 'a%ED%A0%80b']) {
        // %ED%A0%80 is a surrogate's UTF-8 form: invalid UTF-8, which decodes to U+FFFD and is then allowed.
        const q = await h.request('GET', `/v1/contacts?q=${bad}`, { key: ws.readKey });
        const plan = await h.request('GET', `/v1/contacts?plan=${bad}`, { key: ws.readKey });
        const cur = await h.request('GET', `/v1/boards?cursor=${bad}`, { key: ws.readKey });
        if (bad === 'a%00b') {
          expect422(q, 'q');
          expect422(plan, 'plan');
          expect422(cur, 'cursor');
        } else {
          expect([q.status, plan.status]).toEqual([200, 200]);
          expect422(cur, 'cursor');
        }
      }
    });

    it('a path id that cannot exist is 404 in the envelope, with a read key and a write key alike', async () => {
      const { ws, webhook } = await workspace(h);
      for (const [method, path, key] of [
        ['GET', '/v1/contacts/%00', ws.readKey],
        ['GET', '/v1/contacts/a%00b', ws.readKey],
        ['PATCH', '/v1/contacts/%00', ws.key],
        ['DELETE', '/v1/contacts/%00', ws.key],
        ['GET', '/v1/contacts/%00/posts', ws.readKey],
        ['POST', '/v1/boards/%00/posts', ws.key],
        ['PATCH', '/v1/posts/%00', ws.key],
        ['GET', '/v1/webhooks/%00', ws.readKey],
        ['GET', '/v1/webhooks/%00/deliveries', ws.readKey],
        ['POST', `/v1/webhooks/${webhook.id}/deliveries/%00/replay`, ws.key],
      ] as const) {
        const body =
          method === 'PATCH' ? {} : method === 'POST' && path.endsWith('/posts') ? { title: 'x' } : undefined;
        const res = await h.request(method, path, { key, body });
        expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(404);
        expect(res.body.error.code).toBe('ERR_NOT_FOUND');
      }
    });

    it('every tampered cursor is 422: out-of-range times, fractional or huge sort values, foreign ids, another list or sort', async () => {
      const { ws, contact, webhook } = await workspace(h);
      const id = contact.id;
      const lists: Array<[string, string, unknown[][]]> = [
        [
          '/v1/contacts',
          'contacts:created',
          [
            [8.64e15 + 1, id],
            [-8.64e15 - 1, id],
            [-6.3e13, id],
            [1.5, id],
            [Date.now(), NUL],
            [Date.now(), 5],
            [Date.now()],
          ],
        ],
        [
          '/v1/contacts?sort=last_seen',
          'contacts:last_seen',
          [
            [9e15, id],
            [Date.now(), `x${LONE}`],
          ],
        ],
        [
          '/v1/contacts?sort=mrr',
          'contacts:mrr',
          [
            [1.5, id],
            [3e9, id],
            [-1, id],
            ['5', id],
            [100, NUL],
          ],
        ],
        [
          `/v1/contacts/${id}/posts`,
          'contact-posts',
          [
            [9e15, id],
            [Date.now(), NUL],
          ],
        ],
        [
          '/v1/boards',
          'boards',
          [
            [9e15, id],
            [Date.now(), NUL],
          ],
        ],
        [
          '/v1/webhooks',
          'webhooks',
          [
            [9e15, id],
            [Date.now(), NUL],
          ],
        ],
        [
          `/v1/webhooks/${webhook.id}/deliveries`,
          'deliveries',
          [
            [9e15, id, id],
            [Date.now(), NUL, id],
            [Date.now(), id, NUL],
          ],
        ],
      ];
      for (const [path, kind, keys] of lists) {
        const join = path.includes('?') ? '&' : '?';
        for (const key of keys)
          expect422(await h.request('GET', `${path}${join}cursor=${cursor(kind, key)}`, { key: ws.readKey }), 'cursor');
        // A well-formed position of another list, or of this list under another sort, is refused too.
        expect422(
          await h.request(
            'GET',
            `${path}${join}cursor=${cursor(kind === 'boards' ? 'webhooks' : 'boards', [Date.now(), id])}`,
            { key: ws.readKey },
          ),
          'cursor',
        );
        // And the position a real page would carry is accepted.
        const good =
          kind === 'contacts:mrr' ? [null, id] : kind === 'deliveries' ? [Date.now(), id, id] : [Date.now(), id];
        expect((await h.request('GET', `${path}${join}cursor=${cursor(kind, good)}`, { key: ws.readKey })).status).toBe(
          200,
        );
      }
    });

    it('metadata and body.json nest at most 32 levels: 32 is stored and read back, 33 and 4,100 are 422 on every write', async () => {
      const { ws, contact, board } = await workspace(h);
      const before = (await h.engine.workspace(ws.org.id).events.list()).length;
      for (const depth of [33, 4100, 100_000]) {
        const meta = nested(depth);
        const raw = (prefix: string) => ({
          rawBody: `{${prefix}}`,
          headers: { 'content-type': 'application/json' },
          key: ws.key,
        });
        expect422(await h.request('POST', '/v1/contacts', raw(`"metadata":${meta}`)));
        expect422(await h.request('POST', '/v1/contacts/identify', raw(`"externalUserId":"deep","metadata":${meta}`)));
        expect422(await h.request('PATCH', `/v1/contacts/${contact.id}`, raw(`"metadata":${meta}`)));
        expect422(
          await h.request('POST', `/v1/boards/${board.id}/posts`, raw(`"title":"t","body":{"text":"","json":${meta}}`)),
        );
        // With an Idempotency-Key the body is validated before its fingerprint is taken: 422, not 500, and not kept.
        const res = await h.request('POST', '/v1/contacts', {
          ...raw(`"metadata":${meta}`),
          headers: { 'content-type': 'application/json', 'idempotency-key': `deep-${depth}` },
        });
        expect422(res);
        expect(res.headers.get('idempotent-replayed')).toBeNull();
      }
      await expectNothingWritten(h, ws, contact, before);

      const deepest = JSON.parse(nested(32, '"bottom"'));
      const created = await h.request('POST', '/v1/contacts', { key: ws.key, body: { metadata: deepest } });
      expect(created.status).toBe(201);
      expect(created.body.data.metadata).toEqual(deepest);
      expect(
        (await h.request('GET', `/v1/contacts/${created.body.data.id}`, { key: ws.key })).body.data.metadata,
      ).toEqual(deepest);
      const post = await h.request('POST', `/v1/boards/${board.id}/posts`, {
        key: ws.key,
        body: { title: 'deep', body: { json: deepest, text: '' } },
      });
      expect(post.status).toBe(201);
      expect(JSON.parse(post.body.data.body)).toEqual(deepest);
    });

    it('numbers JSON cannot carry exactly are refused in metadata and body.json; safe ones read back exactly', async () => {
      const { ws, board } = await workspace(h);
      for (const text of ['1e400', '-1e400', '9007199254740993', '-9007199254740992', '1.5e300']) {
        const res = await h.request('POST', '/v1/contacts', {
          key: ws.key,
          rawBody: `{"metadata":{"n":${text}}}`,
          headers: { 'content-type': 'application/json' },
        });
        expect422(res, 'metadata.n');
        expect(res.body.error.details.issues[0].code).toBe('unsafe_number');
        expect422(
          await h.request('POST', `/v1/boards/${board.id}/posts`, {
            key: ws.key,
            rawBody: `{"title":"t","body":{"text":"","json":[${text}]}}`,
            headers: { 'content-type': 'application/json' },
          }),
          'body.json.0',
        );
      }
      const safe = { max: 9007199254740991, min: -9007199254740991, frac: 0.1, tiny: 5e-324, neg: -2.5, zero: 0 };
      const created = await h.request('POST', '/v1/contacts', { key: ws.key, body: { metadata: safe } });
      expect(created.body.data.metadata).toEqual(safe);
      expect(
        (await h.request('GET', `/v1/contacts/${created.body.data.id}`, { key: ws.key })).body.data.metadata,
      ).toEqual(safe);
    });

    it('a stored value reads back exactly as the write answered it', async () => {
      const { ws } = await workspace(h);
      const body = {
        externalUserId: 'ü-😀-\u{10FFFF}',
        name: 'Zoë \uFFFD 😀',
        metadata: { 'ключ 😀': ['\u00e9', '\u0065\u0301', { '': '' }], n: null, t: true },
      };
      const created = await h.request('POST', '/v1/contacts', { key: ws.key, body });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.data).toMatchObject(body);
      const read = await h.request('GET', `/v1/contacts/${created.body.data.id}`, { key: ws.key });
      // The read adds its counts and the contact's companies to what the write answered.
      const { postCount, voteCount, commentCount, companies, ...contact } = read.body.data;
      expect([postCount, voteCount, commentCount, companies]).toEqual([0, 0, 0, []]);
      expect(contact).toEqual(created.body.data);
    });
  },
  { engine: { webhooks: { allowPrivateNetworks: true } } },
);
