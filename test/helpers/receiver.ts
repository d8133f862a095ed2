import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CONDITION_DEADLINE_MS } from './wait.js';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Header names as sent, in order. */
  headerNames: string[];
  /** The raw body, exactly as received. */
  body: string;
}

export type Respond = (request: ReceivedRequest, res: ServerResponse) => void | Promise<void>;

export interface Receiver {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** Every request received, in arrival order. */
  readonly requests: ReceivedRequest[];
  /** Change how the receiver answers (200 "ok" by default). */
  respond(handler: Respond): void;
  /** Resolve once at least `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** A real HTTP receiver on 127.0.0.1 that records every request. */
export async function startReceiver(initial?: Respond): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let handler: Respond = initial ?? ((_req, res) => void res.end('ok'));
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        headerNames: req.rawHeaders.filter((_, i) => i % 2 === 0),
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(received);
      void Promise.resolve(handler(received, res)).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    respond(next) {
      handler = next;
    },
    async waitFor(count, timeoutMs = CONDITION_DEADLINE_MS) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > deadline) throw new Error(`receiver got ${requests.length} requests, expected ${count}`);
        await new Promise((r) => setTimeout(r, 5));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
