import { constantTimeEqual, type HmacBackend, toHex } from './crypto.js';

const encoder = new TextEncoder();
const MAX_CACHED_KEYS = 100;

/** Web Crypto HMAC; imported keys are cached per secret so repeated verification does not re-import. */
export function createWebCryptoBackend(): HmacBackend {
  const keys = new Map<string, Promise<CryptoKey>>();
  function keyFor(secret: string): Promise<CryptoKey> {
    let key = keys.get(secret);
    if (!key) {
      key = globalThis.crypto.subtle.importKey(
        'raw',
        encoder.encode(secret),
        { name: 'HMAC', hash: 'SHA-256' },
        false,
        ['sign'],
      );
      if (keys.size >= MAX_CACHED_KEYS) keys.delete(keys.keys().next().value!);
      keys.set(secret, key);
    }
    return key;
  }
  return {
    async hmacHex(secret, prefix, body) {
      // One encode for a string body; bytes are appended to the encoded prefix once.
      let data: Uint8Array;
      if (typeof body === 'string') data = encoder.encode(prefix + body);
      else {
        const head = encoder.encode(prefix);
        data = new Uint8Array(head.length + body.length);
        data.set(head, 0);
        data.set(body, head.length);
      }
      const sig = await globalThis.crypto.subtle.sign('HMAC', await keyFor(secret), data as BufferSource);
      return toHex(new Uint8Array(sig));
    },
    timingSafeEqualHex: constantTimeEqual,
  };
}
