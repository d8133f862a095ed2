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
  | 'company.deleted';

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
export interface VoteCreatedEvent {
  event: 'vote.created';
  organizationId: string;
  boardId: string;
  /** `userId` is null for anonymous email-verified voters. */
  vote: { id: string; postId: string; userId: string | null; createdAt: Timestamp };
}
export interface CommentCreatedEvent {
  event: 'comment.created';
  organizationId: string;
  boardId: string;
  comment: {
    id: string;
    postId: string;
    parentId: string | null;
    authorUserId: string | null;
    bodyText: string;
    createdAt: Timestamp;
  };
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
  | CompanyDeletedEvent;
