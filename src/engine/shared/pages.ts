import { validationError } from '../errors.js';

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
    throw validationError([{ path: 'cursor', code: 'invalid_cursor', message: 'cursor is not valid for this list and sort' }]);
  }
  return key as CursorKey;
}

/** A finite number (an epoch-ms time or an integer sort value). */
export const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
/** A non-empty id. */
export const isId = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 255;

/** The most common position: a time (epoch ms) and an id. */
export const timeAndId = (k: CursorKey): boolean => k.length === 2 && isFiniteNumber(k[0]) && isId(k[1]);

/** The position a list's `cursor` parameter names, or undefined for the first page (ERR_VALIDATION when not valid). */
export function readCursor(cursor: string | undefined, kind: string, valid: (key: CursorKey) => boolean = timeAndId): CursorKey | undefined {
  return cursor === undefined ? undefined : decodeCursor(cursor, kind, valid);
}

/** A page from up to `limit + 1` items in list order: the first `limit`, and the cursor after the last if there are more. */
export function toPage<T>(items: T[], limit: number, kind: string, keyOf: (last: T) => CursorKey): { data: T[]; nextCursor: string | null } {
  const data = items.slice(0, limit);
  const last = data[data.length - 1];
  return { data, nextCursor: items.length > limit && last !== undefined ? encodeCursor(kind, keyOf(last)) : null };
}
