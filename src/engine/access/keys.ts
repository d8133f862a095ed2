import { createHash, randomBytes } from 'node:crypto';
import type { Scope } from '../../schemas/common.js';
import { answer, type BillingState, type Bindings, DEFAULT_RATE_LIMIT, FeedbackError, newId } from '../shared/index.js';
import { apiKeys, type Database, organizations } from '../store/index.js';

/** Secrets look like `fsk_` + 43 base64url characters (32 random bytes). */
export const API_KEY_PREFIX = 'fsk_';

export function hashApiKey(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export interface CreatedApiKey {
  id: string;
  organizationId: string;
  scope: Scope;
  /** The secret, shown once: only its SHA-256 hash is stored. */
  key: string;
  createdAt: string;
}

/** What a valid key resolves to: the workspace and everything the request checks need. */
export interface AuthenticatedKey {
  keyId: string;
  organizationId: string;
  scope: Scope;
  billingState: BillingState;
  plan: string;
  rateLimit: number;
}

/**
 * Whether a key may run an operation that needs `required` scope and does or does not write: the scope check
 * (403 ERR_SCOPE_INSUFFICIENT), then the billing state (403 ERR_FORBIDDEN on writes). One rule for REST and the agent
 * tools. Returns the refusal, or null.
 */
export function accessRefusal(
  key: Pick<AuthenticatedKey, 'scope' | 'billingState'>,
  required: Scope,
  writes: boolean,
): FeedbackError | null {
  if (required === 'read:write' && key.scope !== 'read:write')
    return new FeedbackError(
      'ERR_SCOPE_INSUFFICIENT',
      `This operation needs scope ${required}; the key has ${key.scope}.`,
      { required, granted: key.scope },
    );
  if (writes && key.billingState === 'read_only')
    return new FeedbackError('ERR_FORBIDDEN', 'The workspace is in read-only billing state; writes are refused.');
  return null;
}

/** How long an authenticated key is kept in process memory; see `createKeyCache`. */
export const KEY_CACHE_MS = 1000;
const KEY_CACHE_MAX = 10_000;

/**
 * Authenticated keys kept in process for `KEY_CACHE_MS`: every request reads its key, and the rows behind it (the
 * key, its workspace's billing state, plan and rate limit) almost never change. A change made through this engine
 * (`keys.revoke`, `organizations.update`) clears it at once; one made by another process (a CLI command, another
 * instance) takes effect within `KEY_CACHE_MS`. Unknown keys are never kept, so a new key works at once.
 */
export function createKeyCache(clock: () => Date) {
  const entries = new Map<string, { key: AuthenticatedKey; until: number }>();
  return {
    get(hash: string): AuthenticatedKey | undefined {
      const entry = entries.get(hash);
      if (entry === undefined) return undefined;
      if (entry.until > clock().getTime()) return entry.key;
      entries.delete(hash);
      return undefined;
    },
    set(hash: string, key: AuthenticatedKey): void {
      if (entries.size >= KEY_CACHE_MAX) entries.delete(entries.keys().next().value!);
      entries.set(hash, { key, until: clock().getTime() + KEY_CACHE_MS });
    },
    clear(): void {
      entries.clear();
    },
  };
}
export type KeyCache = ReturnType<typeof createKeyCache>;

const LAST_USED_PRECISION_MS = 60_000;
/** The longest a rotated key keeps working. */
const MAX_GRACE_SECONDS = 30 * 24 * 60 * 60;

/** What the keys run with: the database, the clock, and the cache of authenticated keys (cleared on any change). */
interface KeysContext {
  db: Database;
  clock: () => Date;
  cache: KeyCache;
}

/** A new key's id and secret (`fsk_` and 256 random bits). */
const newKey = (now: Date) => ({
  id: newId('key', now.getTime()),
  secret: API_KEY_PREFIX + randomBytes(32).toString('base64url'),
});

/**
 * Rotate a key of the workspace: a new key of the same scope (shown once), and the old one keeps working for
 * `graceSeconds` (0 to 30 days; 0 ends it at once) so the backends that use it can switch without a refused request.
 */
async function rotate(
  { db, clock, cache }: KeysContext,
  organizationId: string,
  keyId: string,
  graceSeconds: number,
): Promise<CreatedApiKey & { replaces: string; previousValidUntil: string }> {
  if (!Number.isInteger(graceSeconds) || graceSeconds < 0 || graceSeconds > MAX_GRACE_SECONDS)
    throw new FeedbackError('ERR_VALIDATION', 'The grace period must be 0 to 30 days.');
  const old = await apiKeys.findOf(db, organizationId, keyId);
  const now = clock();
  if (!old) throw new FeedbackError('ERR_NOT_FOUND', `No API key with id ${keyId}.`);
  if (old.revokedAt && old.revokedAt <= now)
    throw new FeedbackError('ERR_CONFLICT', 'This key is revoked: create a new one instead.');
  const until = new Date(now.getTime() + graceSeconds * 1000);
  const { id, secret } = newKey(now);
  const previousValidUntil = await db.transaction(async (tx) => {
    await apiKeys.insert(tx, { id, organizationId, keyHash: hashApiKey(secret), scope: old.scope }, now);
    return (await apiKeys.revoke(tx, keyId, until, organizationId))!;
  });
  cache.clear();
  const scope = old.scope as Scope;
  return { id, organizationId, scope, key: secret, createdAt: now.toISOString(), replaces: keyId, previousValidUntil };
}

/** Resolve a presented secret: the key cache, else one indexed read of the hash, joined to its workspace. */
async function authenticate({ db, clock, cache }: KeysContext, secret: string): Promise<AuthenticatedKey | null> {
  if (!secret.startsWith(API_KEY_PREFIX) || secret.length > 200) return null;
  const hash = hashApiKey(secret);
  const cached = cache.get(hash);
  if (cached) return cached;
  const now = clock();
  const row = await apiKeys.findLive(db, hash, now);
  if (!row) return null;
  const { lastUsedAt, ...found } = row;
  const key: AuthenticatedKey = {
    ...found,
    scope: row.scope as Scope,
    billingState: row.billingState as BillingState,
    rateLimit: row.rateLimit ?? DEFAULT_RATE_LIMIT,
  };
  // Last use, to the minute: written only on a cache miss and when a minute has passed, never in the way.
  if (lastUsedAt === null || now.getTime() - lastUsedAt.getTime() >= LAST_USED_PRECISION_MS)
    void apiKeys.markUsed(db, row.keyId, now).catch(() => {});
  cache.set(hash, key);
  return key;
}

export function createKeysService(db: Database, clock: () => Date, cache: KeyCache) {
  const ctx: KeysContext = { db, clock, cache };
  return {
    /** The keys of a workspace with when each was made, revoked and last used; never a key itself. */
    async list(organizationId: string): Promise<apiKeys.ApiKeyInfo[]> {
      if (!(await organizations.exists(db, organizationId)))
        throw new FeedbackError('ERR_NOT_FOUND', `No organization with id ${organizationId}.`);
      return apiKeys.listForOrganization(db, organizationId);
    },

    async create(organizationId: string, scope: Scope): Promise<CreatedApiKey> {
      if (scope !== 'read' && scope !== 'read:write')
        throw new FeedbackError('ERR_VALIDATION', 'scope must be read or read:write');
      if (!(await organizations.exists(db, organizationId)))
        throw new FeedbackError('ERR_NOT_FOUND', `No organization with id ${organizationId}.`);
      const now = clock();
      const { id, secret } = newKey(now);
      await apiKeys.insert(db, { id, organizationId, keyHash: hashApiKey(secret), scope }, now);
      return { id, organizationId, scope, key: secret, createdAt: now.toISOString() };
    },

    /**
     * Revoke a key (of the workspace, when `organizationId` is given: another's is 404); revoking a revoked key keeps
     * its first revocation time.
     */
    async revoke(keyId: string, organizationId?: string): Promise<{ id: string; revokedAt: string }> {
      const revokedAt = await apiKeys.revoke(db, keyId, clock(), organizationId);
      cache.clear();
      if (revokedAt === undefined) throw new FeedbackError('ERR_NOT_FOUND', `No API key with id ${keyId}.`);
      return { id: keyId, revokedAt };
    },

    rotate: (organizationId: string, keyId: string, graceSeconds: number) =>
      rotate(ctx, organizationId, keyId, graceSeconds),
    authenticate: (secret: string) => authenticate(ctx, secret),
  };
}
export type KeysService = ReturnType<typeof createKeysService>;

/** The contract's key operation: what the caller's key is, answered by the caller (REST or the agent tools). */
export const KEY_OPERATIONS = {
  whoami: (_none, { caller }) => answer(caller.whoami()),
} satisfies Bindings<undefined>;
