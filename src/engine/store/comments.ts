import { ts, type Sql } from './sql.js';

export interface CommentRow {
  id: string;
  organizationId: string;
  postId: string;
  parentId: string | null;
  authorUserId: string | null;
  /** The name an end-user gave on the portal. */
  authorName: string | null;
  emailHash: string | null;
  contactId: string | null;
  bodyText: string;
  createdAt: Date;
}

/** Insert a comment and count it on its post. */
export async function insert(sql: Sql, c: CommentRow): Promise<void> {
  await sql.run(
    `INSERT INTO comment (id, organization_id, post_id, parent_id, author_user_id, author_name, email_hash, contact_id, body_text, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [c.id, c.organizationId, c.postId, c.parentId, c.authorUserId, c.authorName, c.emailHash, c.contactId, c.bodyText, ts(sql, c.createdAt)],
  );
  await sql.run('UPDATE post SET comment_count = comment_count + 1 WHERE id = ?', [c.postId]);
}

/** This comment, if it is on this post: who wrote it (their contact, when they opted in). */
export async function findOnPost(sql: Sql, id: string, postId: string): Promise<{ contactId: string | null } | undefined> {
  const row = await sql.one<{ contact_id: string | null }>('SELECT contact_id FROM comment WHERE id = ? AND post_id = ?', [id, postId]);
  return row && { contactId: row.contact_id ?? null };
}
