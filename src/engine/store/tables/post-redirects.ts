import { defineEntity, p } from '@mikro-orm/core';
import type { Sql } from '../sql.js';
import { Board } from './boards.js';
import { Post } from './posts.js';

/** Where a post was before it moved to another board: its old portal address sends to the new one (301). */
export const PostRedirect = defineEntity({
  name: 'PostRedirect',
  tableName: 'post_redirect',
  indexes: [{ name: 'post_redirect_post_idx', properties: ['post'] }],
  properties: {
    board: () => p.manyToOne(Board).primary().deleteRule('cascade'),
    slug: p.string().primary().length(80),
    post: () => p.manyToOne(Post).deleteRule('cascade'),
  },
});

/** Remember the post's old place (a later move from the same place wins). */
export async function remember(sql: Sql, boardId: string, slug: string, postId: string): Promise<void> {
  await sql.run(
    'INSERT INTO post_redirect (board_id, slug, post_id) VALUES (?, ?, ?) ON CONFLICT (board_id, slug) DO UPDATE SET post_id = excluded.post_id',
    [boardId, slug, postId],
  );
}

/** A place taken again by a post of its own: its old redirect ends. */
export async function forget(sql: Sql, boardId: string, slug: string): Promise<void> {
  await sql.run('DELETE FROM post_redirect WHERE board_id = ? AND slug = ?', [boardId, slug]);
}
