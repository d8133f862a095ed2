import { constantTimeEqual, toHex, type HmacBackend } from './crypto.js';

const encoder = new TextEncoder();
const MAX_CACHED_KEYS = 100;

/** Web Crypto HMAC; imported keys are cached per secret so repeated verification does not re-import. */
export function createWebCryptoBackend(): HmacBackend {
  const keys = new Map<string, Promise<CryptoKey>>();
  function keyFor(secret: string): Promise<CryptoKey> {
    let key = keys.get(secret);
    if (!key) {
      key = globalThis.crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
      if (keys.size >= MAX_CACHED_KEYS) keys.delete(keys.keys().next().value!);
      keys.set(secret, key);
    }
    return key;
  }
  return {
    async hmacHex(secret, data) {
      const sig = await globalThis.crypto.subtle.sign('HMAC', await keyFor(secret), data as BufferSource);
      return toHex(new Uint8Array(sig));
    },
    timingSafeEqualHex: constantTimeEqual,
  };
}
