import { defineEntity, p } from '@mikro-orm/core';

/**
 * A key's requests in one minute, shared by every instance: PostgreSQL only (an UNLOGGED table: counts that may be
 * lost in a crash, never worth a WAL write); on SQLite the one process counts in memory.
 */
export const RateLimitWindow = defineEntity({
  name: 'RateLimitWindow',
  tableName: 'rate_limit_window',
  properties: {
    keyId: p.string().primary().length(40),
    /** The window's first millisecond (epoch ms), aligned to the clock minute. */
    windowStart: p.bigint('number').primary(),
    count: p.integer(),
  },
});
