import {
  type HeadersLike,
  type RawBody,
  signPayloadWith,
  type VerifiedWebhook,
  type VerifyOptions,
  verifyWith,
} from './core.js';
import type { HmacBackend } from './crypto.js';

const encoder = new TextEncoder();

/** Anything with a Node IncomingMessage's shape: headers and an async-iterable body. */
export interface NodeRequestLike extends AsyncIterable<Uint8Array | string> {
  headers: Record<string, string | string[] | undefined>;
}

/** The public functions, bound to one crypto backend (Web Crypto or node:crypto). */
export function createVerifyApi(backend: HmacBackend) {
  /**
   * Verify a delivery from its raw body and headers.
   * @example
   * const { event } = await verifyWebhook(rawBody, request.headers, { secret: process.env.WEBHOOK_SECRET! });
   */
  function verifyWebhook(body: RawBody, headers: HeadersLike, options: VerifyOptions): Promise<VerifiedWebhook> {
    return verifyWith(backend, body, headers, options);
  }

  /**
   * One call for a web `Request` (Cloudflare Workers, Deno, Bun, Next.js route handlers, Hono):
   * reads the raw body itself.
   * @example
   * export async function POST(request: Request) {
   *   const { event } = await verifyRequest(request, { secret: process.env.WEBHOOK_SECRET! });
   * }
   */
  function verifyRequest(request: Request, options: VerifyOptions): Promise<VerifiedWebhook> {
    return verifyWith(backend, request, request.headers, options);
  }

  /**
   * One call for Node's `http.IncomingMessage` whose body has not been consumed by a body parser.
   * @example
   * createServer(async (req, res) => { const { event } = await verifyNodeRequest(req, { secret }); ... })
   */
  async function verifyNodeRequest(
    req: NodeRequestLike,
    options: VerifyOptions & { maxBytes?: number },
  ): Promise<VerifiedWebhook> {
    const max = options.maxBytes ?? 1024 * 1024;
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of req) {
      const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
      size += bytes.length;
      if (size > max) throw new RangeError(`webhook body larger than ${max} bytes`);
      chunks.push(bytes);
    }
    const body = new Uint8Array(size);
    let offset = 0;
    for (const c of chunks) {
      body.set(c, offset);
      offset += c.length;
    }
    return verifyWith(backend, body, req.headers, options);
  }

  /** The `X-Service-Signature` value for a body at a timestamp (unix seconds): what the server sends. */
  function signPayload(
    secret: string,
    body: RawBody,
    timestamp: number = Math.floor(Date.now() / 1000),
  ): Promise<string> {
    return signPayloadWith(backend, secret, body, timestamp);
  }

  return { verifyWebhook, verifyRequest, verifyNodeRequest, signPayload };
}
