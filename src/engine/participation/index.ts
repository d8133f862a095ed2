// Participation: what end-users do on a workspace's public boards (post, vote, comment, each with its contact,
// notify-me subscription and events), and how they take part on the portal: the workspace's token secret, sign-in,
// email codes and sessions.

export { createPortalSecretActions } from './actions.js';
export { comment } from './comment.js';
export {
  DEFAULT_ROTATION_GRACE_SECONDS,
  PORTAL_CODE,
  PORTAL_SESSION_SECONDS,
  PORTAL_TOKEN_MAX_SECONDS,
  type PortalAction,
  type PortalActionResult,
  type PortalContext,
  type PortalIdentity,
  type PortalSession,
} from './participants.js';
export { createParticipation, type Participation } from './participation.js';
export { filePost } from './post.js';
export { castVote } from './vote.js';
