import { connect } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createConsole } from '../../src/console/index.js';
import { createApp, type NodeServer, serveNode } from '../../src/h3/index.js';
import { mcpEndpoint } from '../../src/mcp/index.js';
import { createPortal } from '../../src/portal/index.js';
import { describeEngine } from '../helpers/harness.js';
import { portalWorkspace } from '../helpers/notifications.js';
import { until } from '../helpers/wait.js';

// A client that closes the connection before its body arrived (a browser tab closed mid-upload, a load balancer's
// probe) is not a failure of ours, nor the database going away: it is logged at debug as a client abort, on every
// route that reads a body, and nothing is reported at error level.

describeEngine('a client that goes away mid-body', (h) => {
  let server: NodeServer;
  let key: string;
  let formPaths: string[];
  const reported: string[] = [];
  const debug: string[] = [];
  const lines: Array<{ status: number; route: string }> = [];

  beforeAll(async () => {
    const ws = await portalWorkspace(h.engine);
    key = (await h.engine.keys.create(ws.org.id, 'read:write')).key;
    formPaths = ['/console/sign-in', `/portal/${ws.handle}/b/${ws.board.slug}/new`];
    const logger = {
      info: (line: object) => void lines.push(line as { status: number; route: string }),
      warn: () => {},
      error: (_: object, message: string) => void reported.push(message),
      debug: (_: object, message: string) => void debug.push(message),
    };
    const app = createApp({
      engine: h.engine,
      logger,
      endpoints: [mcpEndpoint(h.engine)],
      sites: [createPortal({ engine: h.engine }), createConsole({ engine: h.engine })],
    });
    server = await serveNode(app, { port: 0 });
  });
  afterAll(() => server?.close());

  /** Send the head and part of a body, then close the connection. */
  const cutOff = (path: string, headers: string, framing: string, part: string) =>
    new Promise<void>((resolve, reject) => {
      const socket = connect(Number(new URL(server.url).port), '127.0.0.1', () => {
        socket.write(`POST ${path} HTTP/1.1\r\nhost: x\r\n${headers}${framing}\r\n\r\n${part}`);
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 50);
      });
      socket.on('error', reject);
    });

  it('REST, the agent tools, the console and the portal: a debug line each, answered 400 for the record, nothing at error level', async () => {
    const json = `authorization: Bearer ${key}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\n`;
    const form = 'content-type: application/x-www-form-urlencoded\r\nsec-fetch-site: same-origin\r\n';
    const cases: Array<[string, string, string]> = [
      ['/v1/contacts/identify', json, '{"externalUserId": "u'],
      ['/mcp', json, '{"jsonrpc": "2.0", '],
      ...formPaths.map((p): [string, string, string] => [p, form, 'email=a%40']),
    ];
    for (const [path, headers, part] of cases) {
      for (const framing of ['content-length: 2000', 'transfer-encoding: chunked']) {
        const before = debug.length;
        const body = framing.startsWith('content') ? part : `${part.length.toString(16)}\r\n${part}\r\n`;
        await cutOff(path, headers, framing, body);
        await until(`the debug line for ${path} (${framing})`, () => debug.length > before);
        expect(debug.at(-1)).toMatch(/client abort/);
      }
    }
    await until('the access log lines', () => lines.filter((l) => l.status === 400).length >= cases.length * 2);
    expect(reported).toEqual([]);
  });
});
