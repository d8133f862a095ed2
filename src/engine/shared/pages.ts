import { MAX_MRR_CENTS } from '../../schemas/traits.js';
import { validationError } from './errors.js';

/** A keyset position: the sort key values of the last row returned, ending with its id. */
export type CursorKey = (string | number | null)[];

/**
 * Opaque keyset cursors: base64url JSON naming the list they belong to (`kind`) and the position.
 * Every keyset list (contacts per sort, a contact's posts, boards) uses this one format.
 */
export function encodeCursor(kind: string, key: CursorKey): string {
  return Buffer.from(JSON.stringify({ k: kind, v: key })).toString('base64url');
}

/**
 * Decode a cursor for `kind`; `valid` checks the shape of the key. Anything else, including a cursor
 * of another list or sort, is ERR_VALIDATION on `cursor`.
 */
export function decodeCursor(cursor: string, kind: string, valid: (key: CursorKey) => boolean): CursorKey {
  let parsed: { k?: unknown; v?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { k?: unknown; v?: unknown };
  } catch {
    parsed = {};
  }
  const key = parsed?.v;
  if (parsed?.k !== kind || !Array.isArray(key) || !valid(key as CursorKey)) {
    throw validationError([
      { path: 'cursor', code: 'invalid_cursor', message: 'cursor is not valid for this list and sort' },
    ]);
  }
  return key as CursorKey;
}

/**
 * An epoch-ms time both databases can compare: an integer from year 1 to year 9999 (a JavaScript date reaches
 * further, PostgreSQL's timestamps do not).
 */
export const isTime = (v: unknown): v is number =>
  Number.isSafeInteger(v) && (v as number) >= MIN_TIME && (v as number) <= MAX_TIME;
const MIN_TIME = -62_135_596_800_000; // 0001-01-01T00:00:00.000Z
const MAX_TIME = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z
/** An integer sort value from `min` to `max` (a count or an amount). */
export const isIntegerIn =
  (min: number, max: number) =>
  (v: unknown): v is number =>
    Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max;
/** One of our ids: 1 to 255 visible ASCII characters. */
export const isId = (v: unknown): v is string => typeof v === 'string' && /^[\x21-\x7e]{1,255}$/.test(v);

export const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
/** A search's position: relevance, votes, creation time (epoch ms) and id (docs/search.md). */
export const isRelevancePosition = (k: CursorKey): boolean =>
  k.length === 4 && isFiniteNumber(k[0]) && isFiniteNumber(k[1]) && isTime(k[2]) && isId(k[3]);

/** The most common position: a time (epoch ms) and an id. */
export const timeAndId = (k: CursorKey): boolean => k.length === 2 && isTime(k[0]) && isId(k[1]);

const isMrr = isIntegerIn(0, MAX_MRR_CENTS);
/** A position by revenue (contacts, companies): mrrCents (null in the tail of those without) and an id. */
export const mrrAndId = (k: CursorKey): boolean => k.length === 2 && (k[0] === null || isMrr(k[0])) && isId(k[1]);

/** The position a list's `cursor` parameter names, or undefined for the first page (ERR_VALIDATION when not valid). */
export function readCursor(
  cursor: string | undefined,
  kind: string,
  valid: (key: CursorKey) => boolean = timeAndId,
): CursorKey | undefined {
  return cursor === undefined ? undefined : decodeCursor(cursor, kind, valid);
}

/** A page from up to `limit + 1` items in list order: the first `limit`, and the cursor after the last if there are more. */
export function toPage<T>(
  items: T[],
  limit: number,
  kind: string,
  keyOf: (last: T) => CursorKey,
): { data: T[]; nextCursor: string | null } {
  const data = items.slice(0, limit);
  const last = data[data.length - 1];
  return { data, nextCursor: items.length > limit && last !== undefined ? encodeCursor(kind, keyOf(last)) : null };
}

/** Where a page in creation order starts: the last item's creation time (ms) and id. */
export interface CreatedAfter {
  at: number;
  id: string;
}

/**
 * A page of a list in creation order (keyset on createdAt and id, as the store's `pageOf` reads it). The cursor (of
 * this `kind`) is checked at once, before any database work; the answer then reads one item more than `limit` with
 * `read` and puts the cursor after the page.
 */
export function pageByCreation(kind: string, { cursor, limit }: { cursor?: string | undefined; limit: number }) {
  const key = readCursor(cursor, kind);
  const after: CreatedAfter | undefined = key && { at: key[0] as number, id: key[1] as string };
  return async <T extends { createdAt: string; id: string }>(
    read: (limit: number, after: CreatedAfter | undefined) => Promise<T[]>,
  ): Promise<{ data: T[]; nextCursor: string | null }> =>
    toPage(await read(limit + 1, after), limit, kind, (last) => [Date.parse(last.createdAt), last.id]);
}
