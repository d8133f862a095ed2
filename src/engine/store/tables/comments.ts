import { defineEntity, p } from '@mikro-orm/core';
import { type After, asIs, defineRows, pageOf } from '../rows.js';
import { placeholders, type Sql, toBool, toIso, toIsoOrNull, toStringOrNull, ts } from '../sql.js';
import { inList, linkedBy, type Subject } from '../subjects.js';
import { Organization } from './organizations.js';
import { Post } from './posts.js';

/** A comment or reply; the email hash feeds a contact's approximate commentCount. */
export const Comment = defineEntity({
  name: 'Comment',
  tableName: 'comment',
  indexes: [
    { name: 'comment_org_email_hash_idx', properties: ['organization', 'emailHash'] },
    { name: 'comment_post_created_idx', properties: ['post', 'createdAt'] },
    // A contact's comments (the console's contact page, erasure).
    { name: 'comment_contact_idx', properties: ['contactId', 'createdAt'] },
  ],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    post: () => p.manyToOne(Post).deleteRule('cascade'),
    parentId: p.string().length(40).nullable(),
    authorUserId: p.string().length(255).nullable(),
    /** The name an end-user gave on the portal, shown beside the comment. */
    authorName: p.string().length(200).nullable(),
    emailHash: p.string().length(64).nullable(),
    contactId: p.string().length(40).nullable(),
    /** Written by the workspace's team from the console (an official reply): the portal shows it as the team's. */
    official: p.boolean().default(false),
    bodyText: p.text(),
    createdAt: p.datetime().length(3),
    /** When the text was last edited; null when never. */
    updatedAt: p.datetime().length(3).nullable(),
    /** When it was deleted: the row stays for its replies, its text emptied. */
    deletedAt: p.datetime().length(3).nullable(),
  },
});

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
  /** An official reply of the team (authorName is then the team member's name, or null). */
  official?: boolean;
  bodyText: string;
  createdAt: Date;
}

/** A comment as read: who wrote it (a contact, an end-user's name, or the team), and what. */
export interface CommentRecord {
  id: string;
  postId: string;
  parentId: string | null;
  authorUserId: string | null;
  authorName: string | null;
  contactId: string | null;
  official: boolean;
  bodyText: string;
  createdAt: string;
  /** When the text was last edited; null when never. */
  updatedAt: string | null;
  /** When it was deleted (its text is empty then). */
  deletedAt: string | null;
}

/** The comment table's one row mapping; the reads that show comments take views of it (`ROWS.pick(...)`). */
export const ROWS = defineRows<CommentRecord>('comment', 'c', {
  id: asIs,
  postId: asIs,
  parentId: toStringOrNull,
  authorUserId: toStringOrNull,
  authorName: toStringOrNull,
  contactId: toStringOrNull,
  official: toBool,
  bodyText: asIs,
  createdAt: toIso,
  updatedAt: toIsoOrNull,
  deletedAt: toIsoOrNull,
});

