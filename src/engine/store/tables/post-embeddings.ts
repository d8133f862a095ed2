import { defineEntity, p } from '@mikro-orm/core';
import { type Sql, ts } from '../sql.js';
import { Organization } from './organizations.js';
import { Post } from './posts.js';

/**
 * A post's title as an embeddings endpoint saw it (docs/search.md#possible-duplicates): the vector, the model and the
 * title it was made from (a changed title is embedded again). Float32 little-endian, base64: no database extension.
 */
export const PostEmbedding = defineEntity({
  name: 'PostEmbedding',
  tableName: 'post_embedding',
  indexes: [{ name: 'post_embedding_org_model_idx', properties: ['organization', 'model'] }],
  properties: {
    post: () => p.manyToOne(Post).primary().deleteRule('cascade'),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    model: p.string().length(100),
    title: p.string().length(200),
    vector: p.text(),
    createdAt: p.datetime().length(3),
  },
});

export const encodeVector = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
export const decodeVector = (text: string) => {
  const bytes = Buffer.from(text, 'base64');
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
};

/** Live posts whose title has no vector of this model yet (or a vector of an older title), oldest first. */
export async function pending(
  sql: Sql,
  model: string,
  limit: number,
): Promise<Array<{ id: string; organizationId: string; title: string }>> {
  const rows = await sql.all<{ id: string; organization_id: string; title: string }>(
    `SELECT p.id, p.organization_id, p.title FROM post p LEFT JOIN post_embedding e ON e.post_id = p.id AND e.model = ?
     WHERE p.deleted_at IS NULL AND p.merged_into_id IS NULL AND (e.post_id IS NULL OR e.title <> p.title)
     ORDER BY p.created_at, p.id LIMIT ?`,
    [model, limit],
  );
  return rows.map((r) => ({ id: r.id, organizationId: r.organization_id, title: r.title }));
}

/** Keep these posts' vectors (replacing what they had). */
export async function save(
  sql: Sql,
  model: string,
  rows: ReadonlyArray<{ id: string; organizationId: string; title: string; vector: Float32Array }>,
  now: Date,
): Promise<void> {
  for (const r of rows)
    await sql.run(
      `INSERT INTO post_embedding (post_id, organization_id, model, title, vector, created_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (post_id) DO UPDATE SET model = excluded.model, title = excluded.title, vector = excluded.vector, created_at = excluded.created_at`,
      [r.id, r.organizationId, model, r.title.slice(0, 200), encodeVector(r.vector), ts(sql, now)],
    );
}

/** The vectors of a workspace's live posts (of one board, if given), newest first, at most `limit`. */
export async function vectorsOf(
  sql: Sql,
  scope: { organizationId: string; boardId?: string },
  model: string,
  limit: number,
): Promise<Array<{ postId: string; vector: Float32Array }>> {
  const rows = await sql.all<{ post_id: string; vector: string }>(
    `SELECT e.post_id, e.vector FROM post_embedding e JOIN post p ON p.id = e.post_id
     WHERE e.organization_id = ? AND e.model = ? AND p.deleted_at IS NULL AND p.merged_into_id IS NULL${scope.boardId ? ' AND p.board_id = ?' : ''}
     ORDER BY p.created_at DESC LIMIT ?`,
    [scope.organizationId, model, ...(scope.boardId ? [scope.boardId] : []), limit],
  );
  return rows.map((r) => ({ postId: r.post_id, vector: decodeVector(r.vector) }));
}
