import { createHash, createHmac } from 'node:crypto';

/** SHA-256 hex of the trimmed, lower-cased email: how contacts, votes and comments are matched. */
export function hashEmail(email: string | null | undefined): string | null {
  if (email === null || email === undefined) return null;
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
}

/** An address as logs may show it: the first letter and the domain (`a***@example.com`), never the whole. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at <= 0 ? '***' : `${email[0]}***${email.slice(at)}`;
}

/**
 * An address on a workspace's suppression list: HMAC-SHA256 of the trimmed, lower-cased address under the workspace's
 * salt. Nothing reads it back; a later interaction by the same address computes the same digest.
 */
export function suppressionDigest(salt: string, email: string): string {
  return createHmac('sha256', salt).update(email.trim().toLowerCase()).digest('hex');
}
