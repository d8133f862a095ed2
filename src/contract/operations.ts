import type { Scope } from '../schemas/common.js';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * One REST operation: everything about it but its schemas (schemas.ts), so that the client can load this table
 * without zod. The h3 routes, the OpenAPI document, the agent tools and the client's methods are all derived from it.
 */
export interface OperationDefinition {
  method: Method;
  /** With `:name` path parameters, as h3 routes them. */
  path: string;
  /** The scope the key needs: `read` allows every GET, `read:write` everything. */
  scope: Scope;
  summary: string;
  /**
   * How a retried POST is made safe: `key`, an Idempotency-Key (the client makes one per call); `natural`, the
   * operation is idempotent by the spec (identify). GET, PATCH and DELETE are idempotent by their method.
   */
  idempotency?: 'key' | 'natural';
  /** Error statuses beyond those every operation can answer (401, 403, 429, 500; 404 with a path id; 400, 413, 422 with a body or query). */
  errors?: readonly number[];
  /**
   * What it does, for people and agents: the OpenAPI description, and the tool's (field and operation names in
   * snake_case there: `externalUserId` is `external_user_id`, `identifyContact` is the tool `identify_contact`).
   */
  description: string;
  /** The agent (MCP) tool; its arguments are the path ids and the body or query, in snake_case. */
  tool: { name: string; title: string };
  /**
   * The operation reads while its request's rate-limit count is on its way, where the count is a statement of its own
   * (PostgreSQL): it writes only once the count allows the request. For the hot path (identify), whose read and count
   * then take one round trip's time instead of two.
   */
  readsWhileCounting?: true;
}

