import { defineEntity, p } from '@mikro-orm/core';
import type { Integration as IntegrationRecord, IntegrationService } from '../../../schemas/integrations.js';
import { type After, asIs, defineRows, pageOf } from '../rows.js';
import { type Database, type Sql, toIso, toIsoOrNull, toJson, toStringOrNull, ts } from '../sql.js';
import { Organization } from './organizations.js';

/**
 * A workspace's connection to Linear, GitHub or Slack: at most one per service. `credentials` is one sealed JSON
 * object (the token, the app's key, the inbound signing secret: engine/integrations/credentials.ts), bound to the
 * row's id; `settings` what the team chose (status mappings, the channel's events); `notify_events` the event kinds
 * the `event_integration_fan_out` trigger turns into Slack notices, as `,kind,kind,` like a webhook's.
 */
export const Integration = defineEntity({
  name: 'Integration',
  tableName: 'integration',
  uniques: [{ name: 'integration_org_service_unique', properties: ['organization', 'service'] }],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    /** `linear`, `github` or `slack`. */
    service: p.string().length(20),
    /** `api_key`, `oauth`, `token`, `app`, `bot` or `incoming_webhook`. */
    auth: p.string().length(20),
    account: p.string().length(200).nullable(),
    credentials: p.text(),
    settings: p.text(),
    notifyEvents: p.string().length(200).default(''),
    /** `active` or `failing`. */
    status: p.string().length(20),
    lastError: p.string().length(500).nullable(),
    lastErrorAt: p.datetime().length(3).nullable(),
    createdAt: p.datetime().length(3),
    updatedAt: p.datetime().length(3),
  },
});

const INTEGRATIONS = defineRows<IntegrationRecord>('integration', 'i', {
  id: asIs,
  service: asIs,
  auth: asIs,
  account: toStringOrNull,
  status: asIs,
  lastError: toStringOrNull,
  lastErrorAt: toIsoOrNull,
  createdAt: toIso,
  updatedAt: toIso,
});

/** A connection as the engine works with it: the record, its sealed credentials and its settings. */
export interface StoredIntegration extends IntegrationRecord {
  organizationId: string;
  credentials: string;
  settings: Record<string, unknown>;
}

const STORED = `${INTEGRATIONS.columns}, i.organization_id, i.credentials, i.settings`;
const stored = (row: Record<string, unknown>): StoredIntegration => ({
  ...INTEGRATIONS.read(row),
  organizationId: row.organization_id as string,
  credentials: row.credentials as string,
  settings: toJson(row.settings),
});

export interface NewIntegration {
  id: string;
  organizationId: string;
  service: IntegrationService;
  auth: IntegrationRecord['auth'];
  account: string | null;
  credentials: string;
  settings: Record<string, unknown>;
  notifyEvents: string;
  now: Date;
}

/**
 * Connect: a new row, or (`replacing`: the caller read, and holds, the service's row of the workspace under this id)
 * that row with the new credentials; connecting again keeps the id and so the links.
 */
export async function save(sql: Sql, row: NewIntegration, replacing: boolean): Promise<void> {
  const now = ts(sql, row.now);
  const values = [row.auth, row.account, row.credentials, JSON.stringify(row.settings), row.notifyEvents];
  await sql.run(
    replacing
      ? `UPDATE integration SET auth = ?, account = ?, credentials = ?, settings = ?, notify_events = ?, status = 'active', last_error = NULL, last_error_at = NULL, updated_at = ? WHERE id = ?`
      : `INSERT INTO integration (auth, account, credentials, settings, notify_events, created_at, updated_at, id, organization_id, service, status)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active')`,
    replacing ? [...values, now, row.id] : [...values, now, now, row.id, row.organizationId, row.service],
  );
}

