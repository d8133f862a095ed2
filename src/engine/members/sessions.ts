// The console's sessions and what proved them (docs/security.md): a mailed code or link proves the address, and opens
// every team of it but those that require single sign-on for it; single sign-on proves the address for the workspace
// whose provider vouched, and opens that workspace only. A sign-in in a browser that has a session of the same person
// makes a new session with the old one's proofs and the new one.
import { newToken, sha256 } from '../shared/index.js';
import { type Database, type Sql, teamMembers, teamSessionSso, teamSessions } from '../store/index.js';
import { record } from './audit.js';
import { TEAM_LIFETIMES } from './lifetimes.js';
import { domainOf, isTeamRole, type TeamRole } from './roles.js';

/** What proved a sign-in: a mailed code or link (the address), or a workspace's single sign-on (the address there). */
export type Proof = { method: 'code' | 'link' } | { method: 'sso'; organizationId: string; issuer: string };

/** Where a sign-in comes from: the client's address (for the audit log), and the session the browser already had. */
export interface SignInFacts {
  ip?: string | null;
  /** The browser's session token, if any: a new session of the same address keeps its proofs. */
  previous?: string | null;
}

/** A team the signed-in person is on. */
export interface Team {
  organizationId: string;
  workspace: string;
  role: TeamRole;
  name: string | null;
}

/** Who a session stands for: an address, the teams it opens, and those it knows of that need their own sign-in. */
export interface TeamIdentity {
  email: string;
  /** The teams this session opens (none once removed from the last). */
  teams: Team[];
  /**
   * Teams of the address this session does not open, because they require single sign-on for it: each opens with its
   * own provider (`/console/ORG_ID/sign-in`). Listed only when a mailed code or link proved the address: a session
   * that single sign-on alone proved learns nothing of the address's other teams.
   */
  elsewhere: Team[];
  /** Whether a mailed code or link proved the address (else a workspace's single sign-on alone did). */
  addressProven: boolean;
}

export interface TeamSession {
  /** The cookie's value; only its digest is stored. */
  token: string;
  email: string;
  expiresAt: Date;
}

/** A session's last use is written at most this often (a page view is not a write each time). */
const TOUCH_EVERY_MS = 60_000;
const idleSince = (now: Date) => new Date(now.getTime() - TEAM_LIFETIMES.sessionIdle * 1000);

/** Whether a team is open to a session: proven there by its provider now, or by the address where it does not require single sign-on. */
function opens(team: teamMembers.TeamSignInFacts, addressProven: boolean): boolean {
  if (team.provenBy !== null && team.provenBy === team.ssoIssuer) return true;
  return addressProven && !team.ssoRequired;
}

const asTeam = (m: teamMembers.TeamSignInFacts): Team[] =>
  isTeamRole(m.role) ? [{ organizationId: m.organizationId, workspace: m.workspace, role: m.role, name: m.name }] : [];

/** The teams of a session's address, split into those it opens and the others it may know of. */
async function teamsOf(
  sql: Sql,
  email: string,
  sessionId: string,
  addressProven: boolean,
): Promise<{ teams: Team[]; elsewhere: Team[] }> {
  const all = await teamMembers.teamsFor(sql, email, domainOf(email), sessionId);
  return {
    teams: all.filter((t) => opens(t, addressProven)).flatMap(asTeam),
    elsewhere: addressProven ? all.filter((t) => !opens(t, addressProven)).flatMap(asTeam) : [],
  };
}

/** The session with this token while it lasts, or undefined. */
async function live(
  sql: Sql,
  token: string | null | undefined,
  now: Date,
): Promise<teamSessions.TeamSessionRow | undefined> {
  if (!token || token.length > 100) return undefined;
  return teamSessions.find(sql, sha256(token), now, idleSince(now));
}

