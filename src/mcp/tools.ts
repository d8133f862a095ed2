import { z } from 'zod';
import { ROUTES } from '../h3/routes/index.js';
import { toJsonSchema } from '../schemas/json-schema.js';
import type { Scope } from '../schemas/common.js';
import { snakeSchema, toSnake, type JsonSchema } from './case.js';
import type { FeedbackOperations } from './operations.js';

/** A path id of the REST route, as a tool argument. */
interface IdArgument {
  name: string;
  description: string;
}

/** What a tool says of itself; its scope, ids and schemas come from the REST route it mirrors. */
interface ToolSpec {
  name: string;
  title: string;
  description: string;
  /** The REST operation (its `operationId` in the route table). */
  operationId: string;
  annotations: ToolDefinition['annotations'];
  call(ops: FeedbackOperations, ids: string[], input: Record<string, unknown>): Promise<unknown>;
}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  /** The REST operation it mirrors, as `METHOD /path`. */
  rest: string;
  scope: Scope;
  /** Whether its REST route writes (any method but GET): refused in read-only billing state. */
  writes: boolean;
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: false };
  /** The route's path ids, in snake_case. */
  ids: IdArgument[];
  /** The route's body or query schema. */
  input?: z.ZodType;
  /** The route's success payload: the page for lists, the `data` of single-resource answers. */
  output: z.ZodType;
  call(ops: FeedbackOperations, ids: string[], input: Record<string, unknown>): Promise<unknown>;
}

const read = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
const write = (idempotent: boolean, destructive = false) =>
  ({ readOnlyHint: false, destructiveHint: destructive, idempotentHint: idempotent, openWorldHint: false }) as const;

/** A tool from its spec and the route table: scope, path ids, input and output are the route's own. */
function fromRoute(spec: ToolSpec): ToolDefinition {
  const route = ROUTES.find((r) => r.doc.operationId === spec.operationId);
  if (!route) throw new Error(`no REST route ${spec.operationId}`);
  const success = Object.values(route.doc.responses)[0]!;
  const shape = (success as z.ZodObject).shape as Record<string, z.ZodType>;
  const ids = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => ({
    name: toSnake(m[1]!),
    description: `The ${toSnake(m[1]!).replace(/_id$/, '')} id.`,
  }));
  return {
    ...spec,
    rest: `${route.method} ${route.path.replace(/:([A-Za-z]+)/g, '{$1}')}`,
    scope: route.scope,
    writes: route.method !== 'GET',
    ids,
    input: route.doc.body ?? route.doc.query,
    output: 'nextCursor' in shape ? success : shape.data!,
  };
}

