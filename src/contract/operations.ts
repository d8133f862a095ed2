import type { z } from 'zod';
import type { Scope } from '../schemas/common.js';
import type * as schemas from '../schemas/index.js';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** The name of a `feedback-service/schemas` export that is a zod schema: how a row names its shapes. */
export type SchemaName = {
  [N in keyof typeof schemas]: (typeof schemas)[N] extends z.ZodType ? N : never;
}[keyof typeof schemas];
/** A `SchemaName` whose schema is an object: what query parameters are. */
export type ObjectSchemaName = {
  [N in SchemaName]: (typeof schemas)[N] extends z.ZodObject ? N : never;
}[SchemaName];

/**
 * What the API is made of, a group of operations each: the OpenAPI tag and its description, in the order a reader
 * meets them. A row names its resource.
 */
export const RESOURCES = {
  contacts: {
    tag: 'Contacts',
    description: 'End-users of your product: identified by your own user id, with plan, revenue and metadata.',
  },
  companies: {
    tag: 'Companies',
    description:
      'The paying accounts your contacts belong to: identified by your own account id, with plan, revenue and metadata. Impact counts each company once.',
  },
  boards: { tag: 'Boards', description: 'Where posts are filed; public ones are on the portal.' },
  posts: { tag: 'Posts', description: 'Feedback filed on a board: its status, votes and comments.' },
  webhooks: { tag: 'Webhooks', description: 'Receivers of signed event deliveries, their delivery log and replays.' },
  keys: { tag: 'Keys', description: 'The API key in use and its rate-limit budget.' },
} as const;

/**
 * What an operation answers on success: a page of a list (`{ data, nextCursor }`, the named schema is the whole page),
 * or `{ data }` of one resource, with 200 unless `statuses` says otherwise (201 when it creates; identify answers
 * either).
 */
export type Answers = { page: SchemaName } | { data: SchemaName; statuses?: readonly (200 | 201)[] };

/**
 * One REST operation. Its shapes are named, not imported (`body: 'createContactBodySchema'`), so that the client can
 * load this table without zod; contract/schemas.ts resolves them. The h3 routes, the OpenAPI document, the agent
 * tools and the client's methods are all derived from it.
 */
