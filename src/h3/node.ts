import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { H3 } from 'h3';
import { toNodeHandler } from 'h3/node';

export interface ServeNodeOptions {
  port?: number;
  host?: string;
}

export interface NodeServer {
  server: Server;
  /** The base URL the server listens on, e.g. `http://127.0.0.1:3000`. */
  url: string;
  /** Stop at once: every connection is closed, requests in flight included. */
  close(): Promise<void>;
  /**
   * Stop gracefully: accept nothing new, let requests in flight finish (their connections close after the answer),
   * and after `graceMs` close whatever is still open.
   */
  shutdown(graceMs: number): Promise<void>;
}

/** Serve an h3 app on Node's `http` module; port 0 picks a free port. */
export async function serveNode(app: H3, options: ServeNodeOptions = {}): Promise<NodeServer> {
  const server = createServer(toNodeHandler(app));
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 3000, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
    shutdown: (graceMs) =>
      new Promise<void>((resolve) => {
        const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
        // Keep-alive connections go as soon as they are idle (their request answered).
        const sweep = setInterval(() => server.closeIdleConnections(), 100);
        server.close(() => {
          clearTimeout(deadline);
          clearInterval(sweep);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
