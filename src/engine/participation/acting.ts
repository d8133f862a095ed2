import { FeedbackError, plainBody } from '../shared/index.js';
import { votes } from '../store/index.js';
import { comment } from './comment.js';
import {
  type PortalAction,
  type PortalActionResult,
  type PortalContext,
  type PortalIdentity,
  portalSettings,
} from './participants.js';
import { voterPerson } from './person.js';
import { filePost } from './post.js';
import { castVote, takeBackVote } from './vote.js';

/**
 * Do what the person asked, as the engine's public interaction (its change and its events in one transaction). Someone
 * signed in with a token is linked to the contact identify made; an email-verified person gets a contact only with the
 * notify-me opt-in. Anonymous posts wait as `pending` where the workspace moderates.
 */
export async function act(
  ctx: PortalContext,
  identity: PortalIdentity,
  action: PortalAction,
): Promise<PortalActionResult> {
  const s = await portalSettings(ctx);
  if (s.portalVerifiedOnly && !identity.verified)
    throw new FeedbackError('ERR_FORBIDDEN', `${s.name} takes feedback only from signed-in users.`);
  // A signed-in user's contact exists (identify made it): the workspace vouches for them, so the row is linked to it
  // without an opt-in; notify-me is what they ticked (the pages offer it only to people not signed in with a token).
  const who = {
    email: identity.email,
    ...(identity.name ? { name: identity.name } : {}),
    notifyMe: action.notifyMe,
    vouched: identity.verified,
  };
  const userId = identity.verified && identity.externalUserId ? identity.externalUserId : undefined;
  switch (action.kind) {
    case 'vote':
      return {
        kind: 'vote',
        ...(await castVote(ctx, { postId: action.postId, ...who, ...(userId ? { userId } : {}) })),
      };
    case 'unvote':
      return {
        kind: 'unvote',
        ...(await takeBackVote(ctx, { postId: action.postId, email: identity.email, ...(userId ? { userId } : {}) })),
      };
    case 'comment': {
      const input = {
        postId: action.postId,
        bodyText: action.bodyText,
        ...(action.parentId ? { parentId: action.parentId } : {}),
        ...who,
        ...(userId ? { authorUserId: userId } : {}),
      };
      return { kind: 'comment', comment: await comment(ctx, input) };
    }
    case 'post': {
      const held = s.portalModeration && !identity.verified;
      const input = {
        boardId: action.boardId,
        title: action.title,
        ...(action.bodyText ? { body: plainBody(action.bodyText) } : {}),
        ...who,
        ...(userId ? { authorUserId: userId } : {}),
      };
      return { kind: 'post', post: await filePost(ctx, input, { held }), held };
    }
  }
}

/** Which of the posts the person voted on, however they signed in when they did. */
export async function votedOn(
  { db, organizationId }: PortalContext,
  identity: PortalIdentity,
  postIds: readonly string[],
): Promise<Set<string>> {
  if (postIds.length === 0) return new Set();
  const userId = identity.verified ? identity.externalUserId : null;
  const { person } = await voterPerson(db, organizationId, { userId, email: identity.email });
  return votes.votedOn(db, postIds, person);
}
