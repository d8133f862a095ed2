import { z } from 'zod';
import { timestampSchema } from './common.js';
import { companySchema } from './companies.js';

export const EVENT_KINDS = [
  'post.created',
  'post.status_changed',
  'vote.created',
  'comment.created',
  'changelog.published',
  'contact.created',
  'contact.updated',
  'contact.deleted',
  'company.created',
  'company.updated',
  'company.deleted',
  'post.updated',
  'post.merged',
  'post.deleted',
  'vote.deleted',
  'comment.updated',
  'comment.deleted',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];
export const eventKindSchema = z.enum(EVENT_KINDS);

/** The post as every `post.*` event carries it. */
const postSummary = z.object({
  id: z.string(),
  title: z.string(),
  slug: z.string(),
  status: z.string(),
  createdAt: timestampSchema,
});
export type EventPost = z.infer<typeof postSummary>;

/** The vote as `vote.*` events carry it. */
const eventVote = z.object({
  id: z.string(),
  postId: z.string(),
  userId: z.string().nullable(),
  createdAt: timestampSchema,
});

/** The comment as `comment.*` events carry it. */
const eventComment = z.object({
  id: z.string(),
  postId: z.string(),
  parentId: z.string().nullable(),
  authorUserId: z.string().nullable(),
  bodyText: z.string(),
  createdAt: timestampSchema,
});

/** The contact as event payloads carry it: every field but email and organizationId. */
export const eventContactSchema = z.object({
  id: z.string(),
  externalUserId: z.string().nullable(),
  name: z.string().nullable(),
  plan: z.string().nullable(),
  mrrCents: z.number().int().nullable(),
  currency: z.string().nullable(),
  source: z.string(),
  consentBasis: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  /** The language the person reads the portal and its mail in (BCP 47), or null. */
  locale: z.string().nullable(),
  firstSeenAt: timestampSchema,
  lastSeenAt: timestampSchema,
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type EventContact = z.infer<typeof eventContactSchema>;

export const traitChangeSchema = z.object({ from: z.unknown(), to: z.unknown() });

export const postCreatedEventSchema = z.object({
  event: z.literal('post.created'),
  organizationId: z.string(),
  boardId: z.string(),
  post: postSummary,
});
export const postStatusChangedEventSchema = z.object({
  event: z.literal('post.status_changed'),
  organizationId: z.string(),
  boardId: z.string(),
  post: postSummary,
  previousStatus: z.string(),
});
export const voteCreatedEventSchema = z.object({
  event: z.literal('vote.created'),
  organizationId: z.string(),
  boardId: z.string(),
  vote: eventVote,
});
export const commentCreatedEventSchema = z.object({
  event: z.literal('comment.created'),
  organizationId: z.string(),
  boardId: z.string(),
  comment: eventComment,
});
export const changelogPublishedEventSchema = z.object({
  event: z.literal('changelog.published'),
  organizationId: z.string(),
  boardId: z.string(),
  entry: z.object({ id: z.string(), title: z.string(), slug: z.string(), publishedAt: timestampSchema }),
});
export const contactCreatedEventSchema = z.object({
  event: z.literal('contact.created'),
  organizationId: z.string(),
  contact: eventContactSchema,
});
export const contactUpdatedEventSchema = z.object({
  event: z.literal('contact.updated'),
  organizationId: z.string(),
  contact: eventContactSchema,
  changes: z.record(z.string(), traitChangeSchema),
});
export const contactDeletedEventSchema = z.object({
  event: z.literal('contact.deleted'),
  organizationId: z.string(),
  contact: z.object({ id: z.string(), externalUserId: z.string().nullable() }),
});

/** The company as event payloads carry it: every field but organizationId and memberCount. */
export const eventCompanySchema = companySchema.omit({ organizationId: true, memberCount: true });
export type EventCompany = z.infer<typeof eventCompanySchema>;

export const companyCreatedEventSchema = z.object({
  event: z.literal('company.created'),
  organizationId: z.string(),
  company: eventCompanySchema,
});
export const companyUpdatedEventSchema = z.object({
  event: z.literal('company.updated'),
  organizationId: z.string(),
  company: eventCompanySchema,
  changes: z.record(z.string(), traitChangeSchema),
});
export const companyDeletedEventSchema = z.object({
  event: z.literal('company.deleted'),
  organizationId: z.string(),
  company: z.object({ id: z.string(), externalCompanyId: z.string() }),
});

export const postUpdatedEventSchema = z.object({
  event: z.literal('post.updated'),
  organizationId: z.string(),
  boardId: z.string(),
  post: postSummary,
  /** The fields that changed: title, body (its text), slug, status, contactId, hideFromRoadmap, tagIds. */
  changes: z.record(z.string(), traitChangeSchema),
});
export const postMergedEventSchema = z.object({
  event: z.literal('post.merged'),
  organizationId: z.string(),
  boardId: z.string(),
  /** The duplicate, now `duplicate`; its votes moved to `into`. */
  post: postSummary,
  into: postSummary,
});
export const postDeletedEventSchema = z.object({
  event: z.literal('post.deleted'),
  organizationId: z.string(),
  boardId: z.string(),
  post: postSummary,
});
export const voteDeletedEventSchema = z.object({
  event: z.literal('vote.deleted'),
  organizationId: z.string(),
  boardId: z.string(),
  vote: eventVote,
});
export const commentUpdatedEventSchema = z.object({
  event: z.literal('comment.updated'),
  organizationId: z.string(),
  boardId: z.string(),
  comment: eventComment,
  changes: z.record(z.string(), traitChangeSchema),
});
export const commentDeletedEventSchema = z.object({
  event: z.literal('comment.deleted'),
  organizationId: z.string(),
  boardId: z.string(),
  comment: eventComment,
});

/** Every webhook event payload, discriminated by `event`. */
export const webhookEventSchema = z.discriminatedUnion('event', [
  postCreatedEventSchema,
  postStatusChangedEventSchema,
  voteCreatedEventSchema,
  commentCreatedEventSchema,
  changelogPublishedEventSchema,
  contactCreatedEventSchema,
  contactUpdatedEventSchema,
  contactDeletedEventSchema,
  companyCreatedEventSchema,
  companyUpdatedEventSchema,
  companyDeletedEventSchema,
  postUpdatedEventSchema,
  postMergedEventSchema,
  postDeletedEventSchema,
  voteDeletedEventSchema,
  commentUpdatedEventSchema,
  commentDeletedEventSchema,
]);
export type WebhookEvent = z.infer<typeof webhookEventSchema>;
export type WebhookEventOf<K extends EventKind> = Extract<WebhookEvent, { event: K }>;
