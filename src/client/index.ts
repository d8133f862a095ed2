// What the client carries of the contract is its wire table (method, path, flags: src/contract/wire.ts, generated from
// the rows); the rows themselves and their schemas are types only here: the client loads no zod and no descriptions.
import { fillPath, pathParams } from '../contract/definition.js';
import type { Operation, OperationId } from '../contract/operations.js';
import type { BodyOf, DataOf, ItemOf, QueryOf, ResponseOf } from '../contract/schemas.js';
import { WIRE } from '../contract/wire.js';
import { WIRE_FLAGS } from '../contract/wire-of.js';
import { type PageResult, pageResult } from './pages.js';
import { type Call, type ClientOptions, type Query, type RequestOptions, Transport } from './transport.js';

export * from './errors.js';
export type { Page, PageResult } from './pages.js';
export type { ClientOptions, RequestOptions } from './transport.js';

/** One operation of the contract: its method and path from the table, the path ids filled in, the input as its body or query. */
function callOf(id: OperationId, ids: readonly string[], input: unknown, opts?: RequestOptions): Call {
  const [method, path, , flags] = WIRE[id];
  const sends = method === 'GET' || method === 'DELETE' ? { query: input as Query } : { body: input ?? {} };
  const idempotent = (flags & WIRE_FLAGS.natural) !== 0;
  return { method, path: fillPath(path, ids), ...sends, options: opts, idempotent };
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

/** The path ids of a path, one string each, in order. */
type PathIds<P extends string> = P extends `${string}:${string}/${infer Rest}`
  ? [string, ...PathIds<Rest>]
  : P extends `${string}:${string}`
    ? [string]
    : [];
/** After the path ids: the body (required) where the operation takes one, else the query (optional), if any. */
type InputArgs<K extends OperationId> =
  Operation<K> extends { body: string }
    ? [body: BodyOf<K>]
    : Operation<K> extends { query: string }
      ? [query?: QueryOf<K>]
      : [];
/** A list's page (awaitable, and iterable across pages), or the `data` of anything else. */
type AnswerOf<K extends OperationId> = Operation<K>['answers'] extends { page: string }
  ? PageResult<ItemOf<K>>
  : Promise<DataOf<K>>;
/** The client's method for an operation: its path ids, then its input, then request options. */
type MethodOf<K extends OperationId> = (
  ...args: [...PathIds<Operation<K>['path']>, ...InputArgs<K>, opts?: RequestOptions]
) => AnswerOf<K>;

type ClientPath<K extends OperationId> = Operation<K>['client'];
type Group = { [K in OperationId]: ClientPath<K> extends `${infer G}.${string}` ? G : never }[OperationId];
/** Every operation's method where its row's `client` puts it: `contacts.identify`, or `whoami` on the client itself. */
type Methods = {
  [G in Group]: { [K in OperationId as ClientPath<K> extends `${G}.${infer M}` ? M : never]: MethodOf<K> };
} & { [K in OperationId as ClientPath<K> extends `${string}.${string}` ? never : ClientPath<K>]: MethodOf<K> };

/** Each operation's method, at the place its row names, answering through `transport`. */
function methodsOf(transport: Transport): Methods {
  const { data, page } = answersOf(transport);
  const methods: Record<string, unknown> = {};
  for (const id of Object.keys(WIRE) as OperationId[]) {
    const [, path, client, flags] = WIRE[id];
    const count = pathParams(path).length;
    const takesInput = (flags & (WIRE_FLAGS.body | WIRE_FLAGS.query)) !== 0;
    const method = (...args: unknown[]) => {
      const ids = args.slice(0, count) as string[];
      const input = takesInput ? args[count] : undefined;
      const opts = args[takesInput ? count + 1 : count] as RequestOptions | undefined;
      return flags & WIRE_FLAGS.page ? page(id, ids, input as Query, opts) : data(id, ids, input, opts);
    };
    const [group, name] = client.split('.') as [string, string | undefined];
    if (name === undefined) methods[group] = method;
    else ((methods[group] ??= {}) as Record<string, unknown>)[name] = method;
  }
  return methods as Methods;
}

/**
 * A typed client for every REST operation, on ky: a method per operation of the contract, where its row's `client`
 * puts it. Path ids come first, then the body (or the optional query), then request options.
 * @example
 * const feedback = createClient({ apiKey: process.env.FEEDBACK_API_KEY!, baseUrl: 'http://127.0.0.1:3000' });
 * const contact = await feedback.contacts.identify({ externalUserId: 'user_42', email: 'ada@example.com' });
 * for await (const c of feedback.contacts.list({ sort: 'mrr' })) console.log(c.email);
 */
export function createClient(options: ClientOptions) {
  const transport = new Transport(options);
  return {
    ...methodsOf(transport),
    /**
     * Any operation by its id (`feedback-service/contract`), with its path ids by name: the answer's body as the
     * server sent it (`{ data }`, or the page of a list). The methods above are the typed way in.
     */
    operation: async <K extends OperationId>(
      id: K,
      args: { params?: Record<string, string>; input?: unknown } = {},
      opts?: RequestOptions,
    ) => {
      const ids = pathParams(WIRE[id][1]).map((name) => args.params?.[name] ?? '');
      return (await transport.request<ResponseOf<K>>(callOf(id, ids, args.input, opts))).data;
    },
  };
}
export type FeedbackClient = ReturnType<typeof createClient>;
