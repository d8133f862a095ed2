import { contacts, type Database, emit, peopleMerge, votes } from '../store/index.js';

/** What merging one person's contacts and votes did. */
export interface PeopleMerged {
  /** Contacts merged into the contact with the person's user id (each announced by `contact.deleted`). */
  contacts: number;
  /** Second votes of one person on a post, taken off (each announced by `vote.deleted`). */
  votes: number;
}

/**
 * One person, one contact and one vote per post, for what was written before the rule (docs/identity.md): a contact
 * without a user id whose address a contact with one has is merged into the oldest such (its posts, votes, comments,
 * subscriptions, memberships and mail go over; `contact.deleted`), then each person's second votes on a post go
 * (`vote.deleted`; the post's count and impact follow). Each address, and each post's votes, in one transaction;
 * run again, it finds nothing.
 */
export async function mergePeople(db: Database, clock: () => Date): Promise<PeopleMerged> {
  const merged: PeopleMerged = { contacts: 0, votes: 0 };
  for (const { organizationId, emailHash } of await peopleMerge.addressesToMerge(db))
    await db.transaction(async (tx) => {
      const sharing = await contacts.findByEmailHash(tx, organizationId, emailHash);
      const into = sharing.find((c) => c.externalUserId !== null);
      if (!into) return;
      for (const from of sharing.filter((c) => c.externalUserId === null)) {
        await peopleMerge.moveBelongings(tx, from.id, into.id);
        await contacts.remove(tx, from.id);
        const event = {
          event: 'contact.deleted' as const,
          organizationId,
          contact: { id: from.id, externalUserId: null },
        };
        await emit(tx, event, clock());
        merged.contacts++;
      }
    });
  const byPost = new Map<string, peopleMerge.SecondVote[]>();
  for (const v of await peopleMerge.secondVotes(db)) byPost.set(v.postId, [...(byPost.get(v.postId) ?? []), v]);
  for (const seconds of byPost.values())
    await db.transaction(async (tx) => {
      for (const v of seconds) {
        if (!(await votes.remove(tx, v.id, v.postId))) continue;
        const vote = { id: v.id, postId: v.postId, userId: v.userId, createdAt: v.createdAt };
        await emit(tx, { event: 'vote.deleted', organizationId: v.organizationId, boardId: v.boardId, vote }, clock());
        merged.votes++;
      }
    });
  return merged;
}
