// The webhook event payloads in plain TypeScript, so that the verifier (and its declarations) need no zod. The
// schemas face is their source (`webhookEventSchema`); test/verify/event-types.test.ts proves these equal to it.

/** An event kind: the `X-Service-Event` header and the payload's `event`. */
export type EventKind =
  | 'post.created'
  | 'post.status_changed'
  | 'vote.created'
  | 'comment.created'
  | 'changelog.published'
  | 'contact.created'
  | 'contact.updated'
  | 'contact.deleted'
  | 'company.created'
  | 'company.updated'
  | 'company.deleted'
  | 'post.updated'
  | 'post.merged'
  | 'post.deleted'
  | 'vote.deleted'
  | 'comment.updated'
  | 'comment.deleted';

/** A timestamp: ISO 8601, UTC, milliseconds. */
type Timestamp = string;

interface PostSummary {
  id: string;
  title: string;
  slug: string;
  status: string;
  createdAt: Timestamp;
}

/** The contact as event payloads carry it: every field but email and organizationId. */
export interface EventContact {
  id: string;
  externalUserId: string | null;
  name: string | null;
  plan: string | null;
  mrrCents: number | null;
  currency: string | null;
  /** Open enum: accept values added in minor releases. */
  source: string;
  /** Open enum: accept values added in minor releases. */
  consentBasis: string;
  metadata: Record<string, unknown>;
  /** The language the person reads the portal and its mail in (BCP 47), or null. */
  locale: string | null;
  firstSeenAt: Timestamp;
  lastSeenAt: Timestamp;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface PostCreatedEvent {
  event: 'post.created';
  organizationId: string;
  boardId: string;
  post: PostSummary;
}
export interface PostStatusChangedEvent {
  event: 'post.status_changed';
  organizationId: string;
  boardId: string;
  post: PostSummary;
  previousStatus: string;
}
/** A vote as `vote.*` events carry it: `userId` is null for anonymous email-verified voters. */
interface EventVote {
  id: string;
  postId: string;
  userId: string | null;
  createdAt: Timestamp;
}
/** A comment as `comment.*` events carry it. */
interface EventComment {
  id: string;
  postId: string;
  parentId: string | null;
  authorUserId: string | null;
  bodyText: string;
  createdAt: Timestamp;
}
export interface VoteCreatedEvent {
  event: 'vote.created';
  organizationId: string;
  boardId: string;
  vote: EventVote;
}
export interface CommentCreatedEvent {
  event: 'comment.created';
  organizationId: string;
  boardId: string;
  comment: EventComment;
}
export interface ChangelogPublishedEvent {
  event: 'changelog.published';
  organizationId: string;
  boardId: string;
  entry: { id: string; title: string; slug: string; publishedAt: Timestamp };
}
export interface ContactCreatedEvent {
  event: 'contact.created';
  organizationId: string;
  contact: EventContact;
}
export interface ContactUpdatedEvent {
  event: 'contact.updated';
  organizationId: string;
  contact: EventContact;
  /** Every trait that changed, metadata as whole objects. */
  changes: Record<string, { from: unknown; to: unknown }>;
}
export interface ContactDeletedEvent {
  event: 'contact.deleted';
  organizationId: string;
  contact: { id: string; externalUserId: string | null };
}

/** The company as event payloads carry it: every field but organizationId and memberCount. */
export interface EventCompany {
  id: string;
  externalCompanyId: string;
  name: string | null;
  domain: string | null;
  plan: string | null;
  mrrCents: number | null;
  currency: string | null;
  metadata: Record<string, unknown>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}
export interface CompanyCreatedEvent {
  event: 'company.created';
  organizationId: string;
  company: EventCompany;
}
export interface CompanyUpdatedEvent {
  event: 'company.updated';
  organizationId: string;
  company: EventCompany;
  /** Every field that changed, metadata as whole objects. */
  changes: Record<string, { from: unknown; to: unknown }>;
}
export interface CompanyDeletedEvent {
  event: 'company.deleted';
  organizationId: string;
  company: { id: string; externalCompanyId: string };
}

export interface PostUpdatedEvent {
  event: 'post.updated';
  organizationId: string;
  boardId: string;
  post: PostSummary;
  /** The fields that changed: title, body (its text), slug, status, contactId, hideFromRoadmap, tagIds. */
  changes: Record<string, { from: unknown; to: unknown }>;
}
export interface PostMergedEvent {
  event: 'post.merged';
  organizationId: string;
  boardId: string;
  /** The duplicate, now `duplicate`; its votes moved to `into`. */
  post: PostSummary;
  into: PostSummary;
}
export interface PostDeletedEvent {
  event: 'post.deleted';
  organizationId: string;
  boardId: string;
  post: PostSummary;
}
export interface VoteDeletedEvent {
  event: 'vote.deleted';
  organizationId: string;
  boardId: string;
  vote: EventVote;
}
export interface CommentUpdatedEvent {
  event: 'comment.updated';
  organizationId: string;
  boardId: string;
  comment: EventComment;
  changes: Record<string, { from: unknown; to: unknown }>;
}
export interface CommentDeletedEvent {
  event: 'comment.deleted';
  organizationId: string;
  boardId: string;
  comment: EventComment;
}

/** Every webhook event payload, discriminated by `event`. */
export type WebhookEvent =
  | PostCreatedEvent
  | PostStatusChangedEvent
  | VoteCreatedEvent
  | CommentCreatedEvent
  | ChangelogPublishedEvent
  | ContactCreatedEvent
  | ContactUpdatedEvent
  | ContactDeletedEvent
  | CompanyCreatedEvent
  | CompanyUpdatedEvent
  | CompanyDeletedEvent
  | PostUpdatedEvent
  | PostMergedEvent
  | PostDeletedEvent
  | VoteDeletedEvent
  | CommentUpdatedEvent
  | CommentDeletedEvent;
