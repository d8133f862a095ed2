// A DedupeStore on Redis for several receiver processes: SET NX EX is the atomic claim.
import { createClient } from 'redis';

export async function createRedisDedupeStore(client = createClient({ url: process.env.REDIS_URL })) {
  if (!client.isOpen) await client.connect();
  return {
    async claim(id, ttlSeconds) {
      return (await client.set(`webhook:${id}`, '1', { NX: true, EX: ttlSeconds })) === 'OK';
    },
    async release(id) {
      await client.del(`webhook:${id}`);
    },
  };
}