/** Every REST operation, keyed by its OpenAPI operationId. */
export const OPERATIONS = {
  listContacts: {
    method: 'GET',
    path: '/v1/contacts',
    scope: 'read',
    summary: 'List contacts',
    description:
      'List the workspace contacts, newest first by default; filter with q (email or name), plan, and sort by created, last_seen or mrr. Returns a page: follow nextCursor for more.',
    tool: { name: 'list_contacts', title: 'List contacts' },
  },
  createContact: {
    method: 'POST',
    path: '/v1/contacts',
    scope: 'read:write',
    summary: 'Create a contact',
    idempotency: 'key',
    errors: [402, 409],
    description:
      'Create a contact. externalUserId must be new in the workspace (ERR_CONFLICT otherwise); mrrCents and currency go together. Use identifyContact to create-or-update.',
    tool: { name: 'create_contact', title: 'Create a contact' },
  },
  identifyContact: {
    method: 'POST',
    path: '/v1/contacts/identify',
    scope: 'read:write',
    summary: 'Create or update a contact by externalUserId',
    idempotency: 'natural',
    errors: [402, 409],
    description:
      'Create or update the contact with this externalUserId (required), and mark it seen now. Safe to repeat.',
    tool: { name: 'identify_contact', title: 'Identify a contact' },
    readsWhileCounting: true,
  },
  retrieveContact: {
    method: 'GET',
    path: '/v1/contacts/:contactId',
    scope: 'read',
    summary: 'Retrieve a contact',
    description: 'One contact by id, with its post count.',
    tool: { name: 'get_contact', title: 'Get a contact' },
  },
  updateContact: {
    method: 'PATCH',
    path: '/v1/contacts/:contactId',
    scope: 'read:write',
    summary: 'Update a contact',
    errors: [409],
    description: 'Change some fields of a contact; fields not given keep their values, null clears one.',
    tool: { name: 'update_contact', title: 'Update a contact' },
  },
  deleteContact: {
    method: 'DELETE',
    path: '/v1/contacts/:contactId',
    scope: 'read:write',
    summary: 'Delete a contact',
    description: 'Delete a contact for good. Its posts stay, without the contact.',
    tool: { name: 'delete_contact', title: 'Delete a contact' },
  },
  listContactPosts: {
    method: 'GET',
    path: '/v1/contacts/:contactId/posts',
    scope: 'read',
    summary: "List a contact's posts",
    description: 'The posts a contact wrote, newest first, as a page.',
    tool: { name: 'list_contact_posts', title: "List a contact's posts" },
  },
  listBoards: {
    method: 'GET',
    path: '/v1/boards',
    scope: 'read',
    summary: 'List boards',
    description: 'The workspace boards, oldest first, as a page. A post is created on a board.',
    tool: { name: 'list_boards', title: 'List boards' },
  },
  createPost: {
    method: 'POST',
    path: '/v1/boards/:boardId/posts',
    scope: 'read:write',
    summary: 'Create a post on a board',
    idempotency: 'key',
    description: 'Create a post (title, optional body, optional contactId and at most 3 tagIds) on a board.',
    tool: { name: 'create_post', title: 'Create a post' },
  },
  updatePost: {
    method: 'PATCH',
    path: '/v1/posts/:postId',
    scope: 'read:write',
    summary: 'Update a post',
    errors: [409],
    description:
      'Change a post: status (open, under_review, planned, in_progress, shipped, declined, duplicate), title, body, slug, tags, contact.',
    tool: { name: 'update_post', title: 'Update a post' },
  },
  whoami: {
    method: 'GET',
    path: '/v1/whoami',
    scope: 'read',
    summary: 'The key, its workspace and its rate-limit budget',
    description: 'The key in use, its workspace, its scope and what is left of its rate-limit budget.',
    tool: { name: 'whoami', title: 'Who am I' },
  },
  createWebhook: {
    method: 'POST',
    path: '/v1/webhooks',
    scope: 'read:write',
    summary: 'Register a webhook (the response carries its signing secret, once)',
    idempotency: 'key',
    errors: [402],
    description:
      'Register a receiver url (public http or https) for a list of event kinds. Paid plans only. The result carries the signing secret, shown this once.',
    tool: { name: 'create_webhook', title: 'Create a webhook' },
  },
  listWebhooks: {
    method: 'GET',
    path: '/v1/webhooks',
    scope: 'read',
    summary: 'List webhooks',
    description: 'The workspace webhooks (receivers of signed event deliveries), as a page.',
    tool: { name: 'list_webhooks', title: 'List webhooks' },
  },
  retrieveWebhook: {
    method: 'GET',
    path: '/v1/webhooks/:webhookId',
    scope: 'read',
    summary: 'Retrieve a webhook',
    description: 'One webhook: url, subscribed events, whether it is enabled.',
    tool: { name: 'get_webhook', title: 'Get a webhook' },
  },
  updateWebhook: {
    method: 'PATCH',
    path: '/v1/webhooks/:webhookId',
    scope: 'read:write',
    summary: 'Update or re-enable a webhook',
    description:
      'Change url, events or description; enabled true re-enables a disabled webhook and resets its failure count.',
    tool: { name: 'update_webhook', title: 'Update a webhook' },
  },
  deleteWebhook: {
    method: 'DELETE',
    path: '/v1/webhooks/:webhookId',
    scope: 'read:write',
    summary: 'Delete a webhook and its deliveries',
    description: 'Delete a webhook with its deliveries and their log.',
    tool: { name: 'delete_webhook', title: 'Delete a webhook' },
  },
  listWebhookDeliveries: {
    method: 'GET',
    path: '/v1/webhooks/:webhookId/deliveries',
    scope: 'read',
    summary: "List a webhook's deliveries, newest first, with their attempts",
    description:
      'Deliveries of a webhook, newest first, each with its status and every attempt (status code, error, duration).',
    tool: { name: 'list_webhook_deliveries', title: "List a webhook's deliveries" },
  },
  replayWebhookDelivery: {
    method: 'POST',
    path: '/v1/webhooks/:webhookId/deliveries/:deliveryId/replay',
    scope: 'read:write',
    summary: 'Replay a delivery as a new delivery of the same payload',
    idempotency: 'key',
    errors: [409],
    description:
      'Send a past delivery again as a new delivery with the same payload. Refused while the webhook is disabled or no longer subscribes to the event.',
    tool: { name: 'replay_webhook_delivery', title: 'Replay a delivery' },
  },
} as const satisfies Record<string, OperationDefinition>;

export type OperationId = keyof typeof OPERATIONS;
export type Operation<K extends OperationId = OperationId> = (typeof OPERATIONS)[K];

/** The operation ids, in table order. */
export const OPERATION_IDS = Object.keys(OPERATIONS) as OperationId[];

/** The `:name` parameters of a path, in order. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
}

/** The path with each `:name` replaced by its value, URL-encoded. */
export function fillPath(path: string, values: readonly string[]): string {
  let i = 0;
  return path.replace(/:[A-Za-z]+/g, () => encodeURIComponent(values[i++] ?? ''));
}

/** Whether an operation writes (any method but GET): refused in read-only billing state. */
export const writes = (operation: OperationDefinition): boolean => operation.method !== 'GET';
