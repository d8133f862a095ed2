import { ERROR_CODES, type ErrorCode, type ValidationIssue } from '../schemas/error-codes.js';

/** The error codes answered with an HTTP status of `S`. */
export type CodeOfStatus<S extends number> = {
  [K in ErrorCode]: (typeof ERROR_CODES)[K]['status'] extends S ? K : never;
}[ErrorCode];

/**
 * Every error the client throws. `status` and `code` are null when no response came; `code` is null too when the
 * answer had no error envelope of ours (a proxy's 502, say). Each subclass narrows `code` to the codes of its
 * statuses, so `err instanceof NotFoundError` makes `err.code` `'ERR_NOT_FOUND'`.
 */
export class FeedbackApiError extends Error {
  readonly status: number | null;
  readonly code: ErrorCode | null;
  readonly details: Record<string, unknown> | undefined;
  /** The server's `X-Request-Id`, for support. */
  readonly requestId: string | null;

  constructor(
    message: string,
    init: {
      status: number | null;
      code: ErrorCode | null;
      details?: Record<string, unknown>;
      requestId: string | null;
      cause?: unknown;
    },
  ) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.requestId = init.requestId;
  }
}

/** 401: the key is missing, malformed, unknown or revoked. */
export class AuthenticationError extends FeedbackApiError {
  declare readonly code: CodeOfStatus<401>;
}
/** 403: the key's scope is too low (`ERR_SCOPE_INSUFFICIENT`) or the workspace is read-only (`ERR_FORBIDDEN`). */
export class PermissionError extends FeedbackApiError {
  declare readonly code: CodeOfStatus<403>;
}
/** 404 */
export class NotFoundError extends FeedbackApiError {
  declare readonly code: CodeOfStatus<404>;
}
/** 409 */
export class ConflictError extends FeedbackApiError {
  declare readonly code: CodeOfStatus<409>;
}
/** 400, 405, 413: the request itself is malformed. */
export class BadRequestError extends FeedbackApiError {
  declare readonly code: CodeOfStatus<400 | 405 | 413>;
}

/** 402: the plan's cap; `remaining` is what is left of it (`limit - current`, at least 0). */
export class PlanLimitError extends FeedbackApiError {
  declare readonly code: CodeOfStatus<402>;
  get limit(): number | undefined {
    return this.details?.limit as number | undefined;
  }
  get current(): number | undefined {
    return this.details?.current as number | undefined;
  }
  get resource(): string | undefined {
    return this.details?.resource as string | undefined;
  }
  get remaining(): number | undefined {
    return this.limit === undefined || this.current === undefined ? undefined : Math.max(0, this.limit - this.current);
  }
}

/** 422: `issues` lists every field that failed, with its path. */
export class ValidationError extends FeedbackApiError {
  declare readonly code: CodeOfStatus<422>;
  get issues(): ValidationIssue[] {
    return (this.details?.issues as ValidationIssue[] | undefined) ?? [];
  }
}

/** 429: `retryAfter` is the server's `Retry-After`, in seconds. */
export class RateLimitError extends FeedbackApiError {
  declare readonly code: CodeOfStatus<429>;
  retryAfter: number | null = null;
}

/** 5xx; `code` is null when the answer was not ours (a proxy's 502). */
export class InternalServerError extends FeedbackApiError {
  declare readonly code: CodeOfStatus<500 | 503> | null;
}

/** No response: the connection failed or dropped. */
export class ConnectionError extends FeedbackApiError {
  declare readonly status: null;
  declare readonly code: null;
}
/** No response within the time-out. */
export class TimeoutError extends FeedbackApiError {
  declare readonly status: null;
  declare readonly code: null;
}
/** The caller's `signal` aborted the request. */
export class AbortError extends FeedbackApiError {
  declare readonly status: null;
  declare readonly code: null;
}

const BY_STATUS: Record<
  number,
  new (
    message: string,
    init: ConstructorParameters<typeof FeedbackApiError>[1],
  ) => FeedbackApiError
> = {
  400: BadRequestError,
  401: AuthenticationError,
  402: PlanLimitError,
  403: PermissionError,
  404: NotFoundError,
  405: BadRequestError,
  409: ConflictError,
  413: BadRequestError,
  422: ValidationError,
  429: RateLimitError,
};

/** `Retry-After` in seconds (delta-seconds or an HTTP date), or null. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * The one mapping from a failed response to an error: the class by status, the code, message and details from
 * the error envelope (codes are the `schemas` map's), the request id from `X-Request-Id`.
 */
export function toApiError(status: number, body: unknown, headers: Headers): FeedbackApiError {
  const envelope = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null)?.error;
  const sent = typeof envelope?.code === 'string' && envelope.code in ERROR_CODES ? (envelope.code as ErrorCode) : null;
  // A class fixes its codes: an answer without our envelope (a proxy's 404) or with a code of another status is given
  // its status's own code (the first, where a status has several), so the class's narrowed `code` holds; a status of
  // no code of ours (a proxy's 502) has none.
  const own = (Object.keys(ERROR_CODES) as ErrorCode[]).find((c) => ERROR_CODES[c].status === status) ?? null;
  const code = sent !== null && ERROR_CODES[sent].status === status ? sent : own;
  const message = typeof envelope?.message === 'string' ? envelope.message : `The server answered ${status}.`;
  const details =
    envelope?.details && typeof envelope.details === 'object'
      ? (envelope.details as Record<string, unknown>)
      : undefined;
  const requestId = headers.get('x-request-id') ?? (details?.requestId as string | undefined) ?? null;
  const ErrorClass = BY_STATUS[status] ?? (status >= 500 ? InternalServerError : FeedbackApiError);
  const error = new ErrorClass(message, { status, code, details, requestId });
  if (error instanceof RateLimitError) error.retryAfter = parseRetryAfter(headers.get('retry-after'));
  return error;
}