/**
 * A new session for an address after a sign-in, in `sql` (the sign-in's transaction): the browser's session of the same
 * address hands over its proofs and ends; the new proof is added. Each workspace the new proof opens gets `team.signed_in`
 * in its audit log, with the method and the client's address.
 */
export async function startSession(
  ctx: { db: Sql; clock: () => Date },
  email: string,
  proof: Proof,
  facts: SignInFacts = {},
): Promise<TeamSession> {
  const sql = ctx.db;
  const now = ctx.clock();
  const previous = await live(sql, facts.previous, now);
  const carried = previous?.email === email ? previous : undefined;
  const ssoProofs = carried
    ? (await teamSessionSso.of(sql, carried.id)).filter(
        (p) => proof.method !== 'sso' || p.organizationId !== proof.organizationId,
      )
    : [];
  if (previous) await teamSessions.remove(sql, previous.id);
  await teamSessions.removeExpired(sql, now, idleSince(now));
  const token = newToken();
  const id = sha256(token);
  const expiresAt = new Date(now.getTime() + TEAM_LIFETIMES.session * 1000);
  const addressProvenAt = proof.method === 'sso' ? (carried?.addressProvenAt ?? null) : now;
  await teamSessions.insert(sql, {
    id,
    email,
    method: proof.method,
    addressProvenAt,
    createdAt: now,
    seenAt: now,
    expiresAt,
  });
  for (const p of ssoProofs) await teamSessionSso.insert(sql, id, p);
  if (proof.method === 'sso')
    await teamSessionSso.insert(sql, id, { organizationId: proof.organizationId, issuer: proof.issuer, provenAt: now });
  // What this sign-in opened: the one workspace of its provider, or every team the address opens.
  const opened =
    proof.method === 'sso'
      ? (await teamsOf(sql, email, id, false)).teams.filter((t) => t.organizationId === proof.organizationId)
      : (await teamsOf(sql, email, '', true)).teams;
  const detail = proof.method === 'sso' ? { method: 'sso', issuer: proof.issuer } : { method: proof.method };
  for (const team of opened) await audit(sql, team.organizationId, email, 'team.signed_in', detail, facts, now);
  return { token, email, expiresAt };
}

/** Who a session token stands for while the session lasts, with the teams it opens now (a removal shows at once). */
export async function sessionOf(
  ctx: { db: Sql; clock: () => Date },
  token: string | undefined,
): Promise<TeamIdentity | null> {
  const now = ctx.clock();
  const row = await live(ctx.db, token, now);
  if (!row) return null;
  if (now.getTime() - row.seenAt.getTime() >= TOUCH_EVERY_MS) await teamSessions.touch(ctx.db, row.id, now);
  const addressProven = row.addressProvenAt !== null;
  return { email: row.email, ...(await teamsOf(ctx.db, row.email, row.id, addressProven)), addressProven };
}

/** End a session: `team.signed_out` in the audit log of each workspace it opened, in one transaction. */
export async function signOut(
  ctx: { db: Database; clock: () => Date },
  token: string,
  facts: SignInFacts = {},
): Promise<void> {
  const now = ctx.clock();
  await ctx.db.transaction(async (tx) => {
    const row = await live(tx, token, now);
    if (!row) return void (await teamSessions.remove(tx, sha256(token)));
    const { teams } = await teamsOf(tx, row.email, row.id, row.addressProvenAt !== null);
    await teamSessions.remove(tx, row.id);
    for (const team of teams) await audit(tx, team.organizationId, row.email, 'team.signed_out', {}, facts, now);
  });
}

/** A sign-in's or sign-out's entry in a workspace's audit log: the address acting on itself, from the client's address. */
const audit = (
  sql: Sql,
  organizationId: string,
  email: string,
  action: string,
  detail: Record<string, unknown>,
  facts: SignInFacts,
  now: Date,
) =>
  record(
    sql,
    { organizationId, clock: () => now },
    { email, ip: facts.ip ?? null },
    { action, resourceType: 'team_member', resourceId: email, detail },
  );