/** The 18 tools, one per REST operation. */
export const TOOLS: readonly ToolDefinition[] = ([
  {
    name: 'list_contacts', title: 'List contacts', operationId: 'listContacts', annotations: read,
    description: 'List the workspace contacts, newest first by default; filter with q (email or name), plan, and sort by created, last_seen or mrr. Returns a page: follow next_cursor for more.',
    call: (ops, _ids, q) => ops.listContacts(q),
  },
  {
    name: 'get_contact', title: 'Get a contact', operationId: 'retrieveContact', annotations: read,
    description: 'One contact by id, with its post count.',
    call: (ops, [contactId]) => ops.getContact(contactId!),
  },
  {
    name: 'create_contact', title: 'Create a contact', operationId: 'createContact', annotations: write(false),
    description: 'Create a contact. external_user_id must be new in the workspace (ERR_CONFLICT otherwise); mrr_cents and currency go together. Use identify_contact to create-or-update.',
    call: (ops, _ids, body) => ops.createContact(body),
  },
  {
    name: 'identify_contact', title: 'Identify a contact', operationId: 'identifyContact', annotations: write(true),
    description: 'Create or update the contact with this external_user_id (or email), and mark it seen now. Safe to repeat.',
    call: (ops, _ids, body) => ops.identifyContact(body),
  },
  {
    name: 'update_contact', title: 'Update a contact', operationId: 'updateContact', annotations: write(true),
    description: 'Change some fields of a contact; fields not given keep their values, null clears one.',
    call: (ops, [contactId], body) => ops.updateContact(contactId!, body),
  },
  {
    name: 'delete_contact', title: 'Delete a contact', operationId: 'deleteContact', annotations: write(true, true),
    description: 'Delete a contact for good. Its posts stay, without the contact.',
    call: (ops, [contactId]) => ops.deleteContact(contactId!),
  },
  {
    name: 'list_contact_posts', title: "List a contact's posts", operationId: 'listContactPosts', annotations: read,
    description: 'The posts a contact wrote, newest first, as a page.',
    call: (ops, [contactId], q) => ops.listContactPosts(contactId!, q),
  },
  {
    name: 'list_boards', title: 'List boards', operationId: 'listBoards', annotations: read,
    description: 'The workspace boards, oldest first, as a page. A post is created on a board.',
    call: (ops, _ids, q) => ops.listBoards(q),
  },
  {
    name: 'create_post', title: 'Create a post', operationId: 'createPost', annotations: write(false),
    description: 'Create a post (title, optional body, optional contact_id and at most 3 tag_ids) on a board.',
    call: (ops, [boardId], body) => ops.createPost(boardId!, body),
  },
  {
    name: 'update_post', title: 'Update a post', operationId: 'updatePost', annotations: write(true),
    description: 'Change a post: status (open, under_review, planned, in_progress, shipped, declined, duplicate), title, body, slug, tags, contact.',
    call: (ops, [postId], body) => ops.updatePost(postId!, body),
  },
  {
    name: 'whoami', title: 'Who am I', operationId: 'whoami', annotations: read,
    description: 'The key in use, its workspace, its scope and what is left of its rate-limit budget.',
    call: (ops) => ops.whoami(),
  },
  {
    name: 'list_webhooks', title: 'List webhooks', operationId: 'listWebhooks', annotations: read,
    description: 'The workspace webhooks (receivers of signed event deliveries), as a page.',
    call: (ops, _ids, q) => ops.listWebhooks(q),
  },
  {
    name: 'get_webhook', title: 'Get a webhook', operationId: 'retrieveWebhook', annotations: read,
    description: 'One webhook: url, subscribed events, whether it is enabled.',
    call: (ops, [webhookId]) => ops.getWebhook(webhookId!),
  },
  {
    name: 'create_webhook', title: 'Create a webhook', operationId: 'createWebhook', annotations: write(false),
    description: 'Register a receiver url (public http or https) for a list of event kinds. Paid plans only. The result carries the signing secret, shown this once.',
    call: (ops, _ids, body) => ops.createWebhook(body),
  },
  {
    name: 'update_webhook', title: 'Update a webhook', operationId: 'updateWebhook', annotations: write(true),
    description: 'Change url, events or description; enabled true re-enables a disabled webhook and resets its failure count.',
    call: (ops, [webhookId], body) => ops.updateWebhook(webhookId!, body),
  },
  {
    name: 'delete_webhook', title: 'Delete a webhook', operationId: 'deleteWebhook', annotations: write(true, true),
    description: 'Delete a webhook with its deliveries and their log.',
    call: (ops, [webhookId]) => ops.deleteWebhook(webhookId!),
  },
  {
    name: 'list_webhook_deliveries', title: "List a webhook's deliveries", operationId: 'listWebhookDeliveries', annotations: read,
    description: 'Deliveries of a webhook, newest first, each with its status and every attempt (status code, error, duration).',
    call: (ops, [webhookId], q) => ops.listWebhookDeliveries(webhookId!, q),
  },
  {
    name: 'replay_webhook_delivery', title: 'Replay a delivery', operationId: 'replayWebhookDelivery', annotations: write(false),
    description: 'Send a past delivery again as a new delivery with the same payload. Refused while the webhook is disabled or no longer subscribes to the event.',
    call: (ops, [webhookId, deliveryId]) => ops.replayWebhookDelivery(webhookId!, deliveryId!),
  },
] satisfies ToolSpec[]).map(fromRoute);

/** The tool's input schema on the snake_case surface: its path ids, then the REST body or query. */
export function toolInputSchema(tool: ToolDefinition): JsonSchema {
  const base = tool.input ? snakeSchema(toJsonSchema(tool.input, 'input')) : { type: 'object', properties: {}, additionalProperties: false };
  const idProperties = Object.fromEntries(tool.ids.map((i) => [i.name, { type: 'string', minLength: 1, description: i.description }]));
  return {
    ...base,
    type: 'object',
    properties: { ...idProperties, ...base.properties },
    required: [...tool.ids.map((i) => i.name), ...(base.required ?? [])],
  };
}

export function toolOutputSchema(tool: ToolDefinition): JsonSchema {
  return snakeSchema(toJsonSchema(tool.output, 'output'));
}