/** Insert a comment and count it on its post. */
export async function insert(sql: Sql, c: CommentRow): Promise<void> {
  await sql.run(
    `INSERT INTO comment (id, organization_id, post_id, parent_id, author_user_id, author_name, email_hash, contact_id, official, body_text, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      c.id,
      c.organizationId,
      c.postId,
      c.parentId,
      c.authorUserId,
      c.authorName,
      c.emailHash,
      c.contactId,
      c.official === true,
      c.bodyText,
      ts(sql, c.createdAt),
    ],
  );
  await sql.run('UPDATE post SET comment_count = comment_count + 1 WHERE id = ?', [c.postId]);
}

/** This live comment, if it is on this post: who wrote it (their contact, when they opted in). */
export async function findOnPost(
  sql: Sql,
  id: string,
  postId: string,
): Promise<{ contactId: string | null } | undefined> {
  const row = await sql.one<{ contact_id: string | null }>(
    'SELECT contact_id FROM comment WHERE id = ? AND post_id = ? AND deleted_at IS NULL',
    [id, postId],
  );
  return row && { contactId: row.contact_id ?? null };
}

/** The person's comments in the workspace (by contact, address or author id), oldest first. */
export async function listFor(sql: Sql, organizationId: string, who: Subject) {
  const rows = await sql.all<Record<string, unknown>>(
    `SELECT id, post_id, parent_id, body_text, author_name, author_user_id, email_hash, contact_id, created_at FROM comment
     WHERE organization_id = ? AND (${inList('contact_id', who.contactIds)} OR email_hash = ? OR ${inList('author_user_id', who.userIds)}) ORDER BY created_at, id`,
    [organizationId, ...who.contactIds, who.emailHash, ...who.userIds],
  );
  return rows.map((r) => ({
    id: r.id as string,
    postId: r.post_id as string,
    parentId: toStringOrNull(r.parent_id),
    bodyText: r.body_text as string,
    authorName: toStringOrNull(r.author_name),
    authorUserId: toStringOrNull(r.author_user_id),
    createdAt: toIso(r.created_at),
    linkedBy: linkedBy({ contact_id: r.contact_id, email_hash: r.email_hash, user_id: r.author_user_id }, who),
  }));
}

/** Take the person out of these comments: no address hash, name, author id or contact. What they wrote stays. */
export async function anonymize(sql: Sql, ids: readonly string[]): Promise<number> {
  let changed = 0;
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    changed += await sql.run(
      `UPDATE comment SET email_hash = NULL, author_name = NULL, author_user_id = NULL, contact_id = NULL WHERE id IN (${placeholders(chunk)})`,
      chunk,
    );
  }
  return changed;
}

/** Official replies among these comments: their ids, posts, texts, names and times. */
export async function official(sql: Sql, ids: readonly string[]) {
  if (ids.length === 0) return [];
  const rows = await sql.all<Record<string, unknown>>(
    `SELECT id, post_id, author_name, body_text, created_at FROM comment WHERE official = ? AND id IN (${placeholders(ids)}) ORDER BY created_at, id`,
    [true, ...ids],
  );
  return rows.map((r) => ({
    id: r.id as string,
    postId: r.post_id as string,
    authorName: toStringOrNull(r.author_name),
    bodyText: r.body_text as string,
    createdAt: toIso(r.created_at),
  }));
}

/** Unsign official replies: they stay, as the team's. */
export async function unsign(sql: Sql, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  return sql.run(`UPDATE comment SET author_name = NULL WHERE official = ? AND id IN (${placeholders(ids)})`, [
    true,
    ...ids,
  ]);
}

/** A contact's newest comments (by the contact, or by their address's hash): index lookups (comment_contact_idx, comment_org_email_hash_idx). */
export async function recentOf(
  sql: Sql,
  organizationId: string,
  who: { contactId: string; emailHash: string | null },
  limit: number,
) {
  const rows = await sql.all<Record<string, unknown>>(
    `SELECT id, post_id, body_text, created_at FROM comment
     WHERE id IN (SELECT id FROM comment WHERE contact_id = ? UNION SELECT id FROM comment WHERE organization_id = ? AND email_hash = ?)
       AND deleted_at IS NULL
     ORDER BY created_at DESC, id DESC LIMIT ?`,
    [who.contactId, organizationId, who.emailHash, limit],
  );
  return rows.map((r) => ({
    id: r.id as string,
    postId: r.post_id as string,
    bodyText: r.body_text as string,
    createdAt: toIso(r.created_at),
  }));
}

/** Up to `limit` live comments of the post, oldest first, after (createdAt, id). */
export function listForPost(sql: Sql, postId: string, limit: number, after?: After): Promise<CommentRecord[]> {
  return pageOf(sql, ROWS, { where: 'c.post_id = ? AND c.deleted_at IS NULL', params: [postId] }, limit, after);
}

/** A live comment of the workspace (with its post's id), locked for the transaction with `lock` (PostgreSQL). */
export async function find(
  sql: Sql,
  organizationId: string,
  id: string,
  lock = false,
): Promise<CommentRecord | undefined> {
  const row = await sql.one(
    `SELECT ${ROWS.columns} FROM comment c WHERE c.organization_id = ? AND c.id = ? AND c.deleted_at IS NULL${lock ? sql.dialect.forUpdate : ''}`,
    [organizationId, id],
  );
  return row && ROWS.read(row);
}

/** Change a comment's text. */
export async function updateText(sql: Sql, id: string, bodyText: string, now: Date): Promise<void> {
  await sql.run('UPDATE comment SET body_text = ?, updated_at = ? WHERE id = ?', [bodyText, ts(sql, now), id]);
}

/** Delete a comment (soft: its row stays for its replies' thread, its text emptied) and count it off its post. */
export async function softDelete(sql: Sql, id: string, postId: string, now: Date): Promise<void> {
  await sql.run("UPDATE comment SET body_text = '', deleted_at = ?, updated_at = ? WHERE id = ?", [
    ts(sql, now),
    ts(sql, now),
    id,
  ]);
  await sql.run('UPDATE post SET comment_count = comment_count - 1 WHERE id = ? AND comment_count > 0', [postId]);
}
