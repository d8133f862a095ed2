import ky, { type KyInstance } from 'ky';
import type { Method } from '../contract/operations.js';
import {
  AbortError,
  ConnectionError,
  FeedbackApiError,
  InternalServerError,
  RateLimitError,
  TimeoutError,
  toApiError,
} from './errors.js';

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

export type Query = Record<string, string | number | boolean | readonly string[] | undefined>;

/** One call of an operation, before its attempts. */
export interface Call {
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
const DEFAULT_TIMEOUT_MS = 30_000;

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

const noResponse = { status: null, code: null, requestId: null } as const;

/** The errors worth another attempt: rate limits, server errors, time-outs and connection errors. */
const retryable = (error: FeedbackApiError) =>
  error instanceof RateLimitError ||
  error instanceof InternalServerError ||
  error instanceof TimeoutError ||
  error instanceof ConnectionError;

/** The client's HTTP: one ky instance with the key, attempts with their time-out, and the retry policy. */
export class Transport {
  readonly #http: KyInstance;
  readonly #base: string;
  readonly #maxRetries: number;
  readonly #timeoutMs: number;

  constructor(options: ClientOptions) {
    this.#base = options.baseUrl.replace(/\/+$/, '');
    this.#maxRetries = options.maxRetries ?? 2;
    this.#timeoutMs = options.timeout ?? DEFAULT_TIMEOUT_MS;
    this.#http = ky.create({
      retry: 0,
      throwHttpErrors: false,
      timeout: false,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      headers: { authorization: `Bearer ${options.apiKey}`, accept: 'application/json' },
    });
  }

  /**
   * Attempts with retries: 429, 5xx, time-outs and connection errors, with exponential backoff and jitter, or
   * `Retry-After` when the server sends it; never other 4xx. Every method may retry: GET, PATCH and DELETE are
   * idempotent, identify is by the spec, and every other POST carries an Idempotency-Key made once per call.
   */
  async request<T>(call: Call): Promise<{ status: number; data: T }> {
    // A POST that is not idempotent by itself gets a key made once for the call and sent on every attempt.
    const idempotencyKey =
      call.options?.idempotencyKey ?? (call.method === 'POST' && !call.idempotent ? crypto.randomUUID() : undefined);
    for (let retry = 0; ; retry++) {
      let error: FeedbackApiError;
      try {
        const res = await this.#attempt(call, idempotencyKey);
        if (res.status < 400) return { status: res.status, data: res.body as T };
        error = toApiError(res.status, res.body, res.headers);
      } catch (err) {
        if (!(err instanceof FeedbackApiError)) throw err;
        error = err;
      }
      if (!retryable(error) || retry >= this.#maxRetries) throw error;
      const backoff = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** retry) * (0.75 + Math.random() * 0.5);
      const retryAfter = error instanceof RateLimitError ? error.retryAfter : null;
      await sleep(
        retryAfter !== null ? Math.min(retryAfter, MAX_RETRY_AFTER_S) * 1000 : backoff,
        call.options?.signal,
      ).catch((reason) => {
        throw new AbortError('The request was aborted.', { ...noResponse, cause: reason });
      });
    }
  }

  /** One attempt: a parsed response, or an error for a request that got none. */
  async #attempt(
    call: Call,
    idempotencyKey: string | undefined,
  ): Promise<{ status: number; body: unknown; headers: Headers }> {
    const timeoutMs = call.options?.timeout ?? this.#timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = call.options?.signal ? AbortSignal.any([call.options.signal, timeout]) : timeout;
    try {
      const res = await this.#http(`${this.#base}${call.path}`, {
        method: call.method,
        searchParams: searchParams(call.query),
        ...(call.body === undefined ? {} : { json: call.body }),
        headers: { ...call.options?.headers, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
        signal,
      });
      const text = await res.text();
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = undefined;
      }
      return { status: res.status, body, headers: res.headers };
    } catch (err) {
      if (call.options?.signal?.aborted)
        throw new AbortError('The request was aborted.', { ...noResponse, cause: err });
      if (timeout.aborted) throw new TimeoutError(`No response within ${timeoutMs} ms.`, { ...noResponse, cause: err });
      throw new ConnectionError(`Could not reach ${this.#base}: ${(err as Error).message}`, {
        ...noResponse,
        cause: err,
      });
    }
  }
}
