import { FeedbackError, isDatabaseUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../engine/index.js';
import { isClientAbort } from './body.js';
import { errorResponse, type ResponseHeaders } from './respond.js';

/** Where failures are reported: unexpected ones at error level, a client that went away at debug. */
export interface FailureLog {
  error: (message: string, error: unknown) => void;
  debug: (message: string) => void;
}

/**
 * Whatever a route threw, as the error envelope: a refusal (FeedbackError) with its code; the database gone away (a
 * restart, a failover) as `503 ERR_UNAVAILABLE` with Retry-After, since it recovers by itself; a client that went
 * away as 400; anything else `500 ERR_INTERNAL` with the request id, reported once.
 */
export function failureResponse(
  err: unknown,
  headers: ResponseHeaders,
  requestId: string,
  log: FailureLog,
  request?: Request,
): Response {
  const clientAbort = () => {
    log.debug(`[feedback-service] ${requestId} client abort: the client closed the connection mid-request`);
    return errorResponse('ERR_BAD_REQUEST', 'The client closed the request.', undefined, headers);
  };
  // The client went away mid-request: nobody reads this answer, and it is not our failure (nor the database's).
  if (isClientAbort(err)) return clientAbort();
  if (err instanceof FeedbackError) return errorResponse(err.code, err.message, err.details, headers);
  if (isDatabaseUnavailable(err)) {
    log.error(`[feedback-service] ${requestId} database unavailable`, err);
    headers['retry-after'] = String(UNAVAILABLE_RETRY_AFTER_SECONDS);
    return errorResponse('ERR_UNAVAILABLE', undefined, { requestId }, headers);
  }
  if (request?.signal?.aborted) return clientAbort();
  log.error(`[feedback-service] ${requestId} unexpected error`, err);
  return errorResponse('ERR_INTERNAL', undefined, { requestId }, headers);
}
