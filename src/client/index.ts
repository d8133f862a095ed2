import ky, { type KyInstance } from 'ky';
import type { z } from 'zod';
import type { ListContactsQueryInput, Contact, ContactDetail, ContactListItem, DeletedContact } from '../schemas/contacts.js';
import type { createContactBodySchema, identifyContactBodySchema, updateContactBodySchema } from '../schemas/contacts.js';
import type { Board, Post, PageQueryInput, createPostBodySchema, updatePostBodySchema } from '../schemas/posts.js';
import type { CreateWebhookBody, CreatedWebhook, Delivery, UpdateWebhookBody, Webhook } from '../schemas/webhooks.js';
import type { Whoami } from '../schemas/whoami.js';
import {
  AbortError,
  ConnectionError,
  FeedbackApiError,
  InternalServerError,
  RateLimitError,
  TimeoutError,
  parseRetryAfter,
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
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
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

  const data = async <T>(call: Call): Promise<T> => (await request<{ data: T }>(call)).data.data;
  const page = <T>(path: string, query: Query | undefined, opts?: RequestOptions) =>
    new PageResult<T>(
      async (cursor) => (await request<{ data: T[]; nextCursor: string | null }>({ method: 'GET', path, query: { ...query, cursor }, options: opts })).data,
      query?.cursor as string | undefined,
    );
  const id = (value: string) => encodeURIComponent(value);

  return {
    contacts: {
      list: (query?: ListContactsQueryInput, opts?: RequestOptions) => page<ContactListItem>('/v1/contacts', query as Query, opts),
      create: (body: z.input<typeof createContactBodySchema>, opts?: RequestOptions) =>
        data<Contact>({ method: 'POST', path: '/v1/contacts', body, options: opts }),
      /** Create or update by `externalUserId`; idempotent by the spec, so it retries without a key. */
      identify: (body: z.input<typeof identifyContactBodySchema>, opts?: RequestOptions) =>
        data<Contact>({ method: 'POST', path: '/v1/contacts/identify', body, options: opts, idempotent: true }),
      retrieve: (contactId: string, opts?: RequestOptions) => data<ContactDetail>({ method: 'GET', path: `/v1/contacts/${id(contactId)}`, options: opts }),
      update: (contactId: string, body: z.input<typeof updateContactBodySchema>, opts?: RequestOptions) =>
        data<Contact>({ method: 'PATCH', path: `/v1/contacts/${id(contactId)}`, body, options: opts }),
      delete: (contactId: string, opts?: RequestOptions) =>
        data<DeletedContact>({ method: 'DELETE', path: `/v1/contacts/${id(contactId)}`, options: opts }),
      listPosts: (contactId: string, query?: PageQueryInput, opts?: RequestOptions) =>
        page<Post>(`/v1/contacts/${id(contactId)}/posts`, query as Query, opts),
    },
    boards: {
      list: (query?: PageQueryInput, opts?: RequestOptions) => page<Board>('/v1/boards', query as Query, opts),
    },
    posts: {
      create: (boardId: string, body: z.input<typeof createPostBodySchema>, opts?: RequestOptions) =>
        data<Post>({ method: 'POST', path: `/v1/boards/${id(boardId)}/posts`, body, options: opts }),
      update: (postId: string, body: z.input<typeof updatePostBodySchema>, opts?: RequestOptions) =>
        data<Post>({ method: 'PATCH', path: `/v1/posts/${id(postId)}`, body, options: opts }),
    },
    webhooks: {
      create: (body: CreateWebhookBody, opts?: RequestOptions) => data<CreatedWebhook>({ method: 'POST', path: '/v1/webhooks', body, options: opts }),
      list: (query?: PageQueryInput, opts?: RequestOptions) => page<Webhook>('/v1/webhooks', query as Query, opts),
      retrieve: (webhookId: string, opts?: RequestOptions) => data<Webhook>({ method: 'GET', path: `/v1/webhooks/${id(webhookId)}`, options: opts }),
      update: (webhookId: string, body: UpdateWebhookBody, opts?: RequestOptions) =>
        data<Webhook>({ method: 'PATCH', path: `/v1/webhooks/${id(webhookId)}`, body, options: opts }),
      delete: (webhookId: string, opts?: RequestOptions) =>
        data<{ id: string; deleted: true }>({ method: 'DELETE', path: `/v1/webhooks/${id(webhookId)}`, options: opts }),
      listDeliveries: (webhookId: string, query?: PageQueryInput, opts?: RequestOptions) =>
        page<Delivery>(`/v1/webhooks/${id(webhookId)}/deliveries`, query as Query, opts),
      replayDelivery: (webhookId: string, deliveryId: string, opts?: RequestOptions) =>
        data<Delivery>({ method: 'POST', path: `/v1/webhooks/${id(webhookId)}/deliveries/${id(deliveryId)}/replay`, options: opts }),
    },
    whoami: (opts?: RequestOptions) => data<Whoami>({ method: 'GET', path: '/v1/whoami', options: opts }),
  };
}
export type FeedbackClient = ReturnType<typeof createClient>;
