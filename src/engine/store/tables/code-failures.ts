import { defineEntity, p } from '@mikro-orm/core';
import {
  CODE_FAILURE_MEMORY_MS,
  codesPausedMessage,
  codesPausedUntil,
  hashEmail,
  newId,
  type OneTimeOutcome,
  type OneTimeRow,
  type OneTimeStore,
  type OneTimeWords,
  useOnce,
} from '../../shared/index.js';
import { type Sql, toDate, ts } from '../sql.js';

/**
 * A wrong code typed for an address: on the console (scope `console`) or on a workspace's portal (scope: the
 * workspace's id). Counted across codes, so asking for new codes does not start the count again; kept a day.
 * The address only as its SHA-256.
 */
export const CodeFailure = defineEntity({
  name: 'CodeFailure',
  tableName: 'code_failure',
  indexes: [
    { name: 'code_failure_scope_email_idx', properties: ['scope', 'emailHash', 'createdAt'] },
    { name: 'code_failure_created_idx', properties: ['createdAt'] },
  ],
  properties: {
    id: p.string().primary().length(40),
    /** `console`, or the workspace whose portal the code was typed on. */
    scope: p.string().length(40),
    emailHash: p.string().length(64),
    createdAt: p.datetime().length(3),
  },
});

export async function insert(
  sql: Sql,
  f: { id: string; scope: string; emailHash: string; createdAt: Date },
): Promise<void> {
  await sql.run('INSERT INTO code_failure (id, scope, email_hash, created_at) VALUES (?, ?, ?, ?)', [
    f.id,
    f.scope,
    f.emailHash,
    ts(sql, f.createdAt),
  ]);
}

/** When the wrong codes for an address since `since` were typed, oldest first. */
export async function since(sql: Sql, scope: string, emailHash: string, since: Date): Promise<Date[]> {
  const rows = await sql.all<{ created_at: unknown }>(
    'SELECT created_at FROM code_failure WHERE scope = ? AND email_hash = ? AND created_at > ? ORDER BY created_at',
    [scope, emailHash, ts(sql, since)],
  );
  return rows.map((r) => toDate(r.created_at));
}

/** Forget wrong codes typed before `before`. */
export async function removeBefore(sql: Sql, before: Date): Promise<void> {
  await sql.run('DELETE FROM code_failure WHERE created_at <= ?', [ts(sql, before)]);
}

/** Until when codes for the address are paused (shared/one-time.ts `codesPausedUntil`), or null. */
export async function pausedUntil(sql: Sql, scope: string, emailHash: string, now: Date): Promise<Date | null> {
  return codesPausedUntil(await since(sql, scope, emailHash, new Date(now.getTime() - CODE_FAILURE_MEMORY_MS)), now);
}

/**
 * Use a one-time row as `useOnce` does (shared/one-time.ts), with its address's wrong codes counted across codes in
 * `scope` (`console`, or a workspace's portal): while they are past CODE_FAILURE_LIMITS every code for the address is
 * refused, the right one too; a wrong code is written down, and the refusal of the one that pauses codes says until
 * when (`codesPausedUntil`). A link's token (`code` null) is not a code and is not counted. The console's sign-ins and
 * the portal's codes both take this one rule.
 */
export async function useCode<T extends OneTimeRow & { email: string }>(
  sql: Sql,
  scope: string,
  row: T | undefined,
  code: string | null,
  now: Date,
  store: OneTimeStore,
  words: OneTimeWords,
): Promise<OneTimeOutcome<T> & { codesPausedUntil?: Date }> {
  const emailHash = row && hashEmail(row.email)!;
  if (emailHash && code !== null) {
    const paused = await pausedUntil(sql, scope, emailHash, now);
    if (paused) return { refusal: codesPausedMessage(paused), reason: 'paused', codesPausedUntil: paused };
  }
  const used = await useOnce(row, code, now, store, words);
  if (!('refusal' in used) || !used.wrongCode || !emailHash) return used;
  await insert(sql, { id: newId('cf', now.getTime()), scope, emailHash, createdAt: now });
  const paused = await pausedUntil(sql, scope, emailHash, now);
  return paused
    ? {
        refusal: `That code is wrong. ${codesPausedMessage(paused)}`,
        reason: 'wrong_paused',
        wrongCode: true,
        codesPausedUntil: paused,
      }
    : used;
}
