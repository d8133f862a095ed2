import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { everyOperation } from '../../scripts/every-operation.js';
import { createClient } from '../../src/client/index.js';
import { fillPath, OPERATION_IDS, OPERATION_SCHEMAS, OPERATIONS, pathParams } from '../../src/contract/index.js';
import { CLI_ACTOR } from '../../src/engine/index.js';
import { describeMatrix } from '../helpers/harness.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';

const PRISM = join(import.meta.dirname, '../../node_modules/@stoplight/prism-cli/dist/index.js');

/** A port nobody listens on, for Prism. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** Stoplight's Prism as a validation proxy in front of `upstream`, with the document the server serves. */
async function startPrism(upstream: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'prism-'));
  const doc = await (await fetch(`${upstream}/v1/openapi.json`)).text();
  writeFileSync(join(dir, 'openapi.json'), doc);
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [PRISM, 'proxy', join(dir, 'openapi.json'), upstream, '--host', '127.0.0.1', '--port', String(port)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (out.includes('Prism is listening')) resolve();
      else if (child.exitCode !== null) reject(new Error(`Prism exited: ${out}`));
    };
    child.stdout!.on('data', check);
    child.once('exit', check);
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await gone;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** What Prism found off the document in a response (its `sl-violations` header), leaving the request's own out. */
function responseViolations(res: Response): string[] {
  const header = res.headers.get('sl-violations');
  if (!header) return [];
  return (JSON.parse(header) as Array<{ location: string[]; message: string }>)
    .filter((v) => v.location[0] === 'response')
    .map((v) => `${v.location.join('.')}: ${v.message}`);
}

describeMatrix(
  'the served API against its OpenAPI document, through Prism in proxy mode',
  (h) => {
    let receiver: Receiver;
    beforeAll(async () => {
      receiver = await startReceiver();
    });
    afterAll(() => receiver.close());

    it("finds no response off the document: every operation's success, and its errors", async () => {
      const prism = await startPrism(h.baseUrl);
      try {
        const ws = await h.seed();
        const found: string[] = [];
        const statuses = new Map<string, Set<number>>();
        const through = async (input: RequestInfo | URL, init?: RequestInit) => {
          const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
          const url = input instanceof Request ? input.url : String(input);
          const res = await fetch(input, init);
          const route = `${method} ${new URL(url).pathname}`;
          for (const v of responseViolations(res)) found.push(`${route} ${res.status}: ${v}`);
          return res;
        };
        const client = createClient({ apiKey: ws.key, baseUrl: prism.url, fetch: through });
        await everyOperation(
          async (id, params, input) => {
            const body = (await client.operation(id, {
              ...(params && { params }),
              ...(input !== undefined && { input }),
            })) as { data: unknown };
            (statuses.get(id) ?? statuses.set(id, new Set()).get(id)!).add(200);
            return body.data;
          },
          `${receiver.origin}/prism`,
          () =>
            h.engine.workspace(ws.org.id).as(CLI_ACTOR).integrations.connect({
              service: 'slack',
              webhookUrl: 'https://hooks.slack.com/services/T000/B000/XXXX',
            }),
        );
        expect(statuses.size).toBe(OPERATION_IDS.length);

        // The errors of every operation: no key (401), a read key writing (403), an id that is nobody's (404), a body
        // or query it does not take (422).
        const call = async (id: (typeof OPERATION_IDS)[number], key: string | null, query = '', body?: unknown) => {
          const op = OPERATIONS[id];
          const path = fillPath(
            op.path,
            pathParams(op.path).map(() => 'x_1'),
          );
          const res = await through(`${prism.url}${path}${query}`, {
            method: op.method,
            headers: {
              ...(key ? { authorization: `Bearer ${key}` } : {}),
              ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
            },
            ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
          });
          await res.arrayBuffer();
          return res.status;
        };
        const errors = new Set<number>();
        for (const id of OPERATION_IDS) {
          const op = OPERATIONS[id];
          const schemas = OPERATION_SCHEMAS[id];
          errors.add(await call(id, null));
          if (op.scope === 'read:write') errors.add(await call(id, ws.readKey, '', schemas.body ? {} : undefined));
          if (pathParams(op.path).length > 0 && !schemas.body) errors.add(await call(id, ws.key));
          errors.add(await call(id, ws.key, '?bogus=1', schemas.body ? { bogus: 1 } : undefined));
        }
        expect([...errors].sort()).toEqual([401, 403, 404, 422]);
        expect(found).toEqual([]);
      } finally {
        await prism.stop();
      }
    });
  },
  { transports: ['socket'], engine: { webhooks: { allowPrivateNetworks: true } } },
);
