import { z } from 'zod';
import type { Scope } from '../schemas/common.js';
import {
  contactDetailSchema,
  contactPageSchema,
  contactSchema,
  createContactBodySchema,
  deletedContactSchema,
  identifyContactBodySchema,
  listContactsQuerySchema,
  updateContactBodySchema,
} from '../schemas/contacts.js';
import { boardPageSchema, createPostBodySchema, pageQuerySchema, postPageSchema, postSchema, updatePostBodySchema } from '../schemas/posts.js';
import {
  createWebhookBodySchema,
  createdWebhookSchema,
  deletedWebhookSchema,
  deliveryPageSchema,
  deliverySchema,
  updateWebhookBodySchema,
  webhookPageSchema,
  webhookSchema,
} from '../schemas/webhooks.js';
import { whoamiSchema } from '../schemas/whoami.js';
import { snakeSchema, type JsonSchema } from './case.js';
import type { FeedbackOperations } from './operations.js';

/** A path id of the REST route, as a tool argument. */
interface IdArgument {
  name: string;
  description: string;
}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  /** The REST operation it mirrors. */
  rest: string;
  scope: Scope;
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: false };
  /** Path ids (snake_case), then the REST body or query schema. */
  ids: IdArgument[];
  input?: z.ZodType;
  output: z.ZodType;
  call(ops: FeedbackOperations, ids: string[], input: Record<string, unknown>): Promise<unknown>;
}

const read = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
const write = (idempotent: boolean, destructive = false) =>
  ({ readOnlyHint: false, destructiveHint: destructive, idempotentHint: idempotent, openWorldHint: false }) as const;
const id = (name: string, what: string): IdArgument => ({ name, description: `The ${what} id.` });

