import anyAscii from 'any-ascii';
import { isUniqueViolation } from './faults.js';

/**
 * Lower-case ASCII words joined by `-`, at most `max` characters. Every script is transliterated first (any-ascii:
 * `Тёмная тема` is `temnaya-tema`, `Ça déborde` is `ca-deborde`, `深色模式` is `shensemoshi`), so a title gives a
 * readable slug in any language; only a title with no letters or digits at all is `untitled`.
 */
export function slugify(text: string, max = 80): string {
  const slug = anyAscii(text)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/g, '');
  return slug || 'untitled';
}

/** The first slug not in `taken`: `base`, then `base-2`, `base-3`, ... within 80 characters. */
export function firstFreeSlug(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  let slug = base;
  for (let n = 2; used.has(slug); n++) slug = `${base.slice(0, 80 - String(n).length - 1).replace(/-+$/, '')}-${n}`;
  return slug;
}

/** A slug collision under a concurrent insert is retried (with the next free slug). */
export async function withSlugRetry<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt < 5 && isUniqueViolation(err)) continue;
      throw err;
    }
  }
}
