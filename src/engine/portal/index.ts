// The portal's reading side in the engine: what its pages read (public boards and only what they show). Taking part
// is participation/'s.

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
