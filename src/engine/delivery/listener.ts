/** The channel the `event_fan_out` trigger NOTIFYs on when it writes deliveries (PostgreSQL). */
export const DELIVERY_CHANNEL = 'feedback_service_delivery';

/**
 * LISTEN for other processes' deliveries on PostgreSQL, on a connection of its own; `wake` on each NOTIFY and once
 * connected (whatever was committed while nobody listened). A lost connection is reconnected after a second; the
 * poll covers the gap.
 */
export async function listenForDeliveries(url: string, wake: () => void, log: (message: string, error?: unknown) => void): Promise<{ close(): Promise<void> }> {
  const { default: pg } = await import('pg');
  let client: InstanceType<typeof pg.Client> | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    const c = new pg.Client({ connectionString: url });
    c.on('notification', wake);
    c.on('error', (err) => {
      log('[feedback-service] LISTEN connection lost; reconnecting (polling meanwhile)', err);
      void c.end().catch(() => {});
      if (!closed) retry = setTimeout(() => void connect().catch(() => {}), 1000);
    });
    await c.connect();
    await c.query(`LISTEN ${DELIVERY_CHANNEL}`);
    client = c;
    wake();
  };
  await connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
