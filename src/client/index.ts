import ky, { type KyInstance } from 'ky';
// The zod-free table itself (not the contract's index, which also holds the schemas): the client loads no zod.
import { OPERATIONS, fillPath, pathParams, type Method, type OperationId } from '../contract/operations.js';
import type { BodyOf, DataOf, ItemOf, QueryOf, ResponseOf } from '../contract/schemas.js';
import {
  AbortError,
  ConnectionError,
  FeedbackApiError,
  InternalServerError,
  RateLimitError,
  TimeoutError,
  toApiError,
} from './errors.js';

export * from './errors.js';

export interface ClientOptions {
  /** A `fsk_...` API key. */
  apiKey: string;
  /** The server, for example `https://feedback.example.com` (without `/v1`). */
  baseUrl: string;
  /** Per-attempt time-out in milliseconds (30,000). */
  timeout?: number;
  /** Retries after the first attempt (2), on 429, 5xx, time-outs and connection errors. */
  maxRetries?: number;
  /** A fetch implementation (the global one by default). */
  fetch?: typeof fetch;
}

/** Options every method takes as its last argument. */
export interface RequestOptions {
  signal?: AbortSignal;
  /** Overrides the client's time-out for this call. */
  timeout?: number;
  /** For POSTs: the key that makes retries safe. The client makes one per call when none is given. */
  idempotencyKey?: string;
  headers?: Record<string, string>;
}

/** One page: `data`, the cursor of the next page, and whether there is one. */
export interface Page<T> {
  data: T[];
  nextCursor: string | null;
  hasMore: boolean;
}

/**
 * A list call: `await` it for one page, or `for await` over it for every item across pages (following
 * `nextCursor` until it is null).
 */
export class PageResult<T> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  #first: Promise<Page<T>> | undefined;
  constructor(private readonly fetchPage: (cursor: string | undefined) => Promise<{ data: T[]; nextCursor: string | null }>, private readonly cursor?: string) {}

  then<R1 = Page<T>, R2 = never>(onfulfilled?: ((value: Page<T>) => R1 | PromiseLike<R1>) | null, onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null): Promise<R1 | R2> {
    this.#first ??= this.fetchPage(this.cursor).then((p) => ({ data: p.data, nextCursor: p.nextCursor, hasMore: p.nextCursor !== null }));
    return this.#first.then(onfulfilled, onrejected);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let cursor = this.cursor;
    do {
      const page = await this.fetchPage(cursor);
      yield* page.data;
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }
}

type Query = Record<string, string | number | boolean | readonly string[] | undefined>;

interface Call {
  method: Method;
  path: string;
  body?: unknown;
  query?: Query;
  options?: RequestOptions;
  /** POSTs that are idempotent by the spec (identify) retry without a key. */
  idempotent?: boolean;
}

const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;
const MAX_RETRY_AFTER_S = 60;

/** Wait between attempts; the caller's signal ends the wait (and its listener goes with the wait). */
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

