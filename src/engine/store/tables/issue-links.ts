import { defineEntity, p } from '@mikro-orm/core';
import type { IssueLink as IssueLinkRecord } from '../../../schemas/integrations.js';
import { asIs, defineRows } from '../rows.js';
import { type Sql, toIso, toStringOrNull, ts } from '../sql.js';
import { Integration } from './integrations.js';
import { Organization } from './organizations.js';
import { Post } from './posts.js';

/**
 * An issue in Linear or GitHub linked to a post: made from the post in the console, or an existing one linked by URL.
 * The service's webhooks find the posts of an issue by (integration, external id).
 */
export const IssueLink = defineEntity({
  name: 'IssueLink',
  tableName: 'issue_link',
  uniques: [{ name: 'issue_link_unique', properties: ['integration', 'externalId', 'post'] }],
  indexes: [{ name: 'issue_link_post_idx', properties: ['post'] }],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    integration: () => p.manyToOne(Integration).deleteRule('cascade'),
    post: () => p.manyToOne(Post).deleteRule('cascade'),
    /** `linear` or `github`. */
    service: p.string().length(20),
    externalId: p.string().length(200),
    key: p.string().length(200),
    url: p.string().length(2048),
    title: p.string().length(500).nullable(),
    state: p.string().length(100).nullable(),
    createdAt: p.datetime().length(3),
  },
});

const LINKS = defineRows<IssueLinkRecord>('issue_link', 'l', {
  id: asIs,
  postId: ['post_id', asIs],
  integrationId: ['integration_id', asIs],
  service: asIs,
  externalId: asIs,
  key: asIs,
  url: asIs,
  title: toStringOrNull,
  state: toStringOrNull,
  createdAt: toIso,
});

/** Link an issue to a post; linking it again changes nothing. Whether it was new. */
export async function insert(sql: Sql, organizationId: string, link: IssueLinkRecord): Promise<boolean> {
  return (
    (await sql.run(
      `INSERT INTO issue_link (id, organization_id, integration_id, post_id, service, external_id, key, url, title, state, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (integration_id, external_id, post_id) DO NOTHING`,
      [
        link.id,
        organizationId,
        link.integrationId,
        link.postId,
        link.service,
        link.externalId,
        link.key,
        link.url,
        link.title,
        link.state,
        ts(sql, new Date(link.createdAt)),
      ],
    )) > 0
  );
}

/** A post's linked issues, oldest first. */
export async function forPost(sql: Sql, organizationId: string, postId: string): Promise<IssueLinkRecord[]> {
  const rows = await sql.all(
    `SELECT ${LINKS.columns} FROM issue_link l WHERE l.organization_id = ? AND l.post_id = ? ORDER BY l.created_at, l.id`,
    [organizationId, postId],
  );
  return rows.map(LINKS.read);
}

/** The links of one issue (the posts its state moves). */
export async function forIssue(sql: Sql, integrationId: string, externalId: string): Promise<IssueLinkRecord[]> {
  const rows = await sql.all(
    `SELECT ${LINKS.columns} FROM issue_link l WHERE l.integration_id = ? AND l.external_id = ? ORDER BY l.created_at, l.id`,
    [integrationId, externalId],
  );
  return rows.map(LINKS.read);
}

/** What the service last said of the issue. */
export async function noteState(
  sql: Sql,
  integrationId: string,
  externalId: string,
  change: { state: string | null; title: string | null },
): Promise<void> {
  await sql.run(
    'UPDATE issue_link SET state = ?, title = COALESCE(?, title) WHERE integration_id = ? AND external_id = ?',
    [change.state, change.title, integrationId, externalId],
  );
}

/** Unlink; whether it was linked. */
export async function remove(sql: Sql, organizationId: string, id: string): Promise<IssueLinkRecord | undefined> {
  const row = await sql.one(`SELECT ${LINKS.columns} FROM issue_link l WHERE l.id = ? AND l.organization_id = ?`, [
    id,
    organizationId,
  ]);
  if (!row) return undefined;
  await sql.run('DELETE FROM issue_link WHERE id = ?', [id]);
  return LINKS.read(row);
}
