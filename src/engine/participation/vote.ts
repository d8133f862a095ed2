import { type PublicVoteInput, publicVoteInputSchema, type Vote } from '../../schemas/interactions.js';
import { FeedbackError, hashEmail, newId, parseInput } from '../shared/index.js';
import { emit, votes, type WorkspaceContext } from '../store/index.js';
import { interactionContact, publicPost, subscribeOptIn } from './contact.js';

/**
 * Vote on a post: one vote per voter (user id, or email for anonymous voters) and post. The post is read once (locked,
 * its board's publicness checked in the same statement); the answer carries the post's vote count after this vote.
 */
export async function castVote(
  { db, organizationId, clock }: WorkspaceContext,
  input: PublicVoteInput,
): Promise<{ vote: Vote; voteCount: number }> {
  const i = parseInput(publicVoteInputSchema, input);
  return db.transaction(async (tx) => {
    const post = await publicPost(tx, organizationId, i.postId);
    const now = clock();
    const contactId = await interactionContact(tx, organizationId, i, 'public_vote', now);
    const emailHash = hashEmail(i.email)!;
    const vote: Vote = {
      id: newId('vote', now.getTime()),
      postId: post.id,
      userId: i.userId ?? null,
      contactId,
      createdAt: now.toISOString(),
    };
    const voteCount = await votes.insert(tx, {
      ...vote,
      organizationId,
      emailHash,
      voterKey: votes.voterKey(vote.userId, emailHash),
      createdAt: now,
    });
    if (voteCount === null) throw new FeedbackError('ERR_CONFLICT', 'This voter has already voted on this post.');
    await subscribeOptIn(tx, organizationId, contactId, i.notifyMe, post.id, now);
    const event = { id: vote.id, postId: post.id, userId: vote.userId, createdAt: vote.createdAt };
    await emit(tx, { event: 'vote.created', organizationId, boardId: post.boardId, vote: event }, now);
    return { vote, voteCount };
  });
}

/**
 * Take a vote back: the voter's vote on the post (by their voter key) goes, uncounted, with `vote.deleted`, in one
 * transaction. Without a vote there, nothing changes (`removed` false). The answer carries the post's vote count.
 */
export async function takeBackVote(
  { db, organizationId, clock }: WorkspaceContext,
  input: { postId: string; voterKey: string },
): Promise<{ removed: boolean; voteCount: number }> {
  return db.transaction(async (tx) => {
    const post = await publicPost(tx, organizationId, input.postId);
    const vote = await votes.findOnPost(tx, post.id, { voterKey: input.voterKey, contactId: '' });
    if (!vote || !(await votes.remove(tx, vote.id, post.id))) return { removed: false, voteCount: post.voteCount };
    const now = clock();
    const event = { id: vote.id, postId: post.id, userId: vote.userId, createdAt: vote.createdAt };
    await emit(tx, { event: 'vote.deleted', organizationId, boardId: post.boardId, vote: event }, now);
    return { removed: true, voteCount: post.voteCount - 1 };
  });
}
