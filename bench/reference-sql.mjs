// The reference server's two statements (bench/reference-server.mjs), also timed in process by bench/engine.ts.
// `mark(i)` is the placeholder of the i-th parameter, from 1: `?` for libsql and the engine, `$i` for pg.

/** The key lookup: the key and its workspace's billing state, by the key's SHA-256 (hex). */
export const keySql = (mark) =>
  `SELECT k.id, k.organization_id, k.scope, o.billing_state FROM api_key k JOIN organization o ON o.id = k.organization_id WHERE k.key_hash = ${mark(1)} AND k.revoked_at IS NULL`;

/** The upsert of a contact by externalUserId; its 16 parameters in the order of the column list. */
export const upsertSql = (
  mark,
) => `INSERT INTO contact (id, organization_id, external_user_id, email, email_hash, name, plan, mrr_cents, currency, metadata,
  source, consent_basis, first_seen_at, last_seen_at, created_at, updated_at)
  VALUES (${Array.from({ length: 16 }, (_, i) => mark(i + 1)).join(', ')}) ON CONFLICT (organization_id, external_user_id) DO UPDATE SET
  email = excluded.email, name = excluded.name, last_seen_at = excluded.last_seen_at, updated_at = excluded.updated_at
  RETURNING id, external_user_id, email, name, created_at, updated_at`;
