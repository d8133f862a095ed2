import { OPERATIONS, writes, type OperationId } from '../contract/index.js';
import { textFault } from '../schemas/input.js';
import type { Whoami } from '../schemas/whoami.js';
import type { Engine, Workspace } from './engine.js';
import { FeedbackError } from './errors.js';
import { accessRefusal, type AuthenticatedKey } from './keys.js';

/** Who runs an operation: their workspace, and what `whoami` answers them. */
export interface Caller {
  organizationId: string;
  whoami(): Whoami | Promise<Whoami>;
}

/** An operation's input: its path ids by name, and its body or query. */
export interface OperationRequest {
  params: Record<string, string>;
  input: Record<string, unknown>;
}

/** What an operation answers: the page of a list, or the `data` of anything else; `created` tells 201 from 200. */
export interface OperationResult {
  value: unknown;
  created?: boolean;
}

type Binding = (workspace: Workspace, request: OperationRequest, caller: Caller) => Promise<OperationResult>;
const value = async (pending: Promise<unknown> | unknown): Promise<OperationResult> => ({ value: await pending });

/** Each operation of the contract, bound to the workspace services that do it. */
const BINDINGS: Record<OperationId, Binding> = {
  listContacts: (w, { input }) => value(w.contacts.list(input)),
  createContact: (w, { input }) => value(w.contacts.create(input)),
  identifyContact: async (w, { input }) => {
    const { contact, created } = await w.contacts.identify(input);
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
export async function runOperation(engine: Engine, caller: Caller, id: OperationId, request: OperationRequest): Promise<OperationResult> {
  // A path id that breaks the input rule cannot name anything stored (and PostgreSQL could not even compare it).
  for (const [param, value] of Object.entries(request.params)) {
    if (textFault(value) !== null) throw new FeedbackError('ERR_NOT_FOUND', `No ${param.replace(/Id$/, '')} with id ${value}.`);
  }
  return BINDINGS[id](engine.workspace(caller.organizationId), request, caller);
}

/** Whether a key may run an operation: its scope, then its workspace's billing state on writes. Null when it may. */
export function operationRefusal(key: Pick<AuthenticatedKey, 'scope' | 'billingState'>, id: OperationId): FeedbackError | null {
  const operation = OPERATIONS[id];
  return accessRefusal(key, operation.scope, writes(operation));
}
