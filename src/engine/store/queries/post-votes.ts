import { type Sql, toInt, toIso, toStringOrNull, ts } from '../sql.js';
import * as contactRows from '../tables/contacts.js';

// A post's votes as the API lists them: each with its contact (if one is linked), newest first or by the voter's
// revenue in one currency, in keyset pages.

/** The voter as a vote names them: a view of the contact table's one row mapping. */
const VOTER = contactRows.ROWS.pick('id', 'externalUserId', 'email', 'name', 'plan', 'mrrCents', 'currency');

export interface PostVoteRow {
  id: string;
  postId: string;
  contactId: string | null;
  userId: string | null;
  createdAt: string;
  voter: ReturnType<typeof VOTER.read> | null;
}

/** Where a page starts: newest (the vote's time in ms, its id) or by revenue (the voter's mrrCents, the vote's id). */
export type VotePosition = readonly [number, string];

// The vote's own columns are renamed: the contact's `id` is the voter's.
const SELECT = `SELECT v.id AS vote_id, v.post_id, v.contact_id, v.user_id, v.created_at, ${VOTER.columns}
  FROM vote v LEFT JOIN contact c ON c.id = v.contact_id`;

const read = (r: Record<string, unknown>): PostVoteRow => ({
  id: r.vote_id as string,
  postId: r.post_id as string,
  contactId: toStringOrNull(r.contact_id),
  userId: toStringOrNull(r.user_id),
  createdAt: toIso(r.created_at),
  voter: r.id == null ? null : VOTER.read(r),
});

/** Up to `limit` of the post's votes, newest first, after `after`. */
export async function newest(sql: Sql, postId: string, limit: number, after?: VotePosition): Promise<PostVoteRow[]> {
  const rows = await sql.all(
    `${SELECT} WHERE v.post_id = ?${after ? ' AND (v.created_at, v.id) < (?, ?)' : ''} ORDER BY v.created_at DESC, v.id DESC LIMIT ?`,
    [postId, ...(after ? [ts(sql, new Date(after[0])), after[1]] : []), limit],
  );
  return rows.map(read);
}

/** Up to `limit` of the post's votes whose voter pays in `currency`, the voter's mrrCents highest first, after `after`. */
export async function byRevenue(
  sql: Sql,
  postId: string,
  currency: string,
  limit: number,
  after?: VotePosition,
): Promise<PostVoteRow[]> {
  const rows = await sql.all(
    `${SELECT} WHERE v.post_id = ? AND c.currency = ? AND c.mrr_cents > 0${after ? ' AND (c.mrr_cents, v.id) < (?, ?)' : ''}
     ORDER BY c.mrr_cents DESC, v.id DESC LIMIT ?`,
    [postId, currency, ...(after ? [after[0], after[1]] : []), limit],
  );
  return rows.map(read);
}

/** One vote of the post with its voter. */
export async function one(sql: Sql, postId: string, voteId: string): Promise<PostVoteRow | undefined> {
  const row = await sql.one(`${SELECT} WHERE v.post_id = ? AND v.id = ?`, [postId, voteId]);
  return row && read(row);
}

export const positionOf = (vote: PostVoteRow, sort: 'newest' | 'mrr'): VotePosition =>
  sort === 'newest' ? [Date.parse(vote.createdAt), vote.id] : [toInt(vote.voter?.mrrCents ?? 0), vote.id];
