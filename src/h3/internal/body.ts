import { FeedbackError } from '../../engine/index.js';

export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Read a JSON object body of at most 1 MiB: 413 when larger, 400 when not a JSON object.
 * Invalid UTF-8 sequences decode to U+FFFD, as common body parsers do.
 */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const text = await readBodyText(request);
  if (text.trim() === '') throw new FeedbackError('ERR_BAD_REQUEST', 'The request body is empty; send a JSON object.');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new FeedbackError('ERR_BAD_REQUEST', `The request body is not valid JSON: ${(err as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new FeedbackError('ERR_BAD_REQUEST', 'The request body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

async function readBodyText(request: Request): Promise<string> {
  const declared = request.headers.get('content-length');
  if (declared !== null) {
    if (!/^\d+$/.test(declared)) throw new FeedbackError('ERR_BAD_REQUEST', 'Content-Length is not a number.');
    if (Number(declared) > MAX_BODY_BYTES) throw new FeedbackError('ERR_PAYLOAD_TOO_LARGE');
    // The declared length bounds what is read; on Node (srvx) text() reads the socket directly, far cheaper
    // than a web stream.
    return request.text();
  }
  // No declared length (chunked): stream with a running limit.
  if (!request.body) return '';
  const reader = request.body.getReader();
  const decoder = new TextDecoder('utf-8');
  let size = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
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
