import { FeedbackError, UNAVAILABLE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../../engine/index.js';
import { errorResponse, type ResponseHeaders } from './respond.js';

/**
 * Whatever a route threw, as the error envelope: a refusal (FeedbackError) with its code; the database gone away (a
 * restart, a failover) as `503 ERR_UNAVAILABLE` with Retry-After, since it recovers by itself; a client that went
 * away as 400; anything else `500 ERR_INTERNAL` with the request id, reported once.
 */
export function failureResponse(err: unknown, headers: ResponseHeaders, requestId: string, logError: (message: string, error: unknown) => void, request?: Request): Response {
  if (err instanceof FeedbackError) return errorResponse(err.code, err.message, err.details, headers);
  if (isDatabaseUnavailable(err)) {
    logError(`[feedback-service] ${requestId} database unavailable`, err);
    headers['retry-after'] = String(UNAVAILABLE_RETRY_AFTER_SECONDS);
    return errorResponse('ERR_UNAVAILABLE', undefined, { requestId }, headers);
  }
  // The client went away mid-request: nobody reads this answer, and it is not our failure.
  if (request?.signal?.aborted) return errorResponse('ERR_BAD_REQUEST', 'The client closed the request.', undefined, headers);
  logError(`[feedback-service] ${requestId} unexpected error`, err);
  return errorResponse('ERR_INTERNAL', undefined, { requestId }, headers);
}
