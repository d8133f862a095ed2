// The zod-free table itself (not the contract's index, which also holds the schemas): the client loads no zod.
import { fillPath, OPERATIONS, type OperationId, pathParams } from '../contract/operations.js';
import type { BodyOf, DataOf, ItemOf, QueryOf, ResponseOf } from '../contract/schemas.js';
import { pageResult } from './pages.js';
import { type Call, type ClientOptions, type Query, type RequestOptions, Transport } from './transport.js';

export * from './errors.js';
export type { Page, PageResult } from './pages.js';
export type { ClientOptions, RequestOptions } from './transport.js';

/** One operation of the contract: its method and path from the table, the path ids filled in, the input as its body or query. */
function callOf(id: OperationId, ids: readonly string[], input: unknown, opts?: RequestOptions): Call {
  const operation = OPERATIONS[id];
  const sends =
    operation.method === 'GET' || operation.method === 'DELETE' ? { query: input as Query } : { body: input ?? {} };
  const idempotent = 'idempotency' in operation && operation.idempotency === 'natural';
  return { method: operation.method, path: fillPath(operation.path, ids), ...sends, options: opts, idempotent };
}

/** The two ways an operation answers through `transport`: its `data`, or the pages of a list to walk. */
function answersOf(transport: Transport) {
  return {
    data: async <K extends OperationId>(
      id: K,
      ids: readonly string[],
      input: unknown,
      opts?: RequestOptions,
    ): Promise<DataOf<K>> => (await transport.request<{ data: DataOf<K> }>(callOf(id, ids, input, opts))).data.data,
    page: <K extends OperationId>(id: K, ids: readonly string[], query: Query | undefined, opts?: RequestOptions) =>
      pageResult<ItemOf<K>>(
        async (cursor) => {
          const call = callOf(id, ids, { ...query, cursor }, opts);
          return (await transport.request<{ data: ItemOf<K>[]; nextCursor: string | null }>(call)).data;
        },
        query?.cursor as string | undefined,
      ),
  };
}

/**
 * A typed client for every REST operation, on ky.
 * @example
 * const feedback = createClient({ apiKey: process.env.FEEDBACK_API_KEY!, baseUrl: 'http://127.0.0.1:3000' });
 * const contact = await feedback.contacts.identify({ externalUserId: 'user_42', email: 'ada@example.com' });
 * for await (const c of feedback.contacts.list({ sort: 'mrr' })) console.log(c.email);
 */
export function createClient(options: ClientOptions) {
  const transport = new Transport(options);
  const { data, page } = answersOf(transport);
  return {
    contacts: {
      list: (query?: QueryOf<'listContacts'>, opts?: RequestOptions) => page('listContacts', [], query as Query, opts),
      create: (body: BodyOf<'createContact'>, opts?: RequestOptions) => data('createContact', [], body, opts),
      /** Create or update by `externalUserId`; idempotent by the spec, so it retries without a key. */
      identify: (body: BodyOf<'identifyContact'>, opts?: RequestOptions) => data('identifyContact', [], body, opts),
      retrieve: (contactId: string, opts?: RequestOptions) => data('retrieveContact', [contactId], undefined, opts),
      update: (contactId: string, body: BodyOf<'updateContact'>, opts?: RequestOptions) =>
        data('updateContact', [contactId], body, opts),
      delete: (contactId: string, opts?: RequestOptions) => data('deleteContact', [contactId], undefined, opts),
      listPosts: (contactId: string, query?: QueryOf<'listContactPosts'>, opts?: RequestOptions) =>
        page('listContactPosts', [contactId], query as Query, opts),
    },
    boards: {
      list: (query?: QueryOf<'listBoards'>, opts?: RequestOptions) => page('listBoards', [], query as Query, opts),
    },
    posts: {
      create: (boardId: string, body: BodyOf<'createPost'>, opts?: RequestOptions) =>
        data('createPost', [boardId], body, opts),
      update: (postId: string, body: BodyOf<'updatePost'>, opts?: RequestOptions) =>
        data('updatePost', [postId], body, opts),
    },
    webhooks: {
      create: (body: BodyOf<'createWebhook'>, opts?: RequestOptions) => data('createWebhook', [], body, opts),
      list: (query?: QueryOf<'listWebhooks'>, opts?: RequestOptions) => page('listWebhooks', [], query as Query, opts),
      retrieve: (webhookId: string, opts?: RequestOptions) => data('retrieveWebhook', [webhookId], undefined, opts),
      update: (webhookId: string, body: BodyOf<'updateWebhook'>, opts?: RequestOptions) =>
        data('updateWebhook', [webhookId], body, opts),
      delete: (webhookId: string, opts?: RequestOptions) => data('deleteWebhook', [webhookId], undefined, opts),
      listDeliveries: (webhookId: string, query?: QueryOf<'listWebhookDeliveries'>, opts?: RequestOptions) =>
        page('listWebhookDeliveries', [webhookId], query as Query, opts),
      replayDelivery: (webhookId: string, deliveryId: string, opts?: RequestOptions) =>
        data('replayWebhookDelivery', [webhookId, deliveryId], undefined, opts),
    },
    whoami: (opts?: RequestOptions) => data('whoami', [], undefined, opts),
    /**
     * Any operation by its id (`feedback-service/contract`), with its path ids by name: the answer's body as the
     * server sent it (`{ data }`, or the page of a list). The methods above are the typed way in.
     */
    operation: async <K extends OperationId>(
      id: K,
      args: { params?: Record<string, string>; input?: unknown } = {},
      opts?: RequestOptions,
    ) => {
      const ids = pathParams(OPERATIONS[id].path).map((name) => args.params?.[name] ?? '');
      return (await transport.request<ResponseOf<K>>(callOf(id, ids, args.input, opts))).data;
    },
  };
}
export type FeedbackClient = ReturnType<typeof createClient>;
