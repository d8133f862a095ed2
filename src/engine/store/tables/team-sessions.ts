import { defineEntity, p } from '@mikro-orm/core';
import { asIs, defineRows } from '../rows.js';
import { type Sql, toDate, ts } from '../sql.js';

/**
 * A team member's signed-in browser: one person (an address) across every team they are on. The browser holds the
 * random token; the row is keyed by its SHA-256. It ends at `expiresAt`, or once unused for the idle lifetime.
 */
export const TeamSession = defineEntity({
  name: 'TeamSession',
  tableName: 'team_session',
  indexes: [
    { name: 'team_session_email_idx', properties: ['email'] },
    { name: 'team_session_expires_idx', properties: ['expiresAt'] },
  ],
  properties: {
    /** SHA-256 (hex) of the cookie's token. */
    id: p.string().primary().length(64),
    email: p.string().length(320),
    /** How they last signed in: `link`, `code` or `sso`. */
    method: p.string().length(10),
    /**
     * When a mailed code or link proved the address (null if it never was): that opens every team of the address but
     * those that require single sign-on for it. Single sign-on proves the address for one workspace only
     * (team_session_sso).
     */
    addressProvenAt: p.datetime().length(3).nullable(),
    createdAt: p.datetime().length(3),
    /** Last used (kept to the minute): the idle lifetime runs from here. */
    seenAt: p.datetime().length(3),
    expiresAt: p.datetime().length(3),
  },
});

export interface TeamSessionRow {
  id: string;
  email: string;
  method: string;
  addressProvenAt: Date | null;
  createdAt: Date;
  seenAt: Date;
  expiresAt: Date;
}

const toDateOrNull = (v: unknown) => (v === null || v === undefined ? null : toDate(v));
const SESSIONS = defineRows<TeamSessionRow>('team_session', 's', {
  id: asIs,
  email: asIs,
  method: asIs,
  addressProvenAt: toDateOrNull,
  createdAt: toDate,
  seenAt: toDate,
  expiresAt: toDate,
});

export async function insert(sql: Sql, s: TeamSessionRow): Promise<void> {
  await sql.run(`INSERT INTO team_session (${SESSIONS.names}) VALUES (?, ?, ?, ?, ?, ?, ?)`, [
    s.id,
    s.email,
    s.method,
    s.addressProvenAt && ts(sql, s.addressProvenAt),
    ts(sql, s.createdAt),
    ts(sql, s.seenAt),
    ts(sql, s.expiresAt),
  ]);
}

/** The session with this id while it lasts: before its end, and used since `idleSince`. */
export async function find(sql: Sql, id: string, now: Date, idleSince: Date): Promise<TeamSessionRow | undefined> {
  const row = await sql.one(
    `SELECT ${SESSIONS.columns} FROM team_session s WHERE s.id = ? AND s.expires_at > ? AND s.seen_at > ?`,
    [id, ts(sql, now), ts(sql, idleSince)],
  );
  return row && SESSIONS.read(row);
}

export async function touch(sql: Sql, id: string, now: Date): Promise<void> {
  await sql.run('UPDATE team_session SET seen_at = ? WHERE id = ?', [ts(sql, now), id]);
}

export async function remove(sql: Sql, id: string): Promise<void> {
  await sql.run('DELETE FROM team_session WHERE id = ?', [id]);
}

/** End every session of an address (they left their last team). */
export async function removeFor(sql: Sql, email: string): Promise<number> {
  return sql.run('DELETE FROM team_session WHERE email = ?', [email]);
}

/** Forget sessions past their end or idle since `idleSince`. */
export async function removeExpired(sql: Sql, now: Date, idleSince: Date): Promise<void> {
  await sql.run('DELETE FROM team_session WHERE expires_at <= ? OR seen_at <= ?', [ts(sql, now), ts(sql, idleSince)]);
}
