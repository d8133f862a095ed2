import { ts, type Sql } from './sql.js';

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
