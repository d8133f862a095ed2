import { ERROR_CODES, type ErrorCode, type ValidationIssue } from '../schemas/error-codes.js';

/** Every error the client throws. `status` and `code` are null when no response came. */
export class FeedbackApiError extends Error {
  readonly status: number | null;
  readonly code: ErrorCode | null;
  readonly details: Record<string, unknown> | undefined;
  /** The server's `X-Request-Id`, for support. */
  readonly requestId: string | null;

  constructor(message: string, init: { status: number | null; code: ErrorCode | null; details?: Record<string, unknown>; requestId: string | null; cause?: unknown }) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.requestId = init.requestId;
  }
}

/** 401: the key is missing, malformed, unknown or revoked. */
export class AuthenticationError extends FeedbackApiError {}
/** 403: the key's scope is too low (`ERR_SCOPE_INSUFFICIENT`) or the workspace is read-only (`ERR_FORBIDDEN`). */
export class PermissionError extends FeedbackApiError {}
/** 404 */
export class NotFoundError extends FeedbackApiError {}
/** 409 */
export class ConflictError extends FeedbackApiError {}
/** 400, 405, 413: the request itself is malformed. */
export class BadRequestError extends FeedbackApiError {}

/** 402: the plan's cap; `remaining` is what is left of it (`limit - current`, at least 0). */
export class PlanLimitError extends FeedbackApiError {
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
  get issues(): ValidationIssue[] {
    return (this.details?.issues as ValidationIssue[] | undefined) ?? [];
  }
}

/** 429: `retryAfter` is the server's `Retry-After`, in seconds. */
export class RateLimitError extends FeedbackApiError {
  retryAfter: number | null = null;
}

/** 5xx */
export class InternalServerError extends FeedbackApiError {}

/** No response: the connection failed or dropped. */
export class ConnectionError extends FeedbackApiError {}
/** No response within the time-out. */
export class TimeoutError extends FeedbackApiError {}
/** The caller's `signal` aborted the request. */
export class AbortError extends FeedbackApiError {}

const BY_STATUS: Record<number, new (message: string, init: ConstructorParameters<typeof FeedbackApiError>[1]) => FeedbackApiError> = {
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
  const code = typeof envelope?.code === 'string' && envelope.code in ERROR_CODES ? (envelope.code as ErrorCode) : null;
  const message = typeof envelope?.message === 'string' ? envelope.message : `The server answered ${status}.`;
  const details = envelope?.details && typeof envelope.details === 'object' ? (envelope.details as Record<string, unknown>) : undefined;
  const requestId = headers.get('x-request-id') ?? ((details?.requestId as string | undefined) ?? null);
  const ErrorClass = BY_STATUS[status] ?? (status >= 500 ? InternalServerError : FeedbackApiError);
  const error = new ErrorClass(message, { status, code, details, requestId });
  if (error instanceof RateLimitError) error.retryAfter = parseRetryAfter(headers.get('retry-after'));
  return error;
}
