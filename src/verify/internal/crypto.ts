/** The two primitives verification needs; one implementation per runtime. */
export interface HmacBackend {
  /** HMAC-SHA256 under `secret` (UTF-8) of `prefix` (UTF-8) followed by `body`, as lowercase hex. */
  hmacHex(secret: string, prefix: string, body: string | Uint8Array): Promise<string> | string;
  /** Compare two equal-length lowercase hex strings in constant time. */
  timingSafeEqualHex(a: string, b: string): boolean;
}

/** Constant-time comparison of two strings: the time depends only on the length. */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += HEX[bytes[i]!];
  return out;
}
