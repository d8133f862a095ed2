import { DELIVERY_CHANNEL } from '../store/index.js';

/**
 * LISTEN for other processes' deliveries on PostgreSQL, on a connection of its own; `wake` on each NOTIFY and once
 * connected (whatever was committed while nobody listened). A lost connection is reconnected every second until it
 * is back; the poll covers the gap. `connectMs` bounds each attempt (a database that does not answer).
 */
export async function listenForDeliveries(
  url: string,
  wake: () => void,
  log: (message: string, error?: unknown) => void,
  connectMs = 5_000,
): Promise<{ close(): Promise<void> }> {
  const { default: pg } = await import('pg');
  let client: InstanceType<typeof pg.Client> | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const reconnect = () => {
    if (!closed) retry = setTimeout(() => void connect().catch(reconnect), 1000);
  };
  const connect = async () => {
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: connectMs, keepAlive: true });
    c.on('notification', wake);
    c.on('error', (err) => {
      if (client !== c) return; // an attempt that failed to connect: its caller retries
      client = undefined;
      log('[feedback-service] LISTEN connection lost; reconnecting (polling meanwhile)', err);
      void c.end().catch(() => {});
      reconnect();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${DELIVERY_CHANNEL}`);
    } catch (err) {
      void c.end().catch(() => {});
      throw err;
    }
    client = c;
    wake();
  };
  await connect().catch((err: unknown) => {
    log('[feedback-service] LISTEN could not connect; retrying every second (polling meanwhile)', err);
    reconnect();
  });
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
