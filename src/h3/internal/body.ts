import { FeedbackError } from '../../engine/index.js';

/** The largest JSON body any route reads: REST and the agent tools alike (413 ERR_PAYLOAD_TOO_LARGE past it). */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Read a JSON object body of at most 1 MiB: 413 when larger, 400 when not a JSON object. Invalid UTF-8 sequences
 * decode to U+FFFD, as common body parsers do. `optional`: no body (or an empty one) is undefined instead of 400.
 */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>>;
export async function readJsonObject(
  request: Request,
  options: { optional: true },
): Promise<Record<string, unknown> | undefined>;
export async function readJsonObject(
  request: Request,
  options: { optional?: boolean } = {},
): Promise<Record<string, unknown> | undefined> {
  const text = await readBodyText(request, MAX_BODY_BYTES);
  if (options.optional && text.trim() === '') return undefined;
  const value = parseJson(text);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new FeedbackError('ERR_BAD_REQUEST', 'The request body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

/** Read a JSON body of at most 1 MiB (any JSON value: a JSON-RPC batch is an array): 413 when larger, 400 when not JSON. */
export async function readJson(request: Request): Promise<unknown> {
  return parseJson(await readBodyText(request, MAX_BODY_BYTES));
}

function parseJson(text: string): unknown {
  if (text.trim() === '') throw new FeedbackError('ERR_BAD_REQUEST', 'The request body is empty; send a JSON object.');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new FeedbackError('ERR_BAD_REQUEST', `The request body is not valid JSON: ${(err as Error).message}`);
  }
}

const CLIENT_GONE = Symbol('client gone');

/**
 * The body stopped arriving: the client closed the connection (Node reports `aborted`, with the code ECONNRESET that
 * would otherwise read as the database gone). A 400 nobody reads, not a failure of ours: logged at debug as a client
 * abort, never as an error.
 */
function clientGone(cause: unknown): never {
  throw Object.assign(
    new FeedbackError('ERR_BAD_REQUEST', 'The client closed the connection before the request body arrived.'),
    { cause, [CLIENT_GONE]: true },
  );
}

/** Whether `err` is a client that went away while its body was read (reported at debug, answered 400). */
export function isClientAbort(err: unknown): boolean {
  return typeof err === 'object' && err !== null && CLIENT_GONE in err;
}

/**
 * A request's body as text, reading no more than `maxBytes` whatever the framing: a declared Content-Length over it is
 * refused before anything is read, and a body without one (chunked) is read as a stream with a running count that stops
 * at the limit. Over it: `ERR_PAYLOAD_TOO_LARGE`. Every route that reads a body reads it here.
 */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  const declared = request.headers.get('content-length');
  if (declared !== null) {
    if (!/^\d+$/.test(declared)) throw new FeedbackError('ERR_BAD_REQUEST', 'Content-Length is not a number.');
    if (Number(declared) > maxBytes) throw new FeedbackError('ERR_PAYLOAD_TOO_LARGE');
    // The declared length bounds what is read (Node's parser holds the body to it); on Node (srvx) text() reads the
    // socket directly, far cheaper than a web stream.
    return request.text().catch(clientGone);
  }
  if (!request.body) return '';
  const reader = request.body.getReader();
  const decoder = new TextDecoder('utf-8');
  let size = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read().catch(clientGone);
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new FeedbackError('ERR_PAYLOAD_TOO_LARGE');
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

/** Query parameters as an object: a repeated key becomes an array. */
export function readQuery(url: URL): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of url.searchParams) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}
