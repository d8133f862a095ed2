import { defineEntity, p } from '@mikro-orm/core';
import { type Sql, ts } from '../sql.js';
import { Organization } from './organizations.js';

/**
 * What an import brought in (`feedback-service import`): each thing of the source tool (a Fider post, a Canny vote, ...)
 * by its id there, and what it became here. A rerun of the same export skips what is recorded.
 */
export const ImportRecord = defineEntity({
  name: 'ImportRecord',
  tableName: 'import_record',
  properties: {
    organization: () => p.manyToOne(Organization).primary().deleteRule('cascade'),
    /** `canny` or `fider`. */
    source: p.string().primary().length(20),
    /** `person`, `board`, `tag`, `post`, `vote`, `comment`, `changelog`. */
    kind: p.string().primary().length(20),
    sourceId: p.string().primary().length(255),
    targetId: p.string().length(40),
    createdAt: p.datetime().length(3),
  },
});

export interface ImportKey {
  organizationId: string;
  source: string;
  kind: string;
}

/** What these source ids of one kind became here, by source id. */
export async function targets(sql: Sql, key: ImportKey): Promise<Map<string, string>> {
  const rows = await sql.all<{ source_id: string; target_id: string }>(
    'SELECT source_id, target_id FROM import_record WHERE organization_id = ? AND source = ? AND kind = ?',
    [key.organizationId, key.source, key.kind],
  );
  return new Map(rows.map((r) => [r.source_id, r.target_id]));
}

/** Record what a source id became. */
export async function record(sql: Sql, key: ImportKey, sourceId: string, targetId: string, now: Date): Promise<void> {
  await sql.run(
    'INSERT INTO import_record (organization_id, source, kind, source_id, target_id, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    [key.organizationId, key.source, key.kind, sourceId, targetId, ts(sql, now)],
  );
}
