import { OPERATION_SCHEMAS, OPERATIONS, type OperationId, type OperationSchemas, writes } from '../contract/index.js';
import { textFault } from '../schemas/input.js';
import type { Whoami } from '../schemas/whoami.js';
import { type AuthenticatedKey, accessRefusal, type RateLimitState, rateLimited } from './access/index.js';
import type { Engine } from './engine.js';
import { FeedbackError, unknownKey, validationError } from './shared/index.js';
import type { Workspace } from './workspace.js';

/** Who runs an operation: their workspace, and what `whoami` answers them. */
export interface Caller {
  organizationId: string;
  whoami(): Whoami | Promise<Whoami>;
  /**
   * The request's rate-limit count, still on its way (an operation the contract marks `readsWhileCounting`): the
   * operation may read meanwhile, and writes only once the count allows the request (else it is refused with
   * `rateLimited`).
   */
  counting?: Promise<RateLimitState>;
}

/**
 * An operation's input: its path ids by name, its query parameters and its body. What the operation does not take (a
 * query on an operation without one, any body field or query parameter beyond its schema) is ERR_VALIDATION, here,
 * for REST and the agent tools alike.
 */
export interface OperationRequest {
  params: Record<string, string>;
  query?: Record<string, unknown>;
  body?: Record<string, unknown>;
}

/** What an operation answers: the page of a list, or the `data` of anything else; `created` tells 201 from 200. */
export interface OperationResult {
  value: unknown;
  created?: boolean;
}

/** A gate on an operation's writes: open once the request's count allows it, else the 429 (`rateLimited`). */
const writeGate = (counting: Promise<RateLimitState>) => async () => {
  const state = await counting;
  if (!state.allowed) throw rateLimited(state);
};

const value = async (pending: Promise<unknown> | unknown): Promise<OperationResult> => ({ value: await pending });

/** Each operation of the contract, bound to the workspace services that do it. */
/** The input the bindings get: the body for an operation that takes one, else the query. */
type BoundRequest = { params: Record<string, string>; input: Record<string, unknown> };
type Binding = (workspace: Workspace, request: BoundRequest, caller: Caller) => Promise<OperationResult>;
const BINDINGS: Record<OperationId, Binding> = {
  listContacts: (w, { input }) => value(w.contacts.list(input)),
  createContact: (w, { input }) => value(w.contacts.create(input)),
  identifyContact: async (w, { input }, caller) => {
    const { contact, created } = await w.contacts.identify(input, caller.counting && writeGate(caller.counting));
    return { value: contact, created };
  },
  retrieveContact: (w, { params }) => value(w.contacts.retrieve(params.contactId!)),
  updateContact: (w, { params, input }) => value(w.contacts.update(params.contactId!, input)),
  deleteContact: (w, { params }) => value(w.contacts.delete(params.contactId!)),
  listContactPosts: (w, { params, input }) => value(w.posts.listForContact(params.contactId!, input)),
  listBoards: (w, { input }) => value(w.boards.list(input)),
  createPost: (w, { params, input }) => value(w.posts.create(params.boardId!, input)),
  updatePost: (w, { params, input }) => value(w.posts.update(params.postId!, input)),
  whoami: (_w, _request, caller) => value(caller.whoami()),
  createWebhook: (w, { input }) => value(w.webhooks.create(input as never)),
  listWebhooks: (w, { input }) => value(w.webhooks.list(input)),
  retrieveWebhook: (w, { params }) => value(w.webhooks.retrieve(params.webhookId!)),
  updateWebhook: (w, { params, input }) => value(w.webhooks.update(params.webhookId!, input as never)),
  deleteWebhook: (w, { params }) => value(w.webhooks.delete(params.webhookId!)),
  listWebhookDeliveries: (w, { params, input }) => value(w.webhooks.listDeliveries(params.webhookId!, input)),
  replayWebhookDelivery: (w, { params }) => value(w.webhooks.replayDelivery(params.webhookId!, params.deliveryId!)),
};

/**
 * Run one operation of the contract for a caller, in their workspace: what REST and the in-process agent tools
 * both do once the caller is known and allowed. Refusals are FeedbackErrors (validation, 404, 409, 402).
 */
export async function runOperation(
  engine: Engine,
  caller: Caller,
  id: OperationId,
  request: OperationRequest,
): Promise<OperationResult> {
  // A path id that breaks the input rule cannot name anything stored (and PostgreSQL could not even compare it).
  const schemas: OperationSchemas = OPERATION_SCHEMAS[id];
  const strays = [
    ...(schemas.query ? [] : Object.keys(request.query ?? {})),
    ...(schemas.body ? [] : Object.keys(request.body ?? {})),
  ];
  if (strays.length > 0) throw validationError(strays.map(unknownKey));
  for (const [param, value] of Object.entries(request.params)) {
    if (textFault(value) !== null)
      throw new FeedbackError('ERR_NOT_FOUND', `No ${param.replace(/Id$/, '')} with id ${value}.`);
  }
  const input = (schemas.body ? request.body : request.query) ?? {};
  return BINDINGS[id](engine.workspace(caller.organizationId), { params: request.params, input }, caller);
}

/** Whether a key may run an operation: its scope, then its workspace's billing state on writes. Null when it may. */
export function operationRefusal(
  key: Pick<AuthenticatedKey, 'scope' | 'billingState'>,
  id: OperationId,
): FeedbackError | null {
  const operation = OPERATIONS[id];
  return accessRefusal(key, operation.scope, writes(operation));
}
