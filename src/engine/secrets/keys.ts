import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';

/**
 * Secrets at rest: what the server must read back (webhook signing secrets, and the answers an Idempotency-Key
 * replays) is kept sealed with AES-256-GCM, so a copy of the database alone does not hand them out.
 *
 * A sealed value is `fs1:<key id>:<base64url of iv, ciphertext and tag>`. The key id (8 hex characters of the key's
 * SHA-256) says which key opens it, so a value sealed under an older key still opens while that key is a fallback.
 * Each value is bound to where it is kept (`webhook:<id>`, ...): a sealed value copied into another row does not open.
 */

export const SECRET_KEY_ENV = 'FEEDBACK_SECRET_KEY';
export const SECRET_KEY_FALLBACKS_ENV = 'FEEDBACK_SECRET_KEY_FALLBACKS';
const PREFIX = 'fs1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The keys of a server: `current` seals and opens, `fallbacks` (older keys, during a rotation) only open. */
export interface SecretKeys {
  /** 32 bytes as 64 hex characters or base64/base64url (43 or 44 characters). */
  current: string;
  fallbacks?: readonly string[];
}

/** A sealing key that is missing or malformed, or a sealed value whose key is not configured, or that was altered. */
export class SecretKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretKeyError';
  }
}

/** A key's 32 bytes from its text form; anything else is refused with a message that says how to make one. */
export function parseSecretKey(text: string, name = SECRET_KEY_ENV): Buffer {
  const trimmed = text.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(trimmed)
    ? Buffer.from(trimmed, 'hex')
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)
      ? Buffer.from(trimmed.replace(/=$/, ''), 'base64url')
      : undefined;
  if (bytes?.length !== 32) {
    throw new SecretKeyError(
      `${name} must be 32 random bytes, as 64 hex characters or base64 (make one with: feedback-service secrets generate-key)`,
    );
  }
  return bytes;
}

/** A new random key in its text form (base64url). */
export function generateSecretKey(): string {
  return randomBytes(32).toString('base64url');
}

const keyIdOf = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 8);

export interface SecretBox {
  /** The id of the key that seals. */
  readonly keyId: string;
  /** Seal `plain` for the place `context` names. */
  seal(plain: string, context: string): string;
  /** Open a sealed value kept at `context`. A value that was never sealed (written before 0.2) is returned as it is. */
  open(stored: string, context: string): string;
  /** Whether `open` can read a stored value: never sealed, or sealed under a configured key. */
  opens(stored: string): boolean;
  /**
   * HMAC keys for one purpose (`mail-token`, ...), derived from the sealing keys with HKDF-SHA256: `current` signs,
   * `all` verify (the current key's first, then the fallbacks'), so what was signed before a rotation verifies while
   * its key is a fallback.
   */
  signingKeys(purpose: string): { current: Uint8Array; all: Uint8Array[] };
}

export function createSecretBox(keys: SecretKeys): SecretBox {
  const current = parseSecretKey(keys.current);
  const currentId = keyIdOf(current);
  const byId = new Map<string, Buffer>([[currentId, current]]);
  for (const [i, text] of (keys.fallbacks ?? []).entries()) {
    const key = parseSecretKey(text, `${SECRET_KEY_FALLBACKS_ENV} (entry ${i + 1})`);
    byId.set(keyIdOf(key), key);
  }
  const storedKeyId = (stored: string) =>
    stored.startsWith(PREFIX) ? stored.slice(PREFIX.length, PREFIX.length + 8) : null;
  const derived = new Map<string, { current: Uint8Array; all: Uint8Array[] }>();
  return {
    keyId: currentId,
    seal(plain, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([iv, cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${PREFIX}${currentId}:${body.toString('base64url')}`;
    },
    open(stored, context) {
      const id = storedKeyId(stored);
      if (id === null) return stored;
      const key = byId.get(id);
      if (!key) {
        throw new SecretKeyError(
          `a stored secret is sealed with key ${id}, which is not configured: set it in ${SECRET_KEY_ENV} or ${SECRET_KEY_FALLBACKS_ENV}`,
        );
      }
      const body = Buffer.from(stored.slice(PREFIX.length + 9), 'base64url');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, body.subarray(0, IV_BYTES));
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
        return Buffer.concat([
          decipher.update(body.subarray(IV_BYTES, body.length - TAG_BYTES)),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        throw new SecretKeyError(`a stored secret (${context}) does not open under key ${id}: it was altered or moved`);
      }
    },
    opens(stored) {
      const id = storedKeyId(stored);
      return id === null || byId.has(id);
    },
    signingKeys(purpose) {
      let keys = derived.get(purpose);
      if (!keys) {
        const all = [...byId.values()].map(
          (key) => new Uint8Array(hkdfSync('sha256', key, new Uint8Array(0), `feedback-service:${purpose}`, 32)),
        );
        derived.set(purpose, (keys = { current: all[0]!, all }));
      }
      return keys;
    },
  };
}

/** A box that resolves its keys on first use: for an engine that may need none (`migrate` of a new database). */
export function lazySecretBox(make: () => SecretBox): SecretBox {
  let box: SecretBox | undefined;
  const get = () => (box ??= make());
  return {
    get keyId() {
      return get().keyId;
    },
    seal: (plain, context) => get().seal(plain, context),
    open: (stored, context) => get().open(stored, context),
    opens: (stored) => get().opens(stored),
    signingKeys: (purpose) => get().signingKeys(purpose),
  };
}

/** Where the keys of an engine come from, in order; `log` hears about a key file made or one that others can read. */
export function resolveSecretKeys(
  target: { dialect: 'sqlite' | 'postgresql'; location: string },
  env: Record<string, string | undefined>,
  log: (message: string) => void,
): SecretKeys {
  const fallbacks = (env[SECRET_KEY_FALLBACKS_ENV] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const current = env[SECRET_KEY_ENV]?.trim();
  if (current) return { current, fallbacks };
  if (target.dialect === 'postgresql') {
    throw new SecretKeyError(
      `PostgreSQL needs ${SECRET_KEY_ENV}: the key that encrypts webhook secrets at rest, the same on every instance ` +
        '(make one with: feedback-service secrets generate-key). See docs/security.md.',
    );
  }
  // In memory nothing outlives the process, the key neither.
  if (target.location === ':memory:') return { current: generateSecretKey(), fallbacks };
  return { current: readOrCreateKeyFile(secretKeyFileOf(target.location), log), fallbacks };
}

/** The key file of an embedded database: beside it, `<database>.key`. */
export const secretKeyFileOf = (databaseFile: string) => `${databaseFile}.key`;

function readOrCreateKeyFile(path: string, log: (message: string) => void): string {
  try {
    writeFileSync(path, `${generateSecretKey()}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(path, 0o600); // whatever the umask
    log(
      `[feedback-service] created ${path}, the key that encrypts webhook secrets at rest (mode 0600): back it up apart from the database`,
    );
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    if (process.platform !== 'win32' && (statSync(path).mode & 0o077) !== 0) {
      log(`[feedback-service] ${path} can be read by other users; chmod 600 it`);
    }
  }
  return readFileSync(path, 'utf8').trim();
}
