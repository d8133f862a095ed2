import { defineEntity, p } from '@mikro-orm/core';
import { placeholders, type Sql } from '../sql.js';
import { Post } from './posts.js';
import { Tag } from './tags.js';

/** Which tags a post carries. */
export const PostTag = defineEntity({
  name: 'PostTag',
  tableName: 'post_tag',
  // The posts of a tag (and a tag's deletion): the primary key leads with the post.
  indexes: [{ name: 'post_tag_tag_id_index', properties: ['tag'] }],
  properties: {
    post: () => p.manyToOne(Post).primary().deleteRule('cascade'),
    tag: () => p.manyToOne(Tag).primary().deleteRule('cascade'),
  },
});

/** Replace the tags a post carries. */
export async function setForPost(sql: Sql, postId: string, tagIds: Iterable<string>): Promise<void> {
  await sql.run('DELETE FROM post_tag WHERE post_id = ?', [postId]);
  for (const tagId of tagIds) await sql.run('INSERT INTO post_tag (post_id, tag_id) VALUES (?, ?)', [postId, tagId]);
}

/** The tags each of these posts carries (tag ids, by post). */
export async function forPosts(sql: Sql, postIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (postIds.length === 0) return out;
  const rows = await sql.all<{ post_id: string; tag_id: string }>(
    `SELECT post_id, tag_id FROM post_tag WHERE post_id IN (${placeholders(postIds)}) ORDER BY post_id, tag_id`,
    postIds,
  );
  for (const r of rows) out.set(r.post_id, [...(out.get(r.post_id) ?? []), r.tag_id]);
  return out;
}

/** The tags each of these posts carries, named (by post, each post's by name). */
export async function refsForPosts(
  sql: Sql,
  postIds: readonly string[],
): Promise<Map<string, Array<{ id: string; name: string; slug: string }>>> {
  const out = new Map<string, Array<{ id: string; name: string; slug: string }>>();
  if (postIds.length === 0) return out;
  const rows = await sql.all<{ post_id: string; id: string; name: string; slug: string }>(
    `SELECT pt.post_id, t.id, t.name, t.slug FROM post_tag pt JOIN tag t ON t.id = pt.tag_id
      WHERE pt.post_id IN (${placeholders(postIds)}) ORDER BY pt.post_id, t.name, t.id`,
    postIds,
  );
  for (const r of rows) {
    const list = out.get(r.post_id) ?? [];
    list.push({ id: r.id, name: r.name, slug: r.slug });
    out.set(r.post_id, list);
  }
  return out;
}

/** The posts that carry this tag. */
export async function postsWith(sql: Sql, tagId: string): Promise<string[]> {
  return (
    await sql.all<{ post_id: string }>('SELECT post_id FROM post_tag WHERE tag_id = ? ORDER BY post_id', [tagId])
  ).map((r) => r.post_id);
}
