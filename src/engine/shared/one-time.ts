// One-time secrets people are mailed or handed: session and link tokens kept only as digests, and six-digit codes
// that count wrong tries and work once (the portal's email codes, the console's sign-ins).
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** SHA-256 in hex: what the tables keep of a token or a code. */
export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** A random token for a cookie or a link: 32 bytes, base64url. */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** A code of `digits` digits, and its digest tied to the row it belongs to (so one code's digest fits no other row). */
export function newCode(rowId: string, digits = 6): { code: string; codeHash: string } {
  const code = String(randomInt(0, 10 ** digits)).padStart(digits, '0');
  return { code, codeHash: sha256(`${rowId}:${code}`) };
}

/** A row that holds a one-time code: its digest, wrong tries so far, and its end. */
export interface OneTimeRow {
  id: string;
  codeHash: string;
  attempts: number;
  expiresAt: Date;
}

/** How a one-time row is changed, in the transaction that read it (locked where rows lock). */
export interface OneTimeStore {
  /** Whether the row was still there: removed once used, expired or tried too often. */
  remove(id: string): Promise<boolean>;
  countAttempt(id: string): Promise<void>;
}

/** The words of the refusals: what the row is ("code", "sign-in") and what to ask for after the last try. */
export interface OneTimeWords {
  noun: string;
  askAfterLastTry: string;
  attempts: number;
}

/** Used, or refused: why, whether the same row may be tried again, and whether a wrong code was typed (to be counted). */
export type OneTimeOutcome<T> =
  | { row: T }
  | {
      refusal: string;
      /** Why, by name (the portal words it in the person's language): and with `wrong`, the tries left. */
      reason: 'gone' | 'expired' | 'last_try' | 'wrong' | 'paused' | 'wrong_paused';
      left?: number;
      retry?: true;
      wrongCode?: true;
    };

/**
 * Use a one-time row (given back once used): with `code` null (a link's token found it) or the right code, it is removed and used; an expired
 * row is removed; a wrong code counts a try, and the last allowed try removes the row. Removing in the transaction that
 * read the row makes two uses racing succeed once.
 */
export async function useOnce<T extends OneTimeRow>(
  row: T | undefined,
  code: string | null,
  now: Date,
  store: OneTimeStore,
  words: OneTimeWords,
): Promise<OneTimeOutcome<T>> {
  const gone = { refusal: `This ${words.noun} is no longer valid; ask for a new one.`, reason: 'gone' as const };
  if (!row) return gone;
  if (row.expiresAt <= now) {
    await store.remove(row.id);
    return { refusal: `This ${words.noun} has expired; ask for a new one.`, reason: 'expired' };
  }
  if (
    code !== null &&
    !timingSafeEqual(Buffer.from(sha256(`${row.id}:${code.trim()}`), 'hex'), Buffer.from(row.codeHash, 'hex'))
  ) {
    if (row.attempts + 1 >= words.attempts) {
      await store.remove(row.id);
      return {
        refusal: `That code is wrong, and it was the last try; ask for ${words.askAfterLastTry}.`,
        reason: 'last_try',
        wrongCode: true,
      };
    }
    await store.countAttempt(row.id);
    const left = words.attempts - row.attempts - 1;
    return {
      refusal: `That code is wrong; ${left} ${left === 1 ? 'try' : 'tries'} left.`,
      reason: 'wrong',
      left,
      retry: true,
      wrongCode: true,
    };
  }
  return (await store.remove(row.id)) ? { row } : gone;
}

/**
 * Wrong codes an address may have typed before codes for it pause: 10 in any hour and 30 in any day, across codes
 * (a new code does not start the count again). Five tries a code and three codes a minute would otherwise allow about
 * 15 guesses a minute without end.
 */
export const CODE_FAILURE_LIMITS = [
  { failures: 10, windowMs: 3_600_000 },
  { failures: 30, windowMs: 86_400_000 },
] as const;
/** How far back the wrong codes that CODE_FAILURE_LIMITS counts go. */
export const CODE_FAILURE_MEMORY_MS = 86_400_000;

/**
 * Until when codes for an address are paused, given when its wrong codes of the last day were typed (oldest first);
 * null while it is under every limit. A window slides: codes open again when the oldest failure that keeps the count
 * at its limit leaves it.
 */
export function codesPausedUntil(failures: readonly Date[], now: Date): Date | null {
  let until: number | null = null;
  for (const { failures: limit, windowMs } of CODE_FAILURE_LIMITS) {
    const inWindow = failures.filter((f) => now.getTime() - f.getTime() < windowMs);
    if (inWindow.length >= limit) until = Math.max(until ?? 0, inWindow[inWindow.length - limit]!.getTime() + windowMs);
  }
  return until === null ? null : new Date(until);
}

/** The refusal while codes for an address are paused: when they work again, in UTC, to the minute. */
export function codesPausedMessage(until: Date): string {
  const at = new Date(Math.ceil(until.getTime() / 60_000) * 60_000);
  const time = at.toISOString().slice(11, 16);
  const day = at.toISOString().slice(0, 10);
  return `Too many wrong codes were typed for this address, so codes for it are paused until ${time} UTC on ${day}. Try again then.`;
}
