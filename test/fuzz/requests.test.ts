import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OPERATION_IDS, OPERATIONS, type OperationId, pathParams } from '../../src/contract/index.js';
import { ERROR_CODES } from '../../src/schemas/errors.js';
import { describeMatrix } from '../helpers/harness.js';

// Malformed requests for every route of the contract table, over a real socket, on both databases: whatever comes
// in, the answer is never a 5xx, and every 4xx is the error envelope with a known code and its status. The seed is
// fixed; FUZZ_RUNS sets the count (CI runs the default, `npm run fuzz` at least 20,000 per database).

const RUNS = Number(process.env.FUZZ_RUNS ?? 1500);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

const NASTY_STRINGS = [
  '',
  'a\u0000b',
  '\u0000',
  'a\ud800b',
  '\udfff',
  '\ud83d',
  '😀',
  '\uFFFD',
  'null',
  '%00',
  '..',
  '../../etc',
  ' ',
  'é\u0301',
  '\u202e',
  '<script>',
];
const NASTY_NUMBERS = [
  0,
  -0,
  -1,
  1.5,
  1e308,
  -1e308,
  2 ** 53 + 2,
  -(2 ** 53) - 2,
  100_000_001,
  8.64e15 + 1,
  Number.MIN_VALUE,
  3e9,
];

/** A JSON text: mostly what the operation might take, bent in every way the audit found. */
function jsonText(depthLimit: number): fc.Arbitrary<string> {
  const nastyString = fc.oneof(
    fc.constantFrom(...NASTY_STRINGS),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ maxLength: 300 }),
  );
  const nastyNumberText = fc.oneof(
    fc.constantFrom(...NASTY_NUMBERS.map(String), '1e400', '-1e400', '9007199254740993', '1e-400', '0.1', '-0'),
    fc.double().filter(Number.isFinite).map(String),
  );
  const leaf = fc.oneof(
    nastyString.map((s) => JSON.stringify(s)),
    nastyNumberText,
    fc.constantFrom('true', 'false', 'null', '{}', '[]'),
  );
  const deep = fc
    .tuple(fc.integer({ min: 20, max: depthLimit }), fc.boolean(), leaf)
    .map(([n, arrays, inner]) =>
      arrays ? '['.repeat(n) + inner + ']'.repeat(n) : '{"a":'.repeat(n) + inner + '}'.repeat(n),
    );
  const value: fc.Arbitrary<string> = fc.oneof({ weight: 4, arbitrary: leaf }, { weight: 1, arbitrary: deep });
  const fieldNames = fc.constantFrom(
    'externalUserId',
    'email',
    'name',
    'plan',
    'mrrCents',
    'currency',
    'metadata',
    'title',
    'body',
    'contactId',
    'tagIds',
    'slug',
    'status',
    'hideFromRoadmap',
    'url',
    'events',
    'description',
    'enabled',
    'json',
    'text',
    'a\u0000',
    '\ud800',
    '__proto__',
    'constructor',
  );
  const objectOf = (inner: fc.Arbitrary<string>) =>
    fc
      .array(fc.tuple(fieldNames, inner), { maxLength: 8 })
      .map((pairs) => `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`);
  const nested = objectOf(
    fc.oneof(
      { weight: 3, arbitrary: value },
      { weight: 1, arbitrary: objectOf(value) },
      { weight: 1, arbitrary: fc.array(value, { maxLength: 5 }).map((a) => `[${a.join(',')}]`) },
    ),
  );
  return fc.oneof(
    { weight: 8, arbitrary: nested },
    // Plausible bodies with one field bent.
    {
      weight: 4,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            '{"externalUserId":"u1","metadata":%}',
            '{"title":"t","body":{"json":%,"text":"x"}}',
            '{"url":"http://127.0.0.1:9/h","events":["contact.created"],"description":%}',
            '{"name":%,"mrrCents":100,"currency":"EUR"}',
          ),
          value,
        )
        .map(([t, v]) => t.replace('%', v)),
    },
    // Not JSON, or not an object.
    {
      weight: 1,
      arbitrary: fc.constantFrom('', '{', '{"a":}', '[]', '"x"', '42', 'null', '\u0000', '{"a":1}{"b":2}', '\uFEFF{}'),
    },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
    // Huge: near and past the 1 MiB limit.
    { weight: 1, arbitrary: fc.constantFrom(900_000, 1_100_000).map((n) => `{"name":"${'x'.repeat(n)}"}`) },
  );
}