function searchParams(query: Query | undefined): URLSearchParams | undefined {
  if (!query) return undefined;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    params.set(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  return params;
}

/**
 * A typed client for every REST operation, on ky.
 * @example
 * const feedback = createClient({ apiKey: process.env.FEEDBACK_API_KEY!, baseUrl: 'http://127.0.0.1:3000' });
 * const contact = await feedback.contacts.identify({ externalUserId: 'user_42', email: 'ada@example.com' });
 * for await (const c of feedback.contacts.list({ sort: 'mrr' })) console.log(c.email);
 */
export function createClient(options: ClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, '');
  const maxRetries = options.maxRetries ?? 2;
  const http: KyInstance = ky.create({
    retry: 0,
    throwHttpErrors: false,
    timeout: false,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    headers: { authorization: `Bearer ${options.apiKey}`, accept: 'application/json' },
  });

  /** One attempt: a parsed response, or an error for a request that got none. */
  async function attempt(call: Call, idempotencyKey: string | undefined): Promise<{ status: number; body: unknown; headers: Headers }> {
    const timeoutMs = call.options?.timeout ?? options.timeout ?? 30_000;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = call.options?.signal ? AbortSignal.any([call.options.signal, timeout]) : timeout;
    try {
      const res = await http(`${base}${call.path}`, {
        method: call.method,
        searchParams: searchParams(call.query),
        ...(call.body === undefined ? {} : { json: call.body }),
        headers: { ...call.options?.headers, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
        signal,
      });
      const text = await res.text();
      let body: unknown = undefined;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = undefined;
      }
      return { status: res.status, body, headers: res.headers };
    } catch (err) {
      if (call.options?.signal?.aborted) throw new AbortError('The request was aborted.', { status: null, code: null, requestId: null, cause: err });
      if (timeout.aborted) throw new TimeoutError(`No response within ${timeoutMs} ms.`, { status: null, code: null, requestId: null, cause: err });
      throw new ConnectionError(`Could not reach ${base}: ${(err as Error).message}`, { status: null, code: null, requestId: null, cause: err });
    }
  }

  /**
   * Attempts with retries: 429, 5xx, time-outs and connection errors, with exponential backoff and jitter, or
   * `Retry-After` when the server sends it; never other 4xx. Every method may retry: GET, PATCH and DELETE are
   * idempotent, identify is by the spec, and every other POST carries an Idempotency-Key made once per call.
   */
  async function request<T>(call: Call): Promise<{ status: number; data: T }> {
    // A POST that is not idempotent by itself gets a key made once for the call and sent on every attempt.
    const idempotencyKey =
      call.options?.idempotencyKey ?? (call.method === 'POST' && !call.idempotent ? crypto.randomUUID() : undefined);
    for (let retry = 0; ; retry++) {
      let error: FeedbackApiError;
      try {
        const res = await attempt(call, idempotencyKey);
        if (res.status < 400) return { status: res.status, data: res.body as T };
        error = toApiError(res.status, res.body, res.headers);
      } catch (err) {
        if (!(err instanceof FeedbackApiError)) throw err;
        error = err;
      }
      const retryable =
        error instanceof RateLimitError || error instanceof InternalServerError || error instanceof TimeoutError || error instanceof ConnectionError;
      if (!retryable || retry >= maxRetries) throw error;
      const backoff = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** retry) * (0.75 + Math.random() * 0.5);
      const retryAfter = error instanceof RateLimitError ? error.retryAfter : null;
      await sleep(retryAfter !== null ? Math.min(retryAfter, MAX_RETRY_AFTER_S) * 1000 : backoff, call.options?.signal).catch((reason) => {
        throw new AbortError('The request was aborted.', { status: null, code: null, requestId: null, cause: reason });
      });
    }
  }

  /** One operation of the contract: its method and path from the table, the path ids filled in, the input as its body or query. */
  const callOf = (id: OperationId, ids: readonly string[], input: unknown, opts?: RequestOptions): Call => {
    const operation = OPERATIONS[id];
    return {
      method: operation.method,
      path: fillPath(operation.path, ids),
      ...(operation.method === 'GET' || operation.method === 'DELETE' ? { query: input as Query } : { body: input ?? {} }),
      options: opts,
      idempotent: 'idempotency' in operation && operation.idempotency === 'natural',
    };
  };
  const data = async <K extends OperationId>(id: K, ids: readonly string[], input: unknown, opts?: RequestOptions): Promise<DataOf<K>> =>
    (await request<{ data: DataOf<K> }>(callOf(id, ids, input, opts))).data.data;
  const page = <K extends OperationId>(id: K, ids: readonly string[], query: Query | undefined, opts?: RequestOptions) =>
    new PageResult<ItemOf<K>>(
      async (cursor) => (await request<{ data: ItemOf<K>[]; nextCursor: string | null }>(callOf(id, ids, { ...query, cursor }, opts))).data,
      query?.cursor as string | undefined,
    );

  return {
    contacts: {
      list: (query?: QueryOf<'listContacts'>, opts?: RequestOptions) => page('listContacts', [], query as Query, opts),
      create: (body: BodyOf<'createContact'>, opts?: RequestOptions) => data('createContact', [], body, opts),
      /** Create or update by `externalUserId`; idempotent by the spec, so it retries without a key. */
      identify: (body: BodyOf<'identifyContact'>, opts?: RequestOptions) => data('identifyContact', [], body, opts),
      retrieve: (contactId: string, opts?: RequestOptions) => data('retrieveContact', [contactId], undefined, opts),
      update: (contactId: string, body: BodyOf<'updateContact'>, opts?: RequestOptions) => data('updateContact', [contactId], body, opts),
      delete: (contactId: string, opts?: RequestOptions) => data('deleteContact', [contactId], undefined, opts),
      listPosts: (contactId: string, query?: QueryOf<'listContactPosts'>, opts?: RequestOptions) =>
        page('listContactPosts', [contactId], query as Query, opts),
    },
    boards: {
      list: (query?: QueryOf<'listBoards'>, opts?: RequestOptions) => page('listBoards', [], query as Query, opts),
    },
    posts: {
      create: (boardId: string, body: BodyOf<'createPost'>, opts?: RequestOptions) => data('createPost', [boardId], body, opts),
      update: (postId: string, body: BodyOf<'updatePost'>, opts?: RequestOptions) => data('updatePost', [postId], body, opts),
    },
    webhooks: {
      create: (body: BodyOf<'createWebhook'>, opts?: RequestOptions) => data('createWebhook', [], body, opts),
      list: (query?: QueryOf<'listWebhooks'>, opts?: RequestOptions) => page('listWebhooks', [], query as Query, opts),
      retrieve: (webhookId: string, opts?: RequestOptions) => data('retrieveWebhook', [webhookId], undefined, opts),
      update: (webhookId: string, body: BodyOf<'updateWebhook'>, opts?: RequestOptions) => data('updateWebhook', [webhookId], body, opts),
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
    operation: async <K extends OperationId>(id: K, args: { params?: Record<string, string>; input?: unknown } = {}, opts?: RequestOptions) => {
      const ids = pathParams(OPERATIONS[id].path).map((name) => args.params?.[name] ?? '');
      return (await request<ResponseOf<K>>(callOf(id, ids, args.input, opts))).data;
    },
  };
}
export type FeedbackClient = ReturnType<typeof createClient>;
