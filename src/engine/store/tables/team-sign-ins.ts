import { defineEntity, p } from '@mikro-orm/core';
import { asIs, defineRows } from '../rows.js';
import { type Sql, toDate, toInt, ts } from '../sql.js';

/**
 * A one-time way into the console for a team member's address: a link (its token) and a code (typed on the page that
 * asked for it), either of which works once, until it expires. Both are kept only as SHA-256 digests.
 */
export const TeamSignIn = defineEntity({
  name: 'TeamSignIn',
  tableName: 'team_sign_in',
  indexes: [{ name: 'team_sign_in_expires_idx', properties: ['expiresAt'] }],
  uniques: [{ name: 'team_sign_in_token_unique', properties: ['tokenHash'] }],
  properties: {
    id: p.string().primary().length(40),
    email: p.string().length(320),
    /** SHA-256 (hex) of the link's token. */
    tokenHash: p.string().length(64),
    /** SHA-256 (hex) of the row's id and the code. */
    codeHash: p.string().length(64),
    attempts: p.integer().default(0),
    createdAt: p.datetime().length(3),
    expiresAt: p.datetime().length(3),
  },
});

export interface SignInRow {
  id: string;
  email: string;
  tokenHash: string;
  codeHash: string;
  attempts: number;
  createdAt: Date;
  expiresAt: Date;
}

const SIGN_INS = defineRows<SignInRow>('team_sign_in', 's', {
  id: asIs,
  email: asIs,
  tokenHash: asIs,
  codeHash: asIs,
  attempts: toInt,
  createdAt: toDate,
  expiresAt: toDate,
});

export async function insert(sql: Sql, s: SignInRow): Promise<void> {
  await sql.run(`INSERT INTO team_sign_in (${SIGN_INS.names}) VALUES (?, ?, ?, ?, ?, ?, ?)`, [
    s.id,
    s.email,
    s.tokenHash,
    s.codeHash,
    s.attempts,
    ts(sql, s.createdAt),
    ts(sql, s.expiresAt),
  ]);
}

/** The sign-in with this id, or this link token's digest; locked for the transaction where rows lock. */
export async function find(sql: Sql, by: { id: string } | { tokenHash: string }): Promise<SignInRow | undefined> {
  const [column, value] = 'id' in by ? ['id', by.id] : ['token_hash', by.tokenHash];
  const row = await sql.one(
    `SELECT ${SIGN_INS.columns} FROM team_sign_in s WHERE s.${column} = ?${sql.dialect.forUpdate}`,
    [value],
  );
  return row && SIGN_INS.read(row);
}

export async function countAttempt(sql: Sql, id: string): Promise<void> {
  await sql.run('UPDATE team_sign_in SET attempts = attempts + 1 WHERE id = ?', [id]);
}

/** The sign-in's one-time use in the transaction `sql` (shared/one-time.ts `useOnce`). */
export const oneTime = (sql: Sql) => ({
  remove: (id: string) => remove(sql, id),
  countAttempt: (id: string) => countAttempt(sql, id),
});

/** Remove a sign-in once used, expired or tried too often; whether it was still there (so it works once). */
export async function remove(sql: Sql, id: string): Promise<boolean> {
  return (await sql.run('DELETE FROM team_sign_in WHERE id = ?', [id])) > 0;
}

/** Forget expired sign-ins. */
export async function removeExpired(sql: Sql, now: Date): Promise<void> {
  await sql.run('DELETE FROM team_sign_in WHERE expires_at <= ?', [ts(sql, now)]);
}

/** Forget every sign-in of an address (it left its last team). */
export async function removeFor(sql: Sql, email: string): Promise<void> {
  await sql.run('DELETE FROM team_sign_in WHERE email = ?', [email]);
}
