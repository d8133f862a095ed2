import { type PublicVoteInput, publicVoteInputSchema, type Vote } from '../../schemas/interactions.js';
import { FeedbackError, hashEmail, newId, parseInput } from '../shared/index.js';
import { emit, votes, type WorkspaceContext } from '../store/index.js';
import { interactionContact, publicPost, subscribeOptIn } from './contact.js';
import { voterPerson } from './person.js';

const ALREADY_VOTED = 'This voter has already voted on this post.';

/**
 * Vote on a post: one vote per person and post, whichever way they signed in (their user id, their address, or the
 * contact either leads to: voterPerson). The post is read once (locked, its board's publicness checked in the same
 * statement: two votes of one person on a post wait for each other); the answer carries the post's vote count.
 */
export async function castVote(
  { db, organizationId, clock }: WorkspaceContext,
  input: PublicVoteInput,
): Promise<{ vote: Vote; voteCount: number }> {
  const i = parseInput(publicVoteInputSchema, input);
  return db.transaction(async (tx) => {
    const post = await publicPost(tx, organizationId, i.postId);
    const { voterKey, person } = await voterPerson(tx, organizationId, i);
    if (await votes.findOnPost(tx, post.id, person)) throw new FeedbackError('ERR_CONFLICT', ALREADY_VOTED);
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
      voterKey,
      createdAt: now,
    });
    if (voteCount === null) throw new FeedbackError('ERR_CONFLICT', ALREADY_VOTED);
    await subscribeOptIn(tx, organizationId, contactId, i.notifyMe, post.id, now);
    const event = { id: vote.id, postId: post.id, userId: vote.userId, createdAt: vote.createdAt };
    await emit(tx, { event: 'vote.created', organizationId, boardId: post.boardId, vote: event }, now);
    return { vote, voteCount };
  });
}

/**
 * Take a vote back: the person's vote on the post (however they cast it) goes, uncounted, with `vote.deleted`, in one
 * transaction. Without a vote there, nothing changes (`removed` false). The answer carries the post's vote count.
 */
export async function takeBackVote(
  { db, organizationId, clock }: WorkspaceContext,
  input: { postId: string; userId?: string | null; email: string },
): Promise<{ removed: boolean; voteCount: number }> {
  return db.transaction(async (tx) => {
    const post = await publicPost(tx, organizationId, input.postId);
    const { person } = await voterPerson(tx, organizationId, input);
    const vote = await votes.findOnPost(tx, post.id, person);
    if (!vote || !(await votes.remove(tx, vote.id, post.id))) return { removed: false, voteCount: post.voteCount };
    const now = clock();
    const event = { id: vote.id, postId: post.id, userId: vote.userId, createdAt: vote.createdAt };
    await emit(tx, { event: 'vote.deleted', organizationId, boardId: post.boardId, vote: event }, now);
    return { removed: true, voteCount: post.voteCount - 1 };
  });
}
