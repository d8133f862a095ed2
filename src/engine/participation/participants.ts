import type { Comment, Vote } from '../../schemas/interactions.js';
import type { Post } from '../../schemas/posts.js';
import type { SecretBox } from '../secrets/index.js';
import { FeedbackError } from '../shared/index.js';
import { organizations, type WorkspaceContext } from '../store/index.js';

/** How long a portal token may live: its `exp` at most this far ahead of the moment it is exchanged. */
export const PORTAL_TOKEN_MAX_SECONDS = 24 * 60 * 60;
/** How long a session lasts: a token session as long as a token may; an email-code session 30 days. */
export const PORTAL_SESSION_SECONDS = { verified: 24 * 60 * 60, email: 30 * 24 * 60 * 60 } as const;
/** One-time codes: six digits, valid 15 minutes, five tries. */
export const PORTAL_CODE = { digits: 6, seconds: 15 * 60, attempts: 5 } as const;
/** The grace period of a rotation when none is given: the old secret keeps verifying for 24 hours. */
export const DEFAULT_ROTATION_GRACE_SECONDS = 24 * 60 * 60;

/** What taking part on a portal runs with: the workspace, and the keys that seal its secret and its codes' mail. */
export interface PortalContext extends WorkspaceContext {
  secrets: SecretBox;
}

/** Who is taking part: vouched for by the workspace's token, or by a code mailed to their address. */
export interface PortalIdentity {
  verified: boolean;
  /** The workspace's user id (the token's `sub`); null for an email-verified person. */
  externalUserId: string | null;
  email: string;
  name: string | null;
}

/**
 * What an end-user does on the portal: the same three public interactions the engine has, and taking a vote back. `returnTo` is where the
 * page that asked goes afterwards; the engine keeps it with a pending action and does not read it.
 */
export type PortalAction = (
  | { kind: 'vote'; postId: string; notifyMe: boolean }
  /** Take one's vote back. */
  | { kind: 'unvote'; postId: string; notifyMe: boolean }
  | { kind: 'comment'; postId: string; parentId?: string; bodyText: string; notifyMe: boolean }
  | { kind: 'post'; boardId: string; title: string; bodyText?: string; notifyMe: boolean }
) & { returnTo?: string };

export type PortalActionResult =
  /** `voteCount`: the post's votes once this one is counted. */
  | { kind: 'vote'; vote: Vote; voteCount: number }
  /** `removed`: there was a vote to take back; `voteCount`: the post's votes now. */
  | { kind: 'unvote'; removed: boolean; voteCount: number }
  | { kind: 'comment'; comment: Comment }
  /** `held`: the workspace moderates anonymous posts and this one waits for approval. */
  | { kind: 'post'; post: Post; held: boolean };

/** A session the browser keeps: `token` goes in the cookie; only its SHA-256 is stored. */
export interface PortalSession {
  token: string;
  identity: PortalIdentity;
  expiresAt: Date;
}

/** The workspace's portal settings (who may take part, moderation), or 404. */
export async function portalSettings({ db, organizationId }: WorkspaceContext) {
  const row = await organizations.find(db, organizationId);
  if (!row) throw new FeedbackError('ERR_NOT_FOUND', `No organization with id ${organizationId}.`);
  return row;
}