/** A path segment, already URL-encoded: a real id, an id of another kind, or something that cannot be one. */
function segment(ids: Record<string, string[]>, param: string): fc.Arbitrary<string> {
  const real = fc.constantFrom(...(ids[param] ?? ['none']));
  const other = fc.constantFrom(...Object.values(ids).flat());
  const bad = fc.oneof(
    fc.constantFrom(
      '%00',
      'a%00b',
      '%ED%A0%80',
      '%FF%FE',
      '%2F',
      '..',
      '%2E%2E',
      '%C0%AF',
      'x'.repeat(300),
      '%F0%9F%98%80',
      '%25',
      'null',
    ),
    fc
      .string({ maxLength: 30 })
      .map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, '')))
      .filter((s) => s.length > 0),
  );
  return fc.oneof({ weight: 3, arbitrary: real }, { weight: 1, arbitrary: other }, { weight: 3, arbitrary: bad });
}

/** A query string: the list parameters with wrong types, extreme numbers and tampered cursors, and unknown ones. */
function query(ids: string[]): fc.Arbitrary<string> {
  const cursor = fc.oneof(
    fc
      .tuple(
        fc.constantFrom(
          'contacts:created',
          'contacts:last_seen',
          'contacts:mrr',
          'boards',
          'webhooks',
          'deliveries',
          'contact-posts',
          'x',
        ),
        fc.array(fc.oneof(fc.constantFrom(...NASTY_NUMBERS, null, true, ...ids, ...NASTY_STRINGS), fc.integer()), {
          maxLength: 4,
        }),
      )
      .map(([k, v]) => Buffer.from(JSON.stringify({ k, v })).toString('base64url')),
    fc.constantFrom('%00', '!!', 'e30', 'bnVsbA', 'W10', 'x'.repeat(1200)),
  );
  const pair = fc.oneof(
    fc
      .constantFrom('limit')
      .chain((k) =>
        fc
          .constantFrom('0', '1', '100', '101', '-1', '1.5', '1e3', 'abc', '', '%00', '9'.repeat(30))
          .map((v) => `${k}=${v}`),
      ),
    fc
      .constantFrom('sort')
      .chain((k) => fc.constantFrom('created', 'mrr', 'last_seen', 'MRR', '', '%00').map((v) => `${k}=${v}`)),
    fc
      .constantFrom('q', 'plan')
      .chain((k) =>
        fc.constantFrom('a', '%00', '%ED%A0%80', 'x'.repeat(250), '%25_', ',,,', '').map((v) => `${k}=${v}`),
      ),
    cursor.map((c) => `cursor=${c}`),
    fc.constantFrom('unknown=1', 'limit=1&limit=2', 'cursor', '=', '&&', '%00=1'),
  );
  return fc.array(pair, { maxLength: 4 }).map((pairs) => (pairs.length ? `?${pairs.join('&')}` : ''));
}

