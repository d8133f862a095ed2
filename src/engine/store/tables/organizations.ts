import { defineEntity, p } from '@mikro-orm/core';
import { asIs, defineRows } from '../rows.js';
import { json, type Sql, toBool, toDate, toInt, toIntOrNull, toIso, toJson, toStringOrNull, ts } from '../sql.js';

/** A workspace: every other row belongs to exactly one. */
export const Organization = defineEntity({
  name: 'Organization',
  tableName: 'organization',
  properties: {
    id: p.string().primary().length(40),
    name: p.string().length(200),
    /** `free` or `paid`; drives the default contact cap and webhook access. */
    plan: p.string().length(20),
    /** `active` or `read_only`; read-only workspaces refuse writes with ERR_FORBIDDEN. */
    billingState: p.string().length(20),
    /** Whether `contactCap` overrides the plan default; when set, a null cap means unlimited. */
    contactCapOverride: p.boolean().default(false),
    contactCap: p.integer().nullable(),
    /** Requests per minute per key; null means the server default (600). */
    rateLimit: p.integer().nullable(),
    adminEmails: p.json<string[]>(),
    /** The public handle of its portal (`/portal/<handle>/`): lower-case letters, digits and dashes; unique. */
    handle: p.string().length(40).nullable().unique('organization_handle_unique'),
    /** Whether its portal and widget answer. */
    portalEnabled: p.boolean().default(false),
    /** Whether only end-users signed in with a workspace-signed token may post, vote and comment. */
    portalVerifiedOnly: p.boolean().default(false),
    /** Whether anonymous portal posts wait as `pending` until approved. */
    portalModeration: p.boolean().default(false),
    /** The origins (`https://app.example.com`) whose pages may frame the portal (the widget); none by default. */
    portalFrameOrigins: p.json<string[]>().default('[]'),
    /** The secret portal tokens are signed with (HS256), sealed. */
    portalSecret: p.text().nullable(),
    /** The secret before the last rotation, sealed; it verifies until `portalPreviousSecretUntil`. */
    portalPreviousSecret: p.text().nullable(),
    portalPreviousSecretUntil: p.datetime().length(3).nullable(),
    /** Whether notifications go to contacts its admins created (consentBasis `admin_created`): off unless turned on. */
    notifyAdminCreated: p.boolean().default(false),
    /** PostgreSQL's text search configuration for its posts (`simple`, `english`, ...; docs/search.md). */
    searchLanguage: p.string().length(40).default('simple'),
    /** The language a search's words are forgiven in: their stems also match (`english`, ...; `none`; docs/search.md). */
    searchStems: p.string().length(20).default('english'),
    /** The team's synonyms: groups of words or phrases that find each other (`[["sso", "single sign-on", "saml"]]`). */
    searchSynonyms: p.json<string[][]>().default('[]'),
    /** The portal's logo: an https address of an image, shown in its header; null for the workspace's name alone. */
    portalLogoUrl: p.string().length(2048).nullable(),
    /** The portal's accent colour (`#rrggbb`): its links and buttons; null for the default blue. */
    portalAccent: p.string().length(7).nullable(),
    /** The portal's and its mail's language where nobody says which they read (`en`, `de`, ...; docs/portal.md). */
    locale: p.string().length(35).default('en'),
    /** The team's own words for some of the portal's messages, per language (`{ "de": { "board.newPost": "…" } }`). */
    portalWording: p.json<Record<string, Record<string, string>>>().default('{}'),
    /** The random salt of its suppression list's hashes (made at its first erasure). */
    privacySalt: p.string().length(64).nullable(),
    createdAt: p.datetime().length(3),
    updatedAt: p.datetime().length(3),
  },
});

/** A workspace row. */
export interface OrganizationRow {
  id: string;
  name: string;
  plan: string;
  billingState: string;
  /** Whether `contactCap` overrides the plan's default; when set, a null cap means unlimited. */
  contactCapOverride: boolean;
  contactCap: number | null;
  /** Requests per minute per key; null is the server default. */
  rateLimit: number | null;
  adminEmails: string[];
  /** The portal's public handle (`/portal/<handle>/`), or null. */
  handle: string | null;
  /** Whether the portal answers (it also needs a handle). */
  portalEnabled: boolean;
  /** Whether only end-users signed in with a workspace-signed token may post, vote and comment on the portal. */
  portalVerifiedOnly: boolean;
  /** Whether anonymous portal posts wait as `pending` until approved (`feedback-service post approve`). */
  portalModeration: boolean;
  /** Origins whose pages may frame the portal (the widget): its `Content-Security-Policy: frame-ancestors`. */
  portalFrameOrigins: string[];
  /** Whether notifications go to contacts its admins created (consentBasis `admin_created`); off unless turned on. */
  notifyAdminCreated: boolean;
  /** How PostgreSQL reads its posts' words: a text search configuration (`simple` by default; SQLite has one for all). */
  searchLanguage: string;
  /** The language a search's words are forgiven in (their stems also match), or `none`. */
  searchStems: string;
  /** The team's synonyms: groups of words or phrases, each finding the others. */
  searchSynonyms: string[][];
  /** The portal's logo (an https image address), or null. */
  portalLogoUrl: string | null;
  /** The portal's accent colour (`#rrggbb`), or null for the default. */
  portalAccent: string | null;
  /** The portal's and its mail's language where the person's own is not known. */
  locale: string;
  /** The team's own words for some of the portal's messages, per language. */
  portalWording: Record<string, Record<string, string>>;
  createdAt: string;
  updatedAt: string;
}

