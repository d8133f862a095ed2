import { defineEntity, p } from '@mikro-orm/core';
import { type After, asIs, defineRows, pageOf } from '../rows.js';
import { placeholders, type Sql, toIso, ts } from '../sql.js';
import { Organization } from './organizations.js';

/** A workspace's tag; a post carries at most three. */
export const Tag = defineEntity({
  name: 'Tag',
  tableName: 'tag',
  uniques: [{ name: 'tag_org_slug_unique', properties: ['organization', 'slug'] }],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    name: p.string().length(100),
    slug: p.string().length(80),
    createdAt: p.datetime().length(3),
  },
});

export interface TagRow {
  id: string;
  organizationId: string;
  name: string;
  slug: string;
  createdAt: string;
}

/** Insert a tag unless its slug is taken in the workspace; whether it was inserted. */
export async function insert(sql: Sql, tag: TagRow): Promise<boolean> {
  const changed = await sql.run(
    'INSERT INTO tag (id, organization_id, name, slug, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (organization_id, slug) DO NOTHING',
    [tag.id, tag.organizationId, tag.name, tag.slug, ts(sql, new Date(tag.createdAt))],
  );
  return changed > 0;
}

/** Every tag of the workspace, by name. */
export async function list(sql: Sql, organizationId: string): Promise<TagRow[]> {
  const rows = await sql.all(
    'SELECT id, organization_id, name, slug, created_at FROM tag WHERE organization_id = ? ORDER BY name, id',
    [organizationId],
  );
  return rows.map((r) => ({
    id: r.id as string,
    organizationId: r.organization_id as string,
    name: r.name as string,
    slug: r.slug as string,
    createdAt: toIso(r.created_at),
  }));
}

/** Which of these ids are tags of the workspace. */
export async function existing(sql: Sql, organizationId: string, ids: string[]): Promise<Set<string>> {
  const rows = await sql.all<{ id: string }>(
    `SELECT id FROM tag WHERE organization_id = ? AND id IN (${placeholders(ids)})`,
    [organizationId, ...ids],
  );
  return new Set(rows.map((r) => r.id));
}

const TAGS = defineRows<TagRow>('tag', 't', {
  id: asIs,
  organizationId: asIs,
  name: asIs,
  slug: asIs,
  createdAt: toIso,
});

/** Up to `limit` tags of the workspace, oldest first, after (createdAt, id). */
export function page(sql: Sql, organizationId: string, limit: number, after?: After): Promise<TagRow[]> {
  return pageOf(sql, TAGS, { where: 't.organization_id = ?', params: [organizationId] }, limit, after);
}

/** A tag of the workspace. */
export async function find(sql: Sql, organizationId: string, id: string): Promise<TagRow | undefined> {
  const row = await sql.one(`SELECT ${TAGS.columns} FROM tag t WHERE t.organization_id = ? AND t.id = ?`, [
    organizationId,
    id,
  ]);
  return row && TAGS.read(row);
}

/** Rename a tag (its slug with it); whether it was renamed: false when another tag of the workspace has the slug. */
export async function rename(sql: Sql, tag: TagRow): Promise<boolean> {
  const taken = await sql.one('SELECT 1 AS taken FROM tag WHERE organization_id = ? AND slug = ? AND id <> ?', [
    tag.organizationId,
    tag.slug,
    tag.id,
  ]);
  if (taken) return false;
  await sql.run('UPDATE tag SET name = ?, slug = ? WHERE id = ?', [tag.name, tag.slug, tag.id]);
  return true;
}

/** Delete a tag; the posts that carry it lose it. */
export async function remove(sql: Sql, id: string): Promise<void> {
  await sql.run('DELETE FROM tag WHERE id = ?', [id]);
}
