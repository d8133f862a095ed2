/**
 * Every error code the API answers with, its HTTP status and its default message. The server answers from this
 * map and the client types its errors from it. Plain data: the client and the verifier load it without zod.
 */
export const ERROR_CODES = Object.freeze({
  ERR_BAD_REQUEST: { status: 400, message: 'The request body is not valid JSON or not a JSON object.' },
  ERR_UNAUTHORIZED: { status: 401, message: 'Missing or invalid API key.' },
  ERR_PLAN_LIMIT: { status: 402, message: 'The current plan does not allow this.' },
  ERR_SCOPE_INSUFFICIENT: { status: 403, message: "The API key's scope does not allow this operation." },
  ERR_FORBIDDEN: { status: 403, message: 'The workspace is in read-only billing state.' },
  ERR_NOT_FOUND: { status: 404, message: 'Not found.' },
  ERR_METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed on this route.' },
  ERR_CONFLICT: { status: 409, message: 'Conflict.' },
  ERR_PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is larger than 1 MiB.' },
  ERR_VALIDATION: { status: 422, message: 'The request failed validation.' },
  ERR_RATE_LIMITED: { status: 429, message: 'Rate limit exceeded.' },
  ERR_INTERNAL: { status: 500, message: 'An unexpected error occurred.' },
  ERR_UNAVAILABLE: { status: 503, message: 'The database is unreachable; retry shortly.' },
} as const);

export type ErrorCode = keyof typeof ERROR_CODES;

export const ERROR_CODE_LIST = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

/** HTTP status of an error code. */
export function getErrorStatus(code: ErrorCode): number {
  return ERROR_CODES[code].status;
}

/** One failed check of a request, as `details.issues` of ERR_VALIDATION lists them. */
export interface ValidationIssue {
  path: string;
  code: string;
  message: string;
}
