import { createHash } from 'node:crypto';

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
