import { z } from 'zod';
import { pageSchema, timestampSchema } from './common.js';
import { type PostStatus, postStatusSchema } from './posts.js';

/** The services a workspace connects (docs/integrations.md). */
export const INTEGRATION_SERVICES = ['linear', 'github', 'slack'] as const;
export type IntegrationService = (typeof INTEGRATION_SERVICES)[number];
export const integrationServiceSchema = z.enum(INTEGRATION_SERVICES);

/**
 * How a connection signs in to its service: Linear with an API key or OAuth 2; GitHub with a fine-grained token or a
 * GitHub App's installation; Slack with a bot token (OAuth v2) or an incoming-webhook URL.
 */
export const INTEGRATION_AUTHS = ['api_key', 'oauth', 'token', 'app', 'bot', 'incoming_webhook'] as const;
export type IntegrationAuth = (typeof INTEGRATION_AUTHS)[number];

/** `active`; `failing` while its last outbound call failed (the console shows the error until a call succeeds). */
export const integrationStatusSchema = z.enum(['active', 'failing']);

/** A workspace's connection to Linear, GitHub or Slack. Its credentials never leave the server. */
export const integrationSchema = z.object({
  id: z.string(),
  service: integrationServiceSchema,
  auth: z.enum(INTEGRATION_AUTHS),
  /** What it is connected to, as the service names it: the Linear workspace, the GitHub account, the Slack team. */
  account: z.string().nullable(),
  status: integrationStatusSchema,
  /** The last outbound call's error while `failing`, else null. */
  lastError: z.string().nullable(),
  lastErrorAt: timestampSchema.nullable(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type Integration = z.infer<typeof integrationSchema>;
export const integrationPageSchema = pageSchema(integrationSchema);
export const deletedIntegrationSchema = z.object({ id: z.string(), deleted: z.literal(true) });

/** Linear's workflow state types, in Linear's order. */
export const LINEAR_STATE_TYPES = ['triage', 'backlog', 'unstarted', 'started', 'completed', 'canceled'] as const;
/** What GitHub's `issues` events say of an issue. */
export const GITHUB_ISSUE_STATES = ['closed_completed', 'closed_not_planned', 'reopened'] as const;

/** Each tracker's states a mapping names. */
export const ISSUE_STATES: Readonly<Record<'linear' | 'github', readonly string[]>> = Object.freeze({
  linear: LINEAR_STATE_TYPES,
  github: GITHUB_ISSUE_STATES,
});

/** Which post status an issue's state moves its linked posts to; a state not named moves nothing. */
export const statusMappingSchema = z.record(z.string(), postStatusSchema);
export type StatusMapping = Partial<Record<string, PostStatus>>;

/** The mappings a new connection starts with (the console changes them). */
export const DEFAULT_STATUS_MAPPINGS: Readonly<Record<'linear' | 'github', StatusMapping>> = Object.freeze({
  linear: { started: 'in_progress', completed: 'shipped', canceled: 'declined' },
  github: { closed_completed: 'shipped', closed_not_planned: 'declined', reopened: 'planned' },
});

/** A connection's mapping: the team's (its settings' `statusMap`), else the service's default. */
export const statusMappingOf = (service: 'linear' | 'github', settings: Record<string, unknown>): StatusMapping =>
  (settings.statusMap as StatusMapping | undefined) ?? DEFAULT_STATUS_MAPPINGS[service];

/** The events a Slack connection may post to its channel. */
export const SLACK_NOTICES = ['post.created', 'comment.created', 'post.status_changed', 'vote.created'] as const;
export type SlackNotice = (typeof SLACK_NOTICES)[number];

/** An issue in Linear or GitHub linked to a post (the console's post page). */
export interface IssueLink {
  id: string;
  postId: string;
  integrationId: string;
  service: 'linear' | 'github';
  /** The service's id of the issue: Linear's UUID, GitHub's `owner/repo#number`. */
  externalId: string;
  /** What people call it: `ENG-123`, `acme/app#12`. */
  key: string;
  url: string;
  title: string | null;
  /** The issue's state as the service last said it (Linear's state name, GitHub's open or closed). */
  state: string | null;
  createdAt: string;
}
