// One person, one contact and one vote per post (docs/identity.md): what the merge of what was written before reads
// and moves. The engine's chore (contacts/one-person.ts) writes it, with its events.
import { type Sql, toIso, toStringOrNull } from '../sql.js';

/**
 * Each workspace's addresses held both by a contact with a user id and by one without: a person who signed in by a
 * mailed code (or was imported) and by the workspace's token. Read through contact_org_email_hash_idx.
 */
export async function addressesToMerge(sql: Sql): Promise<Array<{ organizationId: string; emailHash: string }>> {
  const rows = await sql.all<{ organization_id: string; email_hash: string }>(
    `SELECT organization_id, email_hash FROM contact WHERE email_hash IS NOT NULL GROUP BY organization_id, email_hash
     HAVING COUNT(external_user_id) > 0 AND COUNT(*) > COUNT(external_user_id)`,
  );
  return rows.map((r) => ({ organizationId: r.organization_id, emailHash: r.email_hash }));
}

/**
 * Give what one contact has to another: its posts, votes, comments, mail and unsubscribes, its subscriptions and
 * company memberships (those the other has already stay one). The impact triggers follow the votes and memberships.
 */
export async function moveBelongings(sql: Sql, fromId: string, toId: string): Promise<void> {
  for (const table of ['post', 'vote', 'comment', 'mail', 'mail_unsubscribe'])
    await sql.run(`UPDATE ${table} SET contact_id = ? WHERE contact_id = ?`, [toId, fromId]);
  await sql.run(
    `INSERT INTO mail_subscription (contact_id, topic, organization_id, via, created_at)
     SELECT ?, topic, organization_id, via, created_at FROM mail_subscription WHERE contact_id = ? ON CONFLICT DO NOTHING`,
    [toId, fromId],
  );
  await sql.run(
    `INSERT INTO company_member (contact_id, company_id)
     SELECT ?, company_id FROM company_member WHERE contact_id = ? ON CONFLICT DO NOTHING`,
    [toId, fromId],
  );
}

export interface SecondVote {
  id: string;
  postId: string;
  boardId: string;
  organizationId: string;
  userId: string | null;
  createdAt: string;
}

/**
 * Every vote that is a person's second (or later) on a post, the oldest kept. A vote's person is its contact; else the
 * contact with its user id (`u:`); else the oldest contact with its address (`e:`), as a sign-in finds them; else its
 * key alone. One pass over the votes, each resolved by a unique-index or address-index probe.
 */
export async function secondVotes(sql: Sql): Promise<SecondVote[]> {
  const rows = await sql.all<Record<string, unknown>>(
    `SELECT d.id, d.post_id, d.organization_id, d.user_id, d.created_at, p.board_id FROM (
       SELECT v.id, v.post_id, v.organization_id, v.user_id, v.created_at,
         ROW_NUMBER() OVER (PARTITION BY v.post_id, COALESCE(
           v.contact_id,
           CASE WHEN v.voter_key LIKE 'u:%' THEN (SELECT c.id FROM contact c
             WHERE c.organization_id = v.organization_id AND c.external_user_id = substr(v.voter_key, 3)) END,
           CASE WHEN v.voter_key LIKE 'e:%' THEN (SELECT c.id FROM contact c
             WHERE c.organization_id = v.organization_id AND c.email_hash = substr(v.voter_key, 3)
             ORDER BY c.created_at, c.id LIMIT 1) END,
           v.voter_key) ORDER BY v.created_at, v.id) AS n
       FROM vote v) d
     JOIN post p ON p.id = d.post_id WHERE d.n > 1 ORDER BY d.post_id, d.created_at, d.id`,
  );
  return rows.map((r) => ({
    id: r.id as string,
    postId: r.post_id as string,
    boardId: r.board_id as string,
    organizationId: r.organization_id as string,
    userId: toStringOrNull(r.user_id),
    createdAt: toIso(r.created_at),
  }));
}