describeMatrix(
  'fuzzed requests',
  (h) => {
    const statuses = new Map<number, number>();
    afterAll(() => {
      const summary = [...statuses]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s}: ${n}`)
        .join(', ');
      console.log(`[fuzz ${h.database}] ${RUNS} requests, seed ${SEED}: ${summary}`);
    });
    const ids: Record<string, string[]> = {};
    let keys: { write: string; read: string };
    beforeAll(async () => {
      const ws = await h.seed({ plan: 'paid', rateLimit: 1_000_000_000 });
      keys = { write: ws.key, read: ws.readKey };
      const w = h.engine.workspace(ws.org.id);
      const contact = await w.contacts.create({ externalUserId: 'fuzz-base' });
      const board = await w.boards.create({ name: 'Fuzz' });
      const post = await w.posts.create(board.id, { title: 'Fuzz post', contactId: contact.id });
      const webhook = await w.webhooks.create({ url: 'http://127.0.0.1:9/fuzz', events: ['contact.created'] });
      await w.contacts.create({ externalUserId: 'fuzz-delivery' });
      const delivery = (await w.webhooks.listDeliveries(webhook.id)).data[0]!;
      Object.assign(ids, {
        contactId: [contact.id],
        boardId: [board.id],
        postId: [post.id],
        webhookId: [webhook.id],
        deliveryId: [delivery.id],
      });
    });

    it(`answers ${RUNS} malformed requests with no 5xx, and every 4xx in the error envelope`, async () => {
      const request = fc.constantFrom(...OPERATION_IDS).chain((id: OperationId) => {
        const op = OPERATIONS[id];
        const params = pathParams(op.path);
        return fc.record({
          id: fc.constant(id),
          method: fc.oneof(
            { weight: 9, arbitrary: fc.constant(op.method as string) },
            { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT') },
          ),
          segments: fc.tuple(...params.map((p) => segment(ids, p))) as fc.Arbitrary<string[]>,
          query: query(Object.values(ids).flat()),
          body: fc.option(jsonText(op.method === 'GET' ? 40 : 5000), { nil: undefined, freq: 8 }),
          contentType: fc.constantFrom(
            'application/json',
            'application/json',
            'application/json',
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=x',
            'application/json; charset=latin1',
            null,
          ),
          auth: fc.constantFrom(
            ...([
              'write',
              'write',
              'write',
              'write',
              'write',
              'write',
              'write',
              'write',
              'read',
              'none',
              'duplicate',
              'garbage',
            ] as const),
          ),
          idempotencyKey: fc.option(fc.constantFrom('k1', 'k1', 'k2', 'has space', 'x'.repeat(300), 'dup'), {
            freq: 3,
          }),
        });
      });
      const outcome = await fc.check(
        fc.asyncProperty(request, async (r) => {
          let path: string = OPERATIONS[r.id].path;
          for (const s of r.segments) path = path.replace(/:[A-Za-z]+/, s);
          const headers = new Headers();
          if (r.auth === 'write' || r.auth === 'read') headers.set('authorization', `Bearer ${keys[r.auth]}`);
          if (r.auth === 'duplicate') {
            headers.append('authorization', `Bearer ${keys.write}`);
            headers.append('authorization', `Bearer ${keys.read}`);
          }
          if (r.auth === 'garbage') headers.set('authorization', 'Bearer fsk_\u00e9');
          if (r.contentType) headers.set('content-type', r.contentType);
          if (r.idempotencyKey === 'dup') {
            headers.append('idempotency-key', 'a');
            headers.append('idempotency-key', 'b');
          } else if (r.idempotencyKey) headers.set('idempotency-key', r.idempotencyKey);
          const hasBody = r.body !== undefined && r.method !== 'GET';
          const res = await fetch(`${h.baseUrl}${path}${r.query}`, {
            method: r.method,
            headers,
            body: hasBody ? r.body : undefined,
          });
          const text = await res.text();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          const where = `${r.method} ${path}${r.query} -> ${res.status} ${text.slice(0, 300)}`;
          expect(res.status, where).toBeLessThan(500);
          expect(res.headers.get('x-request-id'), where).toMatch(/^req_/);
          if (res.status >= 400) {
            const envelope = JSON.parse(text);
            expect(Object.keys(envelope), where).toEqual(['error']);
            expect(typeof envelope.error.message, where).toBe('string');
            const code = envelope.error.code as keyof typeof ERROR_CODES;
            expect(ERROR_CODES[code]?.status, where).toBe(res.status);
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      // fast-check's own report prints the whole counterexample (a deep body is megabytes): keep what tells the story.
      if (outcome.failed) {
        const cause =
          outcome.errorInstance instanceof Error ? outcome.errorInstance.message : String(outcome.errorInstance);
        throw new Error(
          `fuzz failed after ${outcome.numRuns} runs (seed ${SEED}, path ${outcome.counterexamplePath}): ${cause.slice(0, 2000)}`,
        );
      }
    }, 600_000);
  },
  { transports: ['socket'], engine: { webhooks: { allowPrivateNetworks: true } } },
);
