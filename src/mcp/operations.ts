import type { FeedbackClient } from '../client/index.js';
import type { Engine } from '../engine/engine.js';

type Page<T = unknown> = { data: T[]; nextCursor: string | null };
type Input = Record<string, unknown>;

/**
 * The 18 operations behind the agent tools, with REST's camelCase inputs and outputs. The engine satisfies
 * it in-process (one workspace) and the client remotely; the tool layer does not know which.
 */
export interface FeedbackOperations {
  listContacts(query: Input): Promise<Page>;
  getContact(contactId: string): Promise<unknown>;
  createContact(body: Input): Promise<unknown>;
  identifyContact(body: Input): Promise<unknown>;
  updateContact(contactId: string, body: Input): Promise<unknown>;
  deleteContact(contactId: string): Promise<unknown>;
  listContactPosts(contactId: string, query: Input): Promise<Page>;
  listBoards(query: Input): Promise<Page>;
  createPost(boardId: string, body: Input): Promise<unknown>;
  updatePost(postId: string, body: Input): Promise<unknown>;
  whoami(): Promise<unknown>;
  listWebhooks(query: Input): Promise<Page>;
  getWebhook(webhookId: string): Promise<unknown>;
  createWebhook(body: Input): Promise<unknown>;
  updateWebhook(webhookId: string, body: Input): Promise<unknown>;
  deleteWebhook(webhookId: string): Promise<unknown>;
  listWebhookDeliveries(webhookId: string, query: Input): Promise<Page>;
  replayWebhookDelivery(webhookId: string, deliveryId: string): Promise<unknown>;
}

/** The operations of one workspace, in-process: the engine's own validation and errors. */
export function engineOperations(engine: Engine, organizationId: string): FeedbackOperations {
  const w = engine.workspace(organizationId);
  return {
    listContacts: (query) => w.contacts.list(query),
    getContact: (id) => w.contacts.retrieve(id),
    createContact: (body) => w.contacts.create(body),
    identifyContact: async (body) => (await w.contacts.identify(body)).contact,
    updateContact: (id, body) => w.contacts.update(id, body),
    deleteContact: (id) => w.contacts.delete(id),
    listContactPosts: (id, query) => w.posts.listForContact(id, query),
    listBoards: (query) => w.boards.list(query),
    createPost: (boardId, body) => w.posts.create(boardId, body),
    updatePost: (postId, body) => w.posts.update(postId, body),
    // In-process there is no key: the operator acts with full scope, under the workspace's budget.
    async whoami() {
      const org = await engine.organizations.get(organizationId);
      const limit = org?.rateLimit ?? 0;
      const resetAt = new Date(engine.clock().getTime() + 60_000).toISOString();
      return { keyId: 'in-process', organizationId, scope: 'read:write', rateLimit: { limit, remaining: limit, resetAt } };
    },
    listWebhooks: (query) => w.webhooks.list(query),
    getWebhook: (id) => w.webhooks.retrieve(id),
    createWebhook: (body) => w.webhooks.create(body as never),
    updateWebhook: (id, body) => w.webhooks.update(id, body as never),
    deleteWebhook: (id) => w.webhooks.delete(id),
    listWebhookDeliveries: (id, query) => w.webhooks.listDeliveries(id, query),
    replayWebhookDelivery: (webhookId, deliveryId) => w.webhooks.replayDelivery(webhookId, deliveryId),
  };
}

/** The operations of a remote server, through the client: the server's validation and errors. */
export function clientOperations(client: FeedbackClient): FeedbackOperations {
  const page = async (p: PromiseLike<{ data: unknown[]; nextCursor: string | null }>): Promise<Page> => {
    const { data, nextCursor } = await p;
    return { data, nextCursor };
  };
  return {
    listContacts: (query) => page(client.contacts.list(query as never)),
    getContact: (id) => client.contacts.retrieve(id),
    createContact: (body) => client.contacts.create(body as never),
    identifyContact: (body) => client.contacts.identify(body as never),
    updateContact: (id, body) => client.contacts.update(id, body as never),
    deleteContact: (id) => client.contacts.delete(id),
    listContactPosts: (id, query) => page(client.contacts.listPosts(id, query as never)),
    listBoards: (query) => page(client.boards.list(query as never)),
    createPost: (boardId, body) => client.posts.create(boardId, body as never),
    updatePost: (postId, body) => client.posts.update(postId, body as never),
    whoami: () => client.whoami(),
    listWebhooks: (query) => page(client.webhooks.list(query as never)),
    getWebhook: (id) => client.webhooks.retrieve(id),
    createWebhook: (body) => client.webhooks.create(body as never),
    updateWebhook: (id, body) => client.webhooks.update(id, body as never),
    deleteWebhook: (id) => client.webhooks.delete(id),
    listWebhookDeliveries: (id, query) => page(client.webhooks.listDeliveries(id, query as never)),
    replayWebhookDelivery: (webhookId, deliveryId) => client.webhooks.replayDelivery(webhookId, deliveryId),
  };
}
