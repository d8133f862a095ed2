import { placeholders, toIso, toStringOrNull, ts, type Sql } from './sql.js';
import { inList, linkedBy, type Subject } from './subjects.js';

export interface VoteRow {
  id: string;
  organizationId: string;
  postId: string;
  userId: string | null;
  emailHash: string | null;
  /** What makes a voter unique on a post: `u:<userId>` or `e:<emailHash>`. */
  voterKey: string;
  contactId: string | null;
  createdAt: Date;
}

/** What makes a voter unique on a post: their user id when the workspace vouched for them, else their email's hash. */
export const voterKey = (userId: string | null | undefined, emailHash: string): string => (userId ? `u:${userId}` : `e:${emailHash}`);

/** Insert a vote unless this voter has one on the post; whether it was inserted (and the post's count moved). */
export async function insert(sql: Sql, vote: VoteRow): Promise<boolean> {
  const changed = await sql.run(
    `INSERT INTO vote (id, organization_id, post_id, user_id, email_hash, voter_key, contact_id, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (post_id, voter_key) DO NOTHING`,
    [vote.id, vote.organizationId, vote.postId, vote.userId, vote.emailHash, vote.voterKey, vote.contactId, ts(sql, vote.createdAt)],
  );
  if (changed > 0) await sql.run('UPDATE post SET vote_count = vote_count + 1 WHERE id = ?', [vote.postId]);
  return changed > 0;
}

/** The person's votes in the workspace (by contact, address or user id), with their post's title, oldest first. */
export async function listFor(sql: Sql, organizationId: string, who: Subject) {
  const rows = await sql.all<Record<string, unknown>>(
    `SELECT v.id, v.post_id, p.title, v.user_id, v.email_hash, v.contact_id, v.created_at FROM vote v JOIN post p ON p.id = v.post_id
     WHERE v.organization_id = ? AND (${inList('v.contact_id', who.contactIds)} OR v.email_hash = ? OR ${inList('v.user_id', who.userIds)}) ORDER BY v.created_at, v.id`,
    [organizationId, ...who.contactIds, who.emailHash, ...who.userIds],
  );
  return rows.map((r) => ({
    id: r.id as string,
    postId: r.post_id as string,
    postTitle: r.title as string,
    userId: toStringOrNull(r.user_id),
    createdAt: toIso(r.created_at),
    linkedBy: linkedBy(r as { contact_id: unknown; email_hash: unknown; user_id: unknown }, who),
  }));
}

/**
 * Take the person out of these votes: no address hash, user id or contact. The vote still counts; its voter key becomes
 * the vote's own id, which stays unique on its post and says nothing about anyone.
 */
export async function anonymize(sql: Sql, ids: readonly string[]): Promise<number> {
  let changed = 0;
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    changed += await sql.run(`UPDATE vote SET email_hash = NULL, user_id = NULL, contact_id = NULL, voter_key = 'x:' || id WHERE id IN (${placeholders(chunk)})`, chunk);
  }
  return changed;
}
