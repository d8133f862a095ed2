import { FastResponse } from 'srvx';
import { ERROR_CODES, type ErrorCode } from '../../schemas/errors.js';

/**
 * The headers of one answer, lower-case names: a plain object, not a web `Headers` (which validates every name and
 * value, and which h3 would copy into another one).
 */
export type ResponseHeaders = Record<string, string>;

/**
 * A JSON response with the headers every answer carries. srvx's FastResponse is a `Response` that h3 passes through
 * as it is; on Node it is written to the socket from the plain header object, without a web `Headers` or stream.
 */
export function json(status: number, body: unknown, headers: ResponseHeaders): Response {
  return jsonText(status, JSON.stringify(body), headers);
}

/** The same for a body that is already JSON text (a replayed or cached answer). */
export function jsonText(status: number, text: string, headers: ResponseHeaders): Response {
  headers['content-type'] = 'application/json; charset=utf-8';
  return new FastResponse(text, { status, headers });
}

/** The error envelope: `{ error: { code, message, details? } }` with the code's status. */
export function errorResponse(
  code: ErrorCode,
  message: string | undefined,
  details: Record<string, unknown> | undefined,
  headers: ResponseHeaders,
): Response {
  const error: Record<string, unknown> = { code, message: message ?? ERROR_CODES[code].message };
  if (details !== undefined) error.details = details;
  return json(ERROR_CODES[code].status, { error }, headers);
}

/** A `HEAD` answered as its `GET` is: the same status and headers, without the body. */
export async function answerHead(
  request: Request,
  answer: (get: Request) => Response | Promise<Response>,
): Promise<Response> {
  const response = await answer(new Request(request.url, { method: 'GET', headers: request.headers }));
  return new Response(null, { status: response.status, headers: response.headers });
}
