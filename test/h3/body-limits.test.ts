import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_IDS } from '../../src/contract/index.js';
import { createEngine, type Engine, hashEmail } from '../../src/engine/index.js';
import { createApp, type NodeServer, serveNode } from '../../src/h3/index.js';
import { mcpEndpoint } from '../../src/mcp/index.js';
import { createPortal } from '../../src/portal/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/databases.js';
import { portalWorkspace } from '../helpers/notifications.js';

const MiB = 1024 * 1024;
/** What the client offers at most: far past every limit, so a server that reads it all is told apart. */
const OFFERED = 48 * MiB;

/**
 * POST a body with no Content-Length (chunked), 64 KiB at a time, until the server answers or `OFFERED` is sent.
 * Returns the answer and how much had been sent when it came.
 */
function postChunked(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string; sent: number }> {
  return new Promise((resolve, reject) => {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    let answered = false;
    const req = httpRequest(url, { method: 'POST', headers: { ...headers, 'transfer-encoding': 'chunked' } }, (res) => {
      answered = true;
      const at = sent;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode!, body, sent: at });
      });
    });
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    const pump = () => {
      while (!answered && sent < OFFERED) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

describe('every route that reads a body stops at its limit while streaming, whatever the framing [sqlite]', () => {
  let db: TestDatabase;
  let engine: Engine;
  let server: NodeServer;
  let key: string;
  let handle: string;
  let boardSlug: string;
  let mailToken: string;
  const logged: string[] = [];
  const lines: Array<{ status: number; route: string }> = [];

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    engine = await createEngine({ database: db.url, log: () => {} });
    await engine.migrate();
    const ws = await portalWorkspace(engine);
    handle = ws.handle;
    boardSlug = ws.board.slug;
    key = (await engine.keys.create(ws.org.id, 'read:write')).key;
    const vote = await ws.ws.participation.vote({ postId: ws.post.id, email: 'limits@example.com', notifyMe: true });
    mailToken = encodeURIComponent(
      await engine.mailLinks.sign({
        organizationId: ws.org.id,
        contactId: vote.contactId!,
        emailHash: hashEmail('limits@example.com')!,
      }),
    );
    const logger = {
      info: (line: object) => void lines.push(line as { status: number; route: string }),
      warn: () => {},
      error: () => {},
      debug: () => {},
    };
    const app = createApp({
      engine,
      logger,
      logError: (message) => void logged.push(message),
      endpoints: [mcpEndpoint(engine)],
      sites: [createPortal({ engine })],
    });
    server = await serveNode(app, { port: 0 });
  });
  afterAll(async () => {
    await server?.close();
    await engine?.close();
    await db?.drop();
  });

  const json = () => ({
    authorization: `Bearer ${key}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  });
  const form = { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' };

  it('REST (1 MiB): 413 ERR_PAYLOAD_TOO_LARGE in the envelope, long before the whole body', async () => {
    const res = await postChunked(`${server.url}/v1/contacts/identify`, json());
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error.code).toBe('ERR_PAYLOAD_TOO_LARGE');
    expect(res.sent).toBeLessThan(OFFERED / 2);
  });

  it('MCP (the same 1 MiB): 413 ERR_PAYLOAD_TOO_LARGE in the same envelope', async () => {
    const res = await postChunked(`${server.url}/mcp`, json());
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error.code).toBe('ERR_PAYLOAD_TOO_LARGE');
    expect(res.sent).toBeLessThan(OFFERED / 2);
  });

  it('MCP takes exactly 1 MiB, and refuses 1 MiB and a byte (declared) in the envelope, as REST does', async () => {
    const rpc = (size: number) => {
      const head = '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"pad":"';
      const tail = '"}}}';
      return head + 'a'.repeat(size - head.length - tail.length) + tail;
    };
    const exact = await fetch(`${server.url}/mcp`, { method: 'POST', headers: json(), body: rpc(MiB) });
    expect(exact.status).toBe(200);
    expect((await exact.json()).result.tools.length).toBe(OPERATION_IDS.length);
    const over = await fetch(`${server.url}/mcp`, { method: 'POST', headers: json(), body: rpc(MiB + 1) });
    expect(over.status).toBe(413);
    expect((await over.json()).error).toEqual({ code: 'ERR_PAYLOAD_TOO_LARGE', message: expect.any(String) });
    const broken = await fetch(`${server.url}/mcp`, { method: 'POST', headers: json(), body: '{"jsonrpc":' });
    expect(broken.status).toBe(400);
    expect((await broken.json()).error.code).toBe('ERR_BAD_REQUEST');
  });

  it('portal forms (64 KiB): 413 with a page', async () => {
    const res = await postChunked(`${server.url}/portal/${handle}/b/${boardSlug}/new`, form);
    expect(res.status).toBe(413);
    expect(res.body).toContain('too large');
    expect(res.sent).toBeLessThan(OFFERED / 2);
  });

  it('the one-click unsubscribe (64 KiB): 413, and nothing unsubscribed', async () => {
    const res = await postChunked(`${server.url}/portal/mail/unsubscribe?t=${mailToken}`, form);
    expect(res.status).toBe(413);
    expect(res.sent).toBeLessThan(OFFERED / 2);
    expect(await engine.db.all('SELECT 1 FROM mail_unsubscribe')).toEqual([]);
  });

  it('the preferences form (64 KiB): 413', async () => {
    const res = await postChunked(`${server.url}/portal/mail/preferences?t=${mailToken}`, form);
    expect(res.status).toBe(413);
    expect(res.sent).toBeLessThan(OFFERED / 2);
  });

  it('a chunked form under the limit is read like any other (not refused for having no Content-Length)', async () => {
    const res = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        `${server.url}/portal/mail/unsubscribe?t=${mailToken}`,
        { method: 'POST', headers: { ...form, 'transfer-encoding': 'chunked' } },
        (r) => {
          r.resume();
          r.on('end', () => resolve(r.statusCode!));
        },
      );
      req.on('error', reject);
      req.write('List-Unsubscribe=');
      req.end('One-Click');
    });
    expect(res).toBe(200);
  });
});
