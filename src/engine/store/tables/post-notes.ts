import { defineEntity, p } from '@mikro-orm/core';
import { type After, asIs, defineRows, pageOf } from '../rows.js';
import { type Sql, toIso, ts } from '../sql.js';
import { Organization } from './organizations.js';
import { Post } from './posts.js';

/**
 * A team's internal note on a post. A table of its own, apart from `comment`, so that no read of the portal, no public
 * payload and no event can carry one: nothing but the console reads this table.
 */
export const PostNote = defineEntity({
  name: 'PostNote',
  tableName: 'post_note',
  indexes: [
    { name: 'post_note_post_created_idx', properties: ['post', 'createdAt', 'id'] },
    { name: 'post_note_author_idx', properties: ['authorEmail'] },
  ],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    post: () => p.manyToOne(Post).deleteRule('cascade'),
    /** The team member who wrote it (their address). */
    authorEmail: p.string().length(320),
    bodyText: p.text(),
    createdAt: p.datetime().length(3),
  },
});

export interface PostNoteRow {
  id: string;
  postId: string;
  authorEmail: string;
  bodyText: string;
  createdAt: string;
}

const NOTES = defineRows<PostNoteRow>('post_note', 'n', {
  id: asIs,
  postId: asIs,
  authorEmail: asIs,
  bodyText: asIs,
  createdAt: toIso,
});

export async function insert(sql: Sql, note: PostNoteRow & { organizationId: string }): Promise<void> {
  await sql.run(
    'INSERT INTO post_note (id, organization_id, post_id, author_email, body_text, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    [note.id, note.organizationId, note.postId, note.authorEmail, note.bodyText, ts(sql, new Date(note.createdAt))],
  );
}

/** The post's notes, oldest first (at most `limit`). */
export async function listForPost(sql: Sql, postId: string, limit: number): Promise<PostNoteRow[]> {
  return (
    await sql.all(`SELECT ${NOTES.columns} FROM post_note n WHERE n.post_id = ? ORDER BY n.created_at, n.id LIMIT ?`, [
      postId,
      limit,
    ])
  ).map((r) => NOTES.read(r));
}

/** Notes follow their post when it is merged into another. */
export async function move(sql: Sql, fromPostId: string, toPostId: string): Promise<number> {
  return sql.run('UPDATE post_note SET post_id = ? WHERE post_id = ?', [toPostId, fromPostId]);
}

/** The notes this address wrote, in every workspace. */
export async function byAuthor(sql: Sql, email: string): Promise<PostNoteRow[]> {
  return (
    await sql.all(`SELECT ${NOTES.columns} FROM post_note n WHERE n.author_email = ? ORDER BY n.created_at, n.id`, [
      email,
    ])
  ).map((r) => NOTES.read(r));
}

export async function renameAuthor(sql: Sql, email: string, alias: string): Promise<number> {
  return sql.run('UPDATE post_note SET author_email = ? WHERE author_email = ?', [alias, email]);
}

/** Up to `limit` of the post's notes, oldest first, after (createdAt, id). */
export function pageForPost(sql: Sql, postId: string, limit: number, after?: After): Promise<PostNoteRow[]> {
  return pageOf(sql, NOTES, { where: 'n.post_id = ?', params: [postId] }, limit, after);
}
