import type { AddressInfo } from 'node:net';
import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy between the engine and a real server, for network faults: `hold()` keeps every byte where it is (a
 * silent partition: no RST, no FIN, connections stay open and nothing arrives), `release()` lets the held bytes through
 * and carries on, `refuse()` closes every connection and refuses new ones (the server is down), `accept()` listens again.
 */
export interface TcpProxy {
  readonly port: number;
  /** `url` with its host and port replaced by the proxy's. */
  urlFor(url: string): string;
  hold(): void;
  release(): void;
  refuse(): Promise<void>;
  accept(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let holding = false;
  const pairs = new Set<{ client: Socket; upstream: Socket; held: Array<[Socket, Buffer]> }>();
  const onConnection = (client: Socket) => {
    const upstream = connect(target.port, target.host);
    const pair = { client, upstream, held: [] as Array<[Socket, Buffer]> };
    pairs.add(pair);
    const forward = (to: Socket) => (chunk: Buffer) => {
      if (holding) pair.held.push([to, chunk]);
      else to.write(chunk);
    };
    client.on('data', forward(upstream));
    upstream.on('data', forward(client));
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  };
  let server: Server = createServer(onConnection);
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
  const port = await listen(0);
  return {
    port,
    urlFor(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    hold() {
      holding = true;
    },
    release() {
      holding = false;
      for (const pair of pairs) {
        for (const [to, chunk] of pair.held) to.write(chunk);
        pair.held = [];
      }
    },
    async refuse() {
      // server.close() waits for open connections: they go first.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const pair of [...pairs]) {
        pair.client.destroy();
        pair.upstream.destroy();
      }
      await closed;
    },
    async accept() {
      server = createServer(onConnection);
      await listen(port);
    },
    async close() {
      const closed = server.listening
        ? new Promise<void>((resolve) => server.close(() => resolve()))
        : Promise.resolve();
      for (const pair of [...pairs]) {
        pair.client.destroy();
        pair.upstream.destroy();
      }
      await closed;
    },
  };
}
