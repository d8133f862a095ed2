import type { Engine } from '../../src/engine/index.js';

/**
 * PostgreSQL: `count` copies of a post in one statement (`generate_series`, g from 1), for tests that need a large
 * table fast. Each copy's id is `prefix` and g, 12 digits; `title` and `bodyText` are SQL expressions of g.
 */
export async function copyPost(
  db: Engine['db'],
  seedId: string,
  count: number,
  copy: { prefix: string; title: string; bodyText?: string },
): Promise<void> {
  await db.run(
    `INSERT INTO post (id, organization_id, board_id, contact_id, author_user_id, title, slug, body, body_text, status,
       moderation_status, hide_from_roadmap, roadmap_order, merged_into_id, comment_count, vote_count, created_at, updated_at, deleted_at)
     SELECT '${copy.prefix}' || lpad(g::text, 12, '0'), organization_id, board_id, contact_id, author_user_id, ${copy.title},
       '${copy.prefix}-' || g, body, ${copy.bodyText ?? 'body_text'}, status, moderation_status, hide_from_roadmap, roadmap_order,
       merged_into_id, comment_count, vote_count, created_at, updated_at, deleted_at
     FROM post, generate_series(1, ${count}) g WHERE post.id = ?`,
    [seedId],
  );
}