/** The 18 tools, one per REST operation. */
export const TOOLS: readonly ToolDefinition[] = [
  {
    name: 'list_contacts', title: 'List contacts', rest: 'GET /v1/contacts', scope: 'read', annotations: read, ids: [],
    description: 'List the workspace contacts, newest first by default; filter with q (email or name), plan, and sort by created, last_seen or mrr. Returns a page: follow next_cursor for more.',
    input: listContactsQuerySchema, output: contactPageSchema,
    call: (ops, _ids, q) => ops.listContacts(q),
  },
  {
    name: 'get_contact', title: 'Get a contact', rest: 'GET /v1/contacts/{contactId}', scope: 'read', annotations: read, ids: [id('contact_id', 'contact')],
    description: 'One contact by id, with its post count.',
    output: contactDetailSchema,
    call: (ops, [contactId]) => ops.getContact(contactId!),
  },
  {
    name: 'create_contact', title: 'Create a contact', rest: 'POST /v1/contacts', scope: 'read:write', annotations: write(false), ids: [],
    description: 'Create a contact. external_user_id must be new in the workspace (ERR_CONFLICT otherwise); mrr_cents and currency go together. Use identify_contact to create-or-update.',
    input: createContactBodySchema, output: contactSchema,
    call: (ops, _ids, body) => ops.createContact(body),
  },
  {
    name: 'identify_contact', title: 'Identify a contact', rest: 'POST /v1/contacts/identify', scope: 'read:write', annotations: write(true), ids: [],
    description: 'Create or update the contact with this external_user_id (or email), and mark it seen now. Safe to repeat.',
    input: identifyContactBodySchema, output: contactSchema,
    call: (ops, _ids, body) => ops.identifyContact(body),
  },
  {
    name: 'update_contact', title: 'Update a contact', rest: 'PATCH /v1/contacts/{contactId}', scope: 'read:write', annotations: write(true), ids: [id('contact_id', 'contact')],
    description: 'Change some fields of a contact; fields not given keep their values, null clears one.',
    input: updateContactBodySchema, output: contactSchema,
    call: (ops, [contactId], body) => ops.updateContact(contactId!, body),
  },
  {
    name: 'delete_contact', title: 'Delete a contact', rest: 'DELETE /v1/contacts/{contactId}', scope: 'read:write', annotations: write(true, true), ids: [id('contact_id', 'contact')],
    description: 'Delete a contact for good. Its posts stay, without the contact.',
    output: deletedContactSchema,
    call: (ops, [contactId]) => ops.deleteContact(contactId!),
  },
  {
    name: 'list_contact_posts', title: "List a contact's posts", rest: 'GET /v1/contacts/{contactId}/posts', scope: 'read', annotations: read, ids: [id('contact_id', 'contact')],
    description: 'The posts a contact wrote, newest first, as a page.',
    input: pageQuerySchema, output: postPageSchema,
    call: (ops, [contactId], q) => ops.listContactPosts(contactId!, q),
  },
  {
    name: 'list_boards', title: 'List boards', rest: 'GET /v1/boards', scope: 'read', annotations: read, ids: [],
    description: 'The workspace boards, oldest first, as a page. A post is created on a board.',
    input: pageQuerySchema, output: boardPageSchema,
    call: (ops, _ids, q) => ops.listBoards(q),
  },
  {
    name: 'create_post', title: 'Create a post', rest: 'POST /v1/boards/{boardId}/posts', scope: 'read:write', annotations: write(false), ids: [id('board_id', 'board')],
    description: 'Create a post (title, optional body, optional contact_id and at most 3 tag_ids) on a board.',
    input: createPostBodySchema, output: postSchema,
    call: (ops, [boardId], body) => ops.createPost(boardId!, body),
  },
  {
    name: 'update_post', title: 'Update a post', rest: 'PATCH /v1/posts/{postId}', scope: 'read:write', annotations: write(true), ids: [id('post_id', 'post')],
    description: 'Change a post: status (open, under_review, planned, in_progress, shipped, declined, duplicate), title, body, slug, tags, contact.',
    input: updatePostBodySchema, output: postSchema,
    call: (ops, [postId], body) => ops.updatePost(postId!, body),
  },
  {
    name: 'whoami', title: 'Who am I', rest: 'GET /v1/whoami', scope: 'read', annotations: read, ids: [],
    description: 'The key in use, its workspace, its scope and what is left of its rate-limit budget.',
    output: whoamiSchema,
    call: (ops) => ops.whoami(),
  },
  {
    name: 'list_webhooks', title: 'List webhooks', rest: 'GET /v1/webhooks', scope: 'read', annotations: read, ids: [],
    description: 'The workspace webhooks (receivers of signed event deliveries), as a page.',
    input: pageQuerySchema, output: webhookPageSchema,
    call: (ops, _ids, q) => ops.listWebhooks(q),
  },
  {
    name: 'get_webhook', title: 'Get a webhook', rest: 'GET /v1/webhooks/{webhookId}', scope: 'read', annotations: read, ids: [id('webhook_id', 'webhook')],
    description: 'One webhook: url, subscribed events, whether it is enabled.',
    output: webhookSchema,
    call: (ops, [webhookId]) => ops.getWebhook(webhookId!),
  },
  {
    name: 'create_webhook', title: 'Create a webhook', rest: 'POST /v1/webhooks', scope: 'read:write', annotations: write(false), ids: [],
    description: 'Register a receiver url (public http or https) for a list of event kinds. Paid plans only. The result carries the signing secret, shown this once.',
    input: createWebhookBodySchema, output: createdWebhookSchema,
    call: (ops, _ids, body) => ops.createWebhook(body),
  },
  {
    name: 'update_webhook', title: 'Update a webhook', rest: 'PATCH /v1/webhooks/{webhookId}', scope: 'read:write', annotations: write(true), ids: [id('webhook_id', 'webhook')],
    description: 'Change url, events or description; enabled true re-enables a disabled webhook and resets its failure count.',
    input: updateWebhookBodySchema, output: webhookSchema,
    call: (ops, [webhookId], body) => ops.updateWebhook(webhookId!, body),
  },
  {
    name: 'delete_webhook', title: 'Delete a webhook', rest: 'DELETE /v1/webhooks/{webhookId}', scope: 'read:write', annotations: write(true, true), ids: [id('webhook_id', 'webhook')],
    description: 'Delete a webhook with its deliveries and their log.',
    output: deletedWebhookSchema,
    call: (ops, [webhookId]) => ops.deleteWebhook(webhookId!),
  },
  {
    name: 'list_webhook_deliveries', title: "List a webhook's deliveries", rest: 'GET /v1/webhooks/{webhookId}/deliveries', scope: 'read', annotations: read, ids: [id('webhook_id', 'webhook')],
    description: 'Deliveries of a webhook, newest first, each with its status and every attempt (status code, error, duration).',
    input: pageQuerySchema, output: deliveryPageSchema,
    call: (ops, [webhookId], q) => ops.listWebhookDeliveries(webhookId!, q),
  },
  {
    name: 'replay_webhook_delivery', title: 'Replay a delivery', rest: 'POST /v1/webhooks/{webhookId}/deliveries/{deliveryId}/replay', scope: 'read:write', annotations: write(false), ids: [id('webhook_id', 'webhook'), id('delivery_id', 'delivery')],
    description: 'Send a past delivery again as a new delivery with the same payload. Refused while the webhook is disabled or no longer subscribes to the event.',
    output: deliverySchema,
    call: (ops, [webhookId, deliveryId]) => ops.replayWebhookDelivery(webhookId!, deliveryId!),
  },
];

/** JSON Schema of a REST schema (camelCase), without the `$schema` marker. */
export function restJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** The tool's input schema on the snake_case surface: its path ids, then the REST body or query. */
export function toolInputSchema(tool: ToolDefinition): JsonSchema {
  const base = tool.input ? snakeSchema(restJsonSchema(tool.input, 'input')) : { type: 'object', properties: {}, additionalProperties: false };
  const idProperties = Object.fromEntries(tool.ids.map((i) => [i.name, { type: 'string', minLength: 1, description: i.description }]));
  return {
    ...base,
    type: 'object',
    properties: { ...idProperties, ...base.properties },
    required: [...tool.ids.map((i) => i.name), ...(base.required ?? [])],
  };
}

export function toolOutputSchema(tool: ToolDefinition): JsonSchema {
  return snakeSchema(restJsonSchema(tool.output, 'output'));
}
