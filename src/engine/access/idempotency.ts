import { createHash } from 'node:crypto';
import { OPERATION_SCHEMAS, OPERATIONS, type OperationId, type OperationSchemas } from '../../contract/index.js';
import { type SecretBox, sealedAt } from '../secrets/index.js';
import { parseInput } from '../shared/index.js';
import { type Database, idempotencyKeys } from '../store/index.js';

/** How long a key is remembered. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A request still `in_progress` after this is taken to have died with its process; its key is free again. */
const ABANDONED_MS = 60_000;
/** How long a repeat waits for the first request with its key to finish before it is refused. */
const WAIT_MS = 10_000;
const POLL_MS = 25;

/** What to do with a POST that carries an Idempotency-Key. */
export type IdempotencyDecision =
  | { kind: 'execute' }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'conflict'; message: string };

/**
 * The fingerprint of a request: method, path and the validated body (so fields in another order are the same
 * request). A key reused with another fingerprint is refused. Validation comes first: an invalid body is refused
 * (422) before anything is hashed or kept, and only a validated body, bounded in depth, is ever serialized.
 */
export function requestFingerprint(id: OperationId, path: string, body: Record<string, unknown>): string {
  const schema = (OPERATION_SCHEMAS[id] as OperationSchemas).body;
  const valid: unknown = schema ? parseInput(schema, body) : {};
  return createHash('sha256')
    .update(`${OPERATIONS[id].method} ${path}\n${JSON.stringify(valid)}`)
    .digest('hex');
}

/**
 * Idempotency keys per workspace. `begin` claims a key with one conditional insert, so of concurrent requests with
 * the same key exactly one executes; the others wait for its response and replay it.
 */
export function createIdempotencyStore(db: Database, clock: () => Date, secrets: SecretBox) {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  return {
    async begin(organizationId: string, key: string, fingerprint: string): Promise<IdempotencyDecision> {
      const deadline = Date.now() + WAIT_MS;
      for (;;) {
        const now = clock();
        if (
          await idempotencyKeys.claim(
            db,
            organizationId,
            key,
            fingerprint,
            now,
            new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
          )
        ) {
          // Now and then, forget expired keys.
          if (Math.random() < 0.01) await idempotencyKeys.removeExpired(db, now);
          return { kind: 'execute' };
        }
        const row = await idempotencyKeys.find(db, organizationId, key);
        if (!row) continue; // released or expired meanwhile: claim it again
        const expired = row.expiresAt.getTime() <= now.getTime();
        const abandoned = row.status === 'in_progress' && row.createdAt.getTime() <= now.getTime() - ABANDONED_MS;
        if (expired || abandoned) {
          await idempotencyKeys.removeClaim(db, organizationId, key, row.createdAt);
          continue;
        }
        if (row.requestHash !== fingerprint)
          return {
            kind: 'conflict',
            message: 'This Idempotency-Key was already used with a different request; use a new key for a new request.',
          };
        if (row.status === 'completed') {
          return {
            kind: 'replay',
            status: row.responseStatus!,
            body: secrets.open(row.responseBody!, sealedAt.idempotentAnswer(organizationId, key)),
          };
        }
        if (Date.now() > deadline)
          return {
            kind: 'conflict',
            message: 'A request with this Idempotency-Key is still in progress; retry later.',
          };
        await sleep(POLL_MS);
      }
    },

    /**
     * Keep the response of the request that claimed the key: repeats get it back. It is kept sealed: the answer to a
     * webhook registration carries the signing secret.
     */
    complete: (organizationId: string, key: string, status: number, body: string) =>
      idempotencyKeys.complete(
        db,
        organizationId,
        key,
        status,
        secrets.seal(body, sealedAt.idempotentAnswer(organizationId, key)),
      ),

    /** Forget a key whose request failed unexpectedly, so a retry runs it again. */
    release: (organizationId: string, key: string) => idempotencyKeys.release(db, organizationId, key),
  };
}
export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>;