/** The columns of a workspace's contact cap, as `effectiveContactCap` reads them. */
export type CapColumns = Pick<OrganizationRow, 'plan' | 'contactCapOverride' | 'contactCap'>;

const ORGANIZATIONS = defineRows<OrganizationRow>('organization', 'o', {
  id: asIs,
  name: asIs,
  plan: asIs,
  billingState: asIs,
  contactCapOverride: toBool,
  contactCap: toIntOrNull,
  rateLimit: toIntOrNull,
  adminEmails: toJson,
  handle: toStringOrNull,
  portalEnabled: toBool,
  portalVerifiedOnly: toBool,
  portalModeration: toBool,
  portalFrameOrigins: toJson,
  notifyAdminCreated: toBool,
  searchLanguage: asIs,
  searchStems: asIs,
  searchSynonyms: toJson,
  portalLogoUrl: toStringOrNull,
  portalAccent: toStringOrNull,
  locale: asIs,
  portalWording: (v) => toJson<Record<string, Record<string, string>>>(v) ?? {},
  createdAt: toIso,
  updatedAt: toIso,
});

export async function insert(
  sql: Sql,
  org: Omit<OrganizationRow, 'createdAt' | 'updatedAt'>,
  now: Date,
): Promise<void> {
  await sql.run(
    `INSERT INTO organization (${ORGANIZATIONS.names}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      org.id,
      org.name,
      org.plan,
      org.billingState,
      org.contactCapOverride,
      org.contactCap,
      org.rateLimit,
      json(org.adminEmails),
      org.handle,
      org.portalEnabled,
      org.portalVerifiedOnly,
      org.portalModeration,
      json(org.portalFrameOrigins),
      org.notifyAdminCreated,
      org.searchLanguage,
      org.searchStems,
      json(org.searchSynonyms),
      org.portalLogoUrl,
      org.portalAccent,
      org.locale,
      json(org.portalWording),
      ts(sql, now),
      ts(sql, now),
    ],
  );
}

/** The columns a workspace update may set. */
export type OrganizationChanges = Partial<
  Pick<
    OrganizationRow,
    | 'name'
    | 'plan'
    | 'billingState'
    | 'contactCapOverride'
    | 'contactCap'
    | 'rateLimit'
    | 'adminEmails'
    | 'handle'
    | 'portalEnabled'
    | 'portalVerifiedOnly'
    | 'portalModeration'
    | 'portalFrameOrigins'
    | 'notifyAdminCreated'
    | 'searchLanguage'
    | 'searchStems'
    | 'searchSynonyms'
    | 'portalLogoUrl'
    | 'portalAccent'
    | 'locale'
    | 'portalWording'
  >
>;

/** The columns written as JSON. */
const JSON_COLUMNS = new Set<keyof OrganizationChanges>([
  'adminEmails',
  'portalFrameOrigins',
  'searchSynonyms',
  'portalWording',
]);

/** Set the given columns (and `updated_at`); whether the workspace exists. */
export async function update(sql: Sql, id: string, changes: OrganizationChanges, now: Date): Promise<boolean> {
  const entries = Object.entries(changes).filter(([, v]) => v !== undefined) as Array<
    [keyof OrganizationChanges, unknown]
  >;
  const sets = ['updated_at = ?', ...entries.map(([field]) => `${ORGANIZATIONS.column(field)} = ?`)];
  const params = [ts(sql, now), ...entries.map(([field, v]) => (JSON_COLUMNS.has(field) ? json(v) : v))];
  return (await sql.run(`UPDATE organization SET ${sets.join(', ')} WHERE id = ?`, [...params, id])) > 0;
}

export async function find(sql: Sql, id: string): Promise<OrganizationRow | undefined> {
  const row = await sql.one(`SELECT ${ORGANIZATIONS.columns} FROM organization o WHERE o.id = ?`, [id]);
  return row && ORGANIZATIONS.read(row);
}

/** The workspace with this portal handle. */
export async function findByHandle(sql: Sql, handle: string): Promise<OrganizationRow | undefined> {
  const row = await sql.one(`SELECT ${ORGANIZATIONS.columns} FROM organization o WHERE o.handle = ?`, [handle]);
  return row && ORGANIZATIONS.read(row);
}

/** Every workspace, oldest first. */
export async function list(sql: Sql): Promise<OrganizationRow[]> {
  return (await sql.all(`SELECT ${ORGANIZATIONS.columns} FROM organization o ORDER BY o.created_at, o.id`)).map((row) =>
    ORGANIZATIONS.read(row),
  );
}

export async function count(sql: Sql): Promise<number> {
  return toInt((await sql.one<{ n: unknown }>('SELECT count(*) AS n FROM organization'))!.n);
}

/** Delete a workspace and, by cascade, everything in it; whether it existed. */
export async function remove(sql: Sql, id: string): Promise<boolean> {
  return (await sql.run('DELETE FROM organization WHERE id = ?', [id])) > 0;
}

/**
 * The workspace's plan and cap columns, locking its row for the transaction where the database has row locks: what
 * serializes the writes that must not race past a limit (the last contact under a cap, the 25th webhook).
 */
export async function lockForLimits(sql: Sql, id: string): Promise<CapColumns | undefined> {
  const row = await sql.one(
    `SELECT plan, contact_cap_override, contact_cap FROM organization WHERE id = ?${sql.dialect.forUpdate}`,
    [id],
  );
  return (
    row && {
      plan: row.plan as string,
      contactCapOverride: toBool(row.contact_cap_override),
      contactCap: toIntOrNull(row.contact_cap),
    }
  );
}

/** Whether a workspace exists. */
export async function exists(sql: Sql, id: string): Promise<boolean> {
  return (await sql.one('SELECT id FROM organization WHERE id = ?', [id])) !== undefined;
}

/** A workspace's portal token secrets, sealed as stored: the current one, and the previous one until its grace ends. */
export interface PortalSecretsRow {
  current: string | null;
  previous: string | null;
  previousUntil: Date | null;
}

export async function findPortalSecrets(sql: Sql, id: string): Promise<PortalSecretsRow | undefined> {
  const row = await sql.one(
    'SELECT portal_secret, portal_previous_secret, portal_previous_secret_until FROM organization WHERE id = ?',
    [id],
  );
  return (
    row && {
      current: toStringOrNull(row.portal_secret),
      previous: toStringOrNull(row.portal_previous_secret),
      previousUntil: row.portal_previous_secret_until == null ? null : toDate(row.portal_previous_secret_until),
    }
  );
}

/** Store a workspace's portal secrets (sealed); whether the workspace exists. */
export async function setPortalSecrets(sql: Sql, id: string, secrets: PortalSecretsRow, now: Date): Promise<boolean> {
  return (
    (await sql.run(
      'UPDATE organization SET portal_secret = ?, portal_previous_secret = ?, portal_previous_secret_until = ?, updated_at = ? WHERE id = ?',
      [secrets.current, secrets.previous, secrets.previousUntil && ts(sql, secrets.previousUntil), ts(sql, now), id],
    )) > 0
  );
}

/** Portal secrets not sealed with the key `keyId` names, after `after` (by workspace id), for resealing. */
export async function portalSecretsNotSealedWith(
  sql: Sql,
  keyId: string,
  after: string,
  limit: number,
): Promise<Array<PortalSecretsRow & { id: string }>> {
  const sealedWith = `fs1:${keyId}:%`;
  const rows = await sql.all(
    `SELECT id, portal_secret, portal_previous_secret, portal_previous_secret_until FROM organization
     WHERE id > ? AND (portal_secret NOT LIKE ? OR portal_previous_secret NOT LIKE ?) ORDER BY id LIMIT ?`,
    [after, sealedWith, sealedWith, limit],
  );
  return rows.map((row) => ({
    id: row.id as string,
    current: toStringOrNull(row.portal_secret),
    previous: toStringOrNull(row.portal_previous_secret),
    previousUntil: row.portal_previous_secret_until == null ? null : toDate(row.portal_previous_secret_until),
  }));
}

/** Replace a workspace's sealed portal secrets with their resealed forms, unless they changed meanwhile. */
export async function replacePortalSecrets(
  sql: Sql,
  id: string,
  previous: PortalSecretsRow,
  next: PortalSecretsRow,
): Promise<void> {
  await sql.run(
    'UPDATE organization SET portal_secret = ?, portal_previous_secret = ? WHERE id = ? AND portal_secret IS NOT DISTINCT FROM ? AND portal_previous_secret IS NOT DISTINCT FROM ?',
    [next.current, next.previous, id, previous.current, previous.previous],
  );
}