export interface OperationDefinition {
  method: Method;
  /** With `:name` path parameters, as h3 routes them. */
  path: string;
  /** The scope the key needs: `read` allows every GET, `read:write` everything. */
  scope: Scope;
  /** Its group: the OpenAPI tag. */
  resource: keyof typeof RESOURCES;
  /** The JSON body it takes (POST and PATCH that take one). */
  body?: SchemaName;
  /** Its query parameters, an object schema (GET). */
  query?: ObjectSchemaName;
  answers: Answers;
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
   * The client's method: `group.name` (`contacts.identify`), or a name alone for one on the client itself (`whoami`).
   * Its arguments are the path ids in order, then the body (required) or the query (optional), then request options.
   */
  client: string;
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
    resource: 'contacts',
    query: 'listContactsQuerySchema',
    answers: { page: 'contactPageSchema' },
    summary: 'List contacts',
    description:
      'List the workspace contacts, newest first by default; filter with q (email or name), plan, and sort by created, last_seen or mrr. Returns a page: follow nextCursor for more.',
    tool: { name: 'list_contacts', title: 'List contacts' },
    client: 'contacts.list',
  },
  createContact: {
    method: 'POST',
    path: '/v1/contacts',
    scope: 'read:write',
    resource: 'contacts',
    body: 'createContactBodySchema',
    answers: { data: 'contactSchema', statuses: [201] },
    summary: 'Create a contact',
    idempotency: 'key',
    errors: [402, 409],
    description:
      'Create a contact. externalUserId must be new in the workspace (ERR_CONFLICT otherwise); mrrCents and currency go together. Use identifyContact to create-or-update.',
    tool: { name: 'create_contact', title: 'Create a contact' },
    client: 'contacts.create',
  },
  identifyContact: {
    method: 'POST',
    path: '/v1/contacts/identify',
    scope: 'read:write',
    resource: 'contacts',
    body: 'identifyContactBodySchema',
    answers: { data: 'contactSchema', statuses: [200, 201] },
    summary: 'Create or update a contact by externalUserId',
    idempotency: 'natural',
    errors: [402, 409],
    description:
      'Create or update the contact with this externalUserId (required), and mark it seen now. Safe to repeat.',
    tool: { name: 'identify_contact', title: 'Identify a contact' },
    client: 'contacts.identify',
    readsWhileCounting: true,
  },
  retrieveContact: {
    method: 'GET',
    path: '/v1/contacts/:contactId',
    scope: 'read',
    resource: 'contacts',
    answers: { data: 'contactDetailSchema' },
    summary: 'Retrieve a contact',
    description: 'One contact by id, with its post count.',
    tool: { name: 'get_contact', title: 'Get a contact' },
    client: 'contacts.retrieve',
  },
  updateContact: {
    method: 'PATCH',
    path: '/v1/contacts/:contactId',
    scope: 'read:write',
    resource: 'contacts',
    body: 'updateContactBodySchema',
    answers: { data: 'contactSchema' },
    summary: 'Update a contact',
    errors: [409],
    description: 'Change some fields of a contact; fields not given keep their values, null clears one.',
    tool: { name: 'update_contact', title: 'Update a contact' },
    client: 'contacts.update',
  },
  deleteContact: {
    method: 'DELETE',
    path: '/v1/contacts/:contactId',
    scope: 'read:write',
    resource: 'contacts',
    answers: { data: 'deletedContactSchema' },
    summary: 'Delete a contact',
    description: 'Delete a contact for good. Its posts stay, without the contact.',
    tool: { name: 'delete_contact', title: 'Delete a contact' },
    client: 'contacts.delete',
  },
  listContactPosts: {
    method: 'GET',
    path: '/v1/contacts/:contactId/posts',
    scope: 'read',
    resource: 'posts',
    query: 'pageQuerySchema',
    answers: { page: 'postPageSchema' },
    summary: "List a contact's posts",
    description: 'The posts a contact wrote, newest first, as a page.',
    tool: { name: 'list_contact_posts', title: "List a contact's posts" },
    client: 'contacts.listPosts',
  },
  listCompanies: {
    method: 'GET',
    path: '/v1/companies',
    scope: 'read',
    resource: 'companies',
    query: 'listCompaniesQuerySchema',
    answers: { page: 'companyPageSchema' },
    summary: 'List companies',
    description:
      'List the workspace companies, newest first by default; q finds a text in the name or domain; sort by created or mrr (highest first, companies without revenue last). Returns a page: follow nextCursor for more.',
    tool: { name: 'list_companies', title: 'List companies' },
    client: 'companies.list',
  },
  upsertCompany: {
    method: 'POST',
    path: '/v1/companies',
    scope: 'read:write',
    resource: 'companies',
    body: 'upsertCompanyBodySchema',
    answers: { data: 'companySchema', statuses: [200, 201] },
    summary: 'Create or update a company by externalCompanyId',
    idempotency: 'natural',
    errors: [409],
    description:
      'Create the company with this externalCompanyId (required), or update it: fields not given keep their values, null clears one, metadata merges (null removes a key); mrrCents and currency go together. Safe to repeat.',
    tool: { name: 'upsert_company', title: 'Create or update a company' },
    client: 'companies.upsert',
  },
  retrieveCompany: {
    method: 'GET',
    path: '/v1/companies/:companyId',
    scope: 'read',
    resource: 'companies',
    answers: { data: 'companySchema' },
    summary: 'Retrieve a company',
    description: 'One company by id, with how many contacts belong to it.',
    tool: { name: 'get_company', title: 'Get a company' },
    client: 'companies.retrieve',
  },
  updateCompany: {
    method: 'PATCH',
    path: '/v1/companies/:companyId',
    scope: 'read:write',
    resource: 'companies',
    body: 'updateCompanyBodySchema',
    answers: { data: 'companySchema' },
    summary: 'Update a company',
    errors: [409],
    description:
      'Change some fields of a company; fields not given keep their values, null clears one, metadata merges. A new externalCompanyId must be free (ERR_CONFLICT otherwise).',
    tool: { name: 'update_company', title: 'Update a company' },
    client: 'companies.update',
  },
  deleteCompany: {
    method: 'DELETE',
    path: '/v1/companies/:companyId',
    scope: 'read:write',
    resource: 'companies',
    answers: { data: 'deletedCompanySchema' },
    summary: 'Delete a company',
    description: 'Delete a company for good. Its contacts stay, without it; its revenue leaves impact.',
    tool: { name: 'delete_company', title: 'Delete a company' },
    client: 'companies.delete',
  },
  listCompanyContacts: {
    method: 'GET',
    path: '/v1/companies/:companyId/contacts',
    scope: 'read',
    resource: 'companies',
    query: 'pageQuerySchema',
    answers: { page: 'contactPageSchema' },
    summary: "List a company's contacts",
    description: 'The contacts who belong to a company, newest first, as a page.',
    tool: { name: 'list_company_contacts', title: "List a company's contacts" },
    client: 'companies.listContacts',
  },
  listBoards: {
    method: 'GET',
    path: '/v1/boards',
    scope: 'read',
    resource: 'boards',
    query: 'pageQuerySchema',
    answers: { page: 'boardPageSchema' },
    summary: 'List boards',
    description: 'The workspace boards, oldest first, as a page. A post is created on a board.',
    tool: { name: 'list_boards', title: 'List boards' },
    client: 'boards.list',
  },
  createPost: {
    method: 'POST',
    path: '/v1/boards/:boardId/posts',
    scope: 'read:write',
    resource: 'posts',
    body: 'createPostBodySchema',
    answers: { data: 'postSchema', statuses: [201] },
    summary: 'Create a post on a board',
    idempotency: 'key',
    description: 'Create a post (title, optional body, optional contactId and at most 3 tagIds) on a board.',
    tool: { name: 'create_post', title: 'Create a post' },
    client: 'posts.create',
  },
  updatePost: {
    method: 'PATCH',
    path: '/v1/posts/:postId',
    scope: 'read:write',
    resource: 'posts',
    body: 'updatePostBodySchema',
    answers: { data: 'postSchema' },
    summary: 'Update a post',
    errors: [409],
    description:
      'Change a post: status (open, under_review, planned, in_progress, shipped, declined, duplicate), title, body, slug, tags, contact.',
    tool: { name: 'update_post', title: 'Update a post' },
    client: 'posts.update',
  },
  whoami: {
    method: 'GET',
    path: '/v1/whoami',
    scope: 'read',
    resource: 'keys',
    answers: { data: 'whoamiSchema' },
    summary: 'The key, its workspace and its rate-limit budget',
    description: 'The key in use, its workspace, its scope and what is left of its rate-limit budget.',
    tool: { name: 'whoami', title: 'Who am I' },
    client: 'whoami',
  },
  createWebhook: {
    method: 'POST',
    path: '/v1/webhooks',
    scope: 'read:write',
    resource: 'webhooks',
    body: 'createWebhookBodySchema',
    answers: { data: 'createdWebhookSchema', statuses: [201] },
    summary: 'Register a webhook (the response carries its signing secret, once)',
    idempotency: 'key',
    errors: [402],
    description:
      'Register a receiver url (public http or https) for a list of event kinds. Paid plans only. The result carries the signing secret, shown this once.',
    tool: { name: 'create_webhook', title: 'Create a webhook' },
    client: 'webhooks.create',
  },
  listWebhooks: {
    method: 'GET',
    path: '/v1/webhooks',
    scope: 'read',
    resource: 'webhooks',
    query: 'pageQuerySchema',
    answers: { page: 'webhookPageSchema' },
    summary: 'List webhooks',
    description: 'The workspace webhooks (receivers of signed event deliveries), as a page.',
    tool: { name: 'list_webhooks', title: 'List webhooks' },
    client: 'webhooks.list',
  },
  retrieveWebhook: {
    method: 'GET',
    path: '/v1/webhooks/:webhookId',
    scope: 'read',
    resource: 'webhooks',
    answers: { data: 'webhookSchema' },
    summary: 'Retrieve a webhook',
    description: 'One webhook: url, subscribed events, whether it is enabled.',
    tool: { name: 'get_webhook', title: 'Get a webhook' },
    client: 'webhooks.retrieve',
  },
  updateWebhook: {
    method: 'PATCH',
    path: '/v1/webhooks/:webhookId',
    scope: 'read:write',
    resource: 'webhooks',
    body: 'updateWebhookBodySchema',
    answers: { data: 'webhookSchema' },
    summary: 'Update or re-enable a webhook',
    description:
      'Change url, events or description; enabled true re-enables a disabled webhook and resets its failure count.',
    tool: { name: 'update_webhook', title: 'Update a webhook' },
    client: 'webhooks.update',
  },
  deleteWebhook: {
    method: 'DELETE',
    path: '/v1/webhooks/:webhookId',
    scope: 'read:write',
    resource: 'webhooks',
    answers: { data: 'deletedWebhookSchema' },
    summary: 'Delete a webhook and its deliveries',
    description: 'Delete a webhook with its deliveries and their log.',
    tool: { name: 'delete_webhook', title: 'Delete a webhook' },
    client: 'webhooks.delete',
  },
  listWebhookDeliveries: {
    method: 'GET',
    path: '/v1/webhooks/:webhookId/deliveries',
    scope: 'read',
    resource: 'webhooks',
    query: 'pageQuerySchema',
    answers: { page: 'deliveryPageSchema' },
    summary: "List a webhook's deliveries, newest first, with their attempts",
    description:
      'Deliveries of a webhook, newest first, each with its status and every attempt (status code, error, duration).',
    tool: { name: 'list_webhook_deliveries', title: "List a webhook's deliveries" },
    client: 'webhooks.listDeliveries',
  },
  replayWebhookDelivery: {
    method: 'POST',
    path: '/v1/webhooks/:webhookId/deliveries/:deliveryId/replay',
    scope: 'read:write',
    resource: 'webhooks',
    answers: { data: 'deliverySchema', statuses: [201] },
    summary: 'Replay a delivery as a new delivery of the same payload',
    idempotency: 'key',
    errors: [409],
    description:
      'Send a past delivery again as a new delivery with the same payload. Refused while the webhook is disabled or no longer subscribes to the event.',
    tool: { name: 'replay_webhook_delivery', title: 'Replay a delivery' },
    client: 'webhooks.replayDelivery',
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
