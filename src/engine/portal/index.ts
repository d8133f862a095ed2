// The portal's side in the engine: what its pages read (public boards and only what they show), and taking part:
// the workspace's token secret, sign-in, email codes, sessions, and acting as the public interactions.

export { createPortalSecretActions } from './actions.js';
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
export {
  createPortalReader,
  PORTAL_COMMENT_LIMIT,
  PORTAL_SORTS,
  type PortalBoard,
  type PortalChangelogEntry,
  type PortalComment,
  type PortalPost,
  type PortalPostsQuery,
  type PortalReader,
  type PortalSort,
  ROADMAP_STATUSES,
} from './reader.js';
