import { defineEntity, p } from '@mikro-orm/core';
import { placeholders, type Sql, toInt, toIso, toStringOrNull, ts } from '../sql.js';
import { inList, linkedBy, type Subject } from '../subjects.js';
import { Organization } from './organizations.js';
import { Post } from './posts.js';

/** One vote per voter and post; the email hash feeds a contact's approximate voteCount. */
export const Vote = defineEntity({
  name: 'Vote',
  tableName: 'vote',
  uniques: [{ name: 'vote_post_voter_unique', properties: ['post', 'voterKey'] }],
  indexes: [
    { name: 'vote_org_email_hash_idx', properties: ['organization', 'emailHash'] },
    // A contact's votes: what a change of their revenue moves (post_impact's triggers), and their data on request.
    { name: 'vote_contact_post_idx', properties: ['contactId', 'post'] },
    // A post's voters in the order they voted (the console's post page: those who pay nothing).
    { name: 'vote_post_created_idx', properties: ['post', 'createdAt', 'id'] },
    // The workspace's recent votes: the console's trending sort.
    { name: 'vote_org_created_idx', properties: ['organization', 'createdAt'] },
  ],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    post: () => p.manyToOne(Post).deleteRule('cascade'),
    /** The workspace's user id of the voter; null for anonymous email-verified voters. */
    userId: p.string().length(255).nullable(),
    emailHash: p.string().length(64).nullable(),
    /** `u:<userId>` or `e:<emailHash>`: what makes a voter unique on a post. */
    voterKey: p.string().length(300),
    contactId: p.string().length(40).nullable(),
    createdAt: p.datetime().length(3),
  },
});

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
export const voterKey = (userId: string | null | undefined, emailHash: string): string =>
  userId ? `u:${userId}` : `e:${emailHash}`;

/**
 * Insert a vote unless this voter has one on the post, and count it on the post: the post's vote count now, or null
 * when the voter had voted (nothing written then).
 */
export async function insert(sql: Sql, vote: VoteRow): Promise<number | null> {
  const changed = await sql.run(
    `INSERT INTO vote (id, organization_id, post_id, user_id, email_hash, voter_key, contact_id, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (post_id, voter_key) DO NOTHING`,
    [
      vote.id,
      vote.organizationId,
      vote.postId,
      vote.userId,
      vote.emailHash,
      vote.voterKey,
      vote.contactId,
      ts(sql, vote.createdAt),
    ],
  );
  if (changed === 0) return null;
  const row = await sql.one<{ vote_count: unknown }>(
    'UPDATE post SET vote_count = vote_count + 1 WHERE id = ? RETURNING vote_count',
    [vote.postId],
  );
  return toInt(row!.vote_count);
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
    changed += await sql.run(
      `UPDATE vote SET email_hash = NULL, user_id = NULL, contact_id = NULL, voter_key = 'x:' || id WHERE id IN (${placeholders(chunk)})`,
      chunk,
    );
  }
  return changed;
}

/**
 * A person as votes know them: every key they may have voted by (`u:` their user id, `e:` their addresses' hashes)
 * and their contact. One person has one vote on a post whichever way they signed in (docs/identity.md).
 */
export interface VoterPerson {
  keys: readonly string[];
  contactId: string | null;
}

/** The SQL condition (and its parameters) matching a person's votes: by any of their keys, or by their contact. */
function byPerson(person: VoterPerson): { where: string; params: string[] } {
  const keys = `voter_key IN (${placeholders(person.keys)})`;
  return person.contactId
    ? { where: `(${keys} OR contact_id = ?)`, params: [...person.keys, person.contactId] }
    : { where: keys, params: [...person.keys] };
}

/** Which of the posts the person voted on (one statement, whatever the number of posts). */
export async function votedOn(sql: Sql, postIds: readonly string[], person: VoterPerson): Promise<Set<string>> {
  if (!postIds.length) return new Set();
  const { where, params } = byPerson(person);
  const rows = await sql.all(`SELECT post_id FROM vote WHERE ${where} AND post_id IN (${placeholders(postIds)})`, [
    ...params,
    ...postIds,
  ]);
  return new Set(rows.map((r) => r.post_id as string));
}

/**
 * Move a post's votes to another (a merge): each voter's vote goes over unless they voted on the target too, by the
 * same key or as the same contact (that vote stays behind, on the merged post). Both posts' counts are counted again. How many votes moved.
 */
export async function moveToPost(sql: Sql, fromPostId: string, toPostId: string): Promise<number> {
  const moved = await sql.run(
    `UPDATE vote SET post_id = ? WHERE post_id = ? AND voter_key NOT IN (SELECT voter_key FROM vote WHERE post_id = ?)
     AND (contact_id IS NULL OR contact_id NOT IN (SELECT contact_id FROM vote WHERE post_id = ? AND contact_id IS NOT NULL))`,
    [toPostId, fromPostId, toPostId, toPostId],
  );
  await sql.run(
    'UPDATE post SET vote_count = (SELECT COUNT(*) FROM vote v WHERE v.post_id = post.id) WHERE id IN (?, ?)',
    [fromPostId, toPostId],
  );
  return moved;
}

/**
 * A contact's newest votes (by the contact, or by their address's hash), with their post's title: each side an index
 * lookup (vote_contact_post_idx, vote_org_email_hash_idx), never a scan of the workspace's votes.
 */
export async function recentOf(
  sql: Sql,
  organizationId: string,
  who: { contactId: string; emailHash: string | null },
  limit: number,
) {
  const rows = await sql.all<Record<string, unknown>>(
    `SELECT v.id, v.post_id, p.title, v.created_at FROM vote v JOIN post p ON p.id = v.post_id
     WHERE v.id IN (SELECT id FROM vote WHERE contact_id = ? UNION SELECT id FROM vote WHERE organization_id = ? AND email_hash = ?)
     ORDER BY v.created_at DESC, v.id DESC LIMIT ?`,
    [who.contactId, organizationId, who.emailHash, limit],
  );
  return rows.map((r) => ({
    id: r.id as string,
    postId: r.post_id as string,
    postTitle: r.title as string,
    createdAt: toIso(r.created_at),
  }));
}

/** The person's vote on a post (the oldest, were there two), if there is one. */
export async function findOnPost(
  sql: Sql,
  postId: string,
  person: VoterPerson,
): Promise<{ id: string; userId: string | null; contactId: string | null; createdAt: string } | undefined> {
  const { where, params } = byPerson(person);
  const row = await sql.one<Record<string, unknown>>(
    `SELECT id, user_id, contact_id, created_at FROM vote WHERE post_id = ? AND ${where} ORDER BY created_at, id LIMIT 1`,
    [postId, ...params],
  );
  return (
    row && {
      id: row.id as string,
      userId: toStringOrNull(row.user_id),
      contactId: toStringOrNull(row.contact_id),
      createdAt: toIso(row.created_at),
    }
  );
}

/** The contact who cast a vote, or null (a vote of no contact, or erased). */
export async function voterOf(sql: Sql, id: string): Promise<string | null> {
  const row = await sql.one<{ contact_id: unknown }>('SELECT contact_id FROM vote WHERE id = ?', [id]);
  return row ? toStringOrNull(row.contact_id) : null;
}

/** Delete a vote and count it off its post; whether it was there. */
export async function remove(sql: Sql, id: string, postId: string): Promise<boolean> {
  if ((await sql.run('DELETE FROM vote WHERE id = ? AND post_id = ?', [id, postId])) === 0) return false;
  await sql.run('UPDATE post SET vote_count = vote_count - 1 WHERE id = ? AND vote_count > 0', [postId]);
  return true;
}
