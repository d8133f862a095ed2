import { HTTPResponse } from 'h3';
import { ERROR_CODES, type ErrorCode } from '../../schemas/errors.js';

/**
 * A JSON response with the headers every answer carries. h3's HTTPResponse (not the global Response)
 * so that on Node h3 answers with srvx's fast response, written to the socket without a web stream.
 */
export function json(status: number, body: unknown, headers: Headers): HTTPResponse {
  return jsonText(status, JSON.stringify(body), headers);
}

/** The same for a body that is already JSON text (a replayed or cached answer). */
export function jsonText(status: number, text: string, headers: Headers): HTTPResponse {
  headers.set('content-type', 'application/json; charset=utf-8');
  return new HTTPResponse(text, { status, headers });
}

/** The error envelope: `{ error: { code, message, details? } }` with the code's status. */
export function errorResponse(
  code: ErrorCode,
  message: string | undefined,
  details: Record<string, unknown> | undefined,
  headers: Headers,
): HTTPResponse {
  const error: Record<string, unknown> = { code, message: message ?? ERROR_CODES[code].message };
  if (details !== undefined) error.details = details;
  return json(ERROR_CODES[code].status, { error }, headers);
}