/** A connection of the workspace, by id or by service; locked for the transaction with `lock` (PostgreSQL). */
export async function find(
  sql: Sql,
  organizationId: string,
  by: { id: string } | { service: IntegrationService },
  lock = false,
): Promise<StoredIntegration | undefined> {
  const [column, value] = 'id' in by ? ['id', by.id] : ['service', by.service];
  const row = await sql.one(
    `SELECT ${STORED} FROM integration i WHERE i.organization_id = ? AND i.${column} = ?${lock ? sql.dialect.forUpdate : ''}`,
    [organizationId, value],
  );
  return row && stored(row);
}

/** A connection by id alone: an inbound webhook names it in its URL, before anything says which workspace it is. */
export async function findById(sql: Sql, id: string): Promise<StoredIntegration | undefined> {
  const row = await sql.one(`SELECT ${STORED} FROM integration i WHERE i.id = ?`, [id]);
  return row && stored(row);
}

/** The workspace's connections, oldest first. */
export function list(sql: Sql, organizationId: string, limit: number, after?: After): Promise<IntegrationRecord[]> {
  return pageOf(sql, INTEGRATIONS, { where: 'i.organization_id = ?', params: [organizationId] }, limit, after);
}

/** Every connection of the workspace, with its settings (the console's page: three at most). */
export async function allOf(sql: Sql, organizationId: string): Promise<StoredIntegration[]> {
  const rows = await sql.all(`SELECT ${STORED} FROM integration i WHERE i.organization_id = ? ORDER BY i.service`, [
    organizationId,
  ]);
  return rows.map(stored);
}

export async function updateSettings(
  sql: Sql,
  id: string,
  settings: Record<string, unknown>,
  notifyEvents: string,
  now: Date,
): Promise<void> {
  await sql.run('UPDATE integration SET settings = ?, notify_events = ?, updated_at = ? WHERE id = ?', [
    JSON.stringify(settings),
    notifyEvents,
    ts(sql, now),
    id,
  ]);
}

/** What the service said of the connection: the account's name, and what it reaches (Linear's teams, GitHub's repositories). */
export async function noteAccount(
  sql: Sql,
  id: string,
  account: string | null,
  reach: Record<string, unknown>,
): Promise<void> {
  const row = await sql.one<{ settings: string }>(
    `SELECT settings FROM integration WHERE id = ?${sql.dialect.forUpdate}`,
    [id],
  );
  if (!row) return;
  const settings = { ...toJson<Record<string, unknown>>(row.settings), ...reach };
  await sql.run('UPDATE integration SET account = ?, settings = ? WHERE id = ?', [
    account,
    JSON.stringify(settings),
    id,
  ]);
}

/** New credentials (a refreshed OAuth token), where the row still holds `previous`. */
export async function replaceCredentials(sql: Sql, id: string, previous: string, sealed: string): Promise<void> {
  await sql.run('UPDATE integration SET credentials = ? WHERE id = ? AND credentials = ?', [sealed, id, previous]);
}

/** An outbound call's outcome: `failing` with its error, or `active` again. */
export async function noteOutcome(sql: Sql, id: string, error: string | null, now: Date): Promise<void> {
  await sql.run(
    error === null
      ? "UPDATE integration SET status = 'active', last_error = NULL, last_error_at = NULL WHERE id = ? AND status <> 'active'"
      : "UPDATE integration SET status = 'failing', last_error = ?, last_error_at = ? WHERE id = ?",
    error === null ? [id] : [error.slice(0, 500), ts(sql, now), id],
  );
}

/** Disconnect: the row, its links and its jobs go; whether it existed. */
export async function remove(sql: Sql, organizationId: string, id: string): Promise<boolean> {
  return (await sql.run('DELETE FROM integration WHERE id = ? AND organization_id = ?', [id, organizationId])) > 0;
}

/** Connections whose credentials are not sealed under `keyId` yet (secrets rotate), after `after` by id. */
export async function credentialsNotSealedWith(
  db: Database,
  keyId: string,
  after: string,
  limit: number,
): Promise<Array<{ id: string; credentials: string }>> {
  return db.all('SELECT id, credentials FROM integration WHERE credentials NOT LIKE ? AND id > ? ORDER BY id LIMIT ?', [
    `fs1:${keyId}:%`,
    after,
    limit,
  ]);
}
