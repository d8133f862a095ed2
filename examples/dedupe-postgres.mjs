// A DedupeStore on PostgreSQL for several receiver processes: a unique key and insert-or-nothing.
//   CREATE TABLE webhook_claims (id text PRIMARY KEY, expires_at timestamptz NOT NULL);
import pg from 'pg';

export function createPostgresDedupeStore(pool = new pg.Pool({ connectionString: process.env.DATABASE_URL })) {
  return {
    async claim(id, ttlSeconds) {
      // One statement: a fresh id is inserted; an expired claim is taken over; a live one is left alone.
      const { rowCount } = await pool.query(
        `INSERT INTO webhook_claims (id, expires_at) VALUES ($1, now() + make_interval(secs => $2))
         ON CONFLICT (id) DO UPDATE SET expires_at = excluded.expires_at WHERE webhook_claims.expires_at <= now()`,
        [id, ttlSeconds],
      );
      return rowCount === 1;
    },
    async release(id) {
      await pool.query('DELETE FROM webhook_claims WHERE id = $1', [id]);
    },
  };
}
// Purge now and then: DELETE FROM webhook_claims WHERE expires_at < now();
