import { H3, getRouterParams, type H3Event } from 'h3';
import type { Engine } from '../engine/engine.js';
import { FeedbackError } from '../engine/errors.js';
import { newId } from '../engine/internal/ids.js';
import type { RateLimitState } from '../engine/services/limits.js';
import { accessRefusal, type AuthenticatedKey } from '../engine/services/keys.js';
import { requestFingerprint } from '../engine/services/idempotency.js';
import { readJsonObject, readQuery } from './internal/body.js';
import { errorResponse, json, jsonText, type ResponseHeaders } from './internal/respond.js';
import type { RouteDefinition } from './internal/route.js';
import { createOpenApiDocument, MCP_PATH, OPENAPI_PATH } from './openapi.js';
import { ROUTES } from './routes/index.js';

export { ROUTES };

export interface AppOptions {
  engine: Engine;
  /** Where unexpected errors are reported; never receives secrets. Defaults to console.error. */
  logError?: (message: string, error: unknown) => void;
}

function setRateLimitHeaders(headers: ResponseHeaders, state: RateLimitState, now: number): void {
  headers['ratelimit-limit'] = String(state.limit);
  headers['ratelimit-remaining'] = String(state.remaining);
  headers['ratelimit-reset'] = String(Math.max(0, Math.ceil((state.resetAt - now) / 1000)));
}

function bearerToken(request: Request): string | null {
  const header = request.headers.get('authorization');
  if (!header) return null;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  return match ? match[1]! : null;
}

/**
 * The REST API as an h3 app: `app.fetch(request)` is a `Request -> Response` function that
 * Node, MSW and tests all call.
 * @example
 * const app = createApp({ engine });
 * const res = await app.fetch(new Request('http://x/v1/whoami', { headers: { authorization: `Bearer ${key}` } }));
 */
export function createApp(options: AppOptions): H3 {
  const { engine } = options;
  const logError = options.logError ?? ((message, error) => console.error(message, error));

  /** Key (401), then rate limit (429): what every authenticated request goes through first. */
  async function admit(request: Request, headers: ResponseHeaders): Promise<{ key: AuthenticatedKey; rateLimit: RateLimitState } | Response> {
    const token = bearerToken(request);
    const key = token ? await engine.keys.authenticate(token) : null;
    if (!key) {
      headers['www-authenticate'] = 'Bearer';
      return errorResponse(
        'ERR_UNAUTHORIZED',
        token ? 'The API key is invalid or revoked.' : 'Missing API key: send Authorization: Bearer <API_KEY>.',
        undefined,
        headers,
      );
    }
    const rateLimit = engine.limits.consume(key.keyId, key.rateLimit);
    const now = engine.clock().getTime();
    setRateLimitHeaders(headers, rateLimit, now);
    if (!rateLimit.allowed) {
      headers['retry-after'] = String(Math.max(1, Math.ceil((rateLimit.resetAt - now) / 1000)));
      return errorResponse(
        'ERR_RATE_LIMITED',
        `Rate limit of ${rateLimit.limit} requests per minute exceeded.`,
        { limit: rateLimit.limit, resetAt: new Date(rateLimit.resetAt).toISOString() },
        headers,
      );
    }
    return { key, rateLimit };
  }

  async function handle(route: RouteDefinition, event: H3Event, headers: ResponseHeaders): Promise<Response> {
    const request = event.req as Request;
    const admitted = await admit(request, headers);
    if (admitted instanceof Response) return admitted;
    const { key, rateLimit } = admitted;
    const refusal = accessRefusal(key, route.scope, route.method !== 'GET');
    if (refusal) return errorResponse(refusal.code, refusal.message, refusal.details, headers);
    const body = route.body ? await readJsonObject(request) : {};
    const run = () =>
      route.handler({
        engine,
        key,
        workspace: engine.workspace(key.organizationId),
        rateLimit,
        params: getRouterParams(event, { decode: true }) as Record<string, string>,
        query: readQuery(event.url),
        body,
      });
    const idempotencyKey = route.method === 'POST' ? request.headers.get('idempotency-key') : null;
    if (idempotencyKey === null) {
      const result = await run();
      return json(result.status ?? 200, result.body, headers);
    }
    return idempotent(key.organizationId, idempotencyKey, requestFingerprint('POST', event.url.pathname, body), run, headers);
  }

  /**
   * A POST with an Idempotency-Key: the first request with the key runs and its response (success or refusal)
   * is kept 24 hours; a repeat with the same request gets that response again (`Idempotent-Replayed: true`)
   * without running, a repeat with another request is 409, and a repeat while the first still runs waits for it.
   * An unexpected failure keeps nothing, so a retry runs again.
   */
  async function idempotent(
    organizationId: string,
    idempotencyKey: string,
    fingerprint: string,
    run: () => Promise<{ status?: number; body: unknown }>,
    headers: ResponseHeaders,
  ): Promise<Response> {
    if (!/^[\x21-\x7e]{1,255}$/.test(idempotencyKey))
      return errorResponse('ERR_BAD_REQUEST', 'Idempotency-Key must be 1 to 255 visible ASCII characters.', undefined, headers);
    const decision = await engine.idempotency.begin(organizationId, idempotencyKey, fingerprint);
    if (decision.kind === 'conflict') return errorResponse('ERR_CONFLICT', decision.message, { reason: 'idempotency_key_reused' }, headers);
    if (decision.kind === 'replay') {
      headers['idempotent-replayed'] = 'true';
      return jsonText(decision.status, decision.body, headers);
    }
    let status: number;
    let payload: unknown;
    try {
      const result = await run();
      status = result.status ?? 200;
      payload = result.body;
    } catch (err) {
      if (!(err instanceof FeedbackError) || err.status >= 500) {
        await engine.idempotency.release(organizationId, idempotencyKey).catch(() => {});
        throw err;
      }
      status = err.status;
      payload = { error: err.toJSON() };
    }
    const text = JSON.stringify(payload);
    await engine.idempotency.complete(organizationId, idempotencyKey, status, text);
    return jsonText(status, text, headers);
  }

  function toErrorResponse(err: unknown, headers: ResponseHeaders, requestId: string, request?: Request): Response {
    if (err instanceof FeedbackError) return errorResponse(err.code, err.message, err.details, headers);
    // The client went away mid-request: nobody reads this answer, and it is not our failure.
    if (request?.signal?.aborted) return errorResponse('ERR_BAD_REQUEST', 'The client closed the request.', undefined, headers);
    logError(`[feedback-service] ${requestId} unexpected error`, err);
    return errorResponse('ERR_INTERNAL', undefined, { requestId }, headers);
  }

  const app = new H3({
    onError: (error, event) => {
      const requestId = newId('req');
      const headers: ResponseHeaders = { 'x-request-id': requestId };
      if (error.status === 400) return errorResponse('ERR_BAD_REQUEST', 'Malformed request URL.', undefined, headers);
      return toErrorResponse(error.cause ?? error, headers, requestId);
    },
  });

  // The OpenAPI document needs no key; it is built once, on first request.
  let openapi: string | undefined;
  app.get(OPENAPI_PATH, () => {
    openapi ??= JSON.stringify(createOpenApiDocument(ROUTES, { version: '1' }));
    return jsonText(200, openapi, { 'x-request-id': newId('req') });
  });

  // MCP over Streamable HTTP (stateless: one server per request), with the same keys, rate limits, scopes and
  // billing state as REST. The MCP SDK is an optional peer, loaded on first use.
  app.post(MCP_PATH, async (event) => {
    const requestId = newId('req');
    const headers: ResponseHeaders = { 'x-request-id': requestId };
    const request = event.req as Request;
    try {
      const admitted = await admit(request, headers);
      if (admitted instanceof Response) return admitted;
      const { key } = admitted;
      const [{ createToolServer, engineOperations }, { WebStandardStreamableHTTPServerTransport }] = await Promise.all([
        import('../mcp/index.js'),
        import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
      ]);
      const server = createToolServer(engineOperations(engine, key.organizationId), { scope: key.scope, billingState: key.billingState });
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      const response = await transport.handleRequest(request);
      for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
      return response;
    } catch (err) {
      return toErrorResponse(err, headers, requestId, request);
    }
  });

  for (const route of ROUTES) {
    app.on(route.method, route.path, async (event) => {
      const requestId = newId('req');
      const headers: ResponseHeaders = { 'x-request-id': requestId };
      try {
        return await handle(route, event, headers);
      } catch (err) {
        return toErrorResponse(err, headers, requestId, event.req as Request);
      }
    });
  }

  const patterns = [...ROUTES, { method: 'GET', path: OPENAPI_PATH }, { method: 'POST', path: MCP_PATH }].map((r) => ({
    method: r.method,
    regex: new RegExp(`^${r.path.replace(/:[A-Za-z]+/g, '[^/]+')}/?$`),
  }));
  app.all('/**', (event) => {
    const headers: ResponseHeaders = { 'x-request-id': newId('req') };
    const allowed = patterns.filter((p) => p.regex.test(event.url.pathname)).map((p) => p.method);
    if (allowed.length > 0) {
      headers.allow = [...new Set(allowed)].join(', ');
      return errorResponse('ERR_METHOD_NOT_ALLOWED', `${event.req.method} is not allowed here; use ${[...new Set(allowed)].join(', ')}.`, undefined, headers);
    }
    return errorResponse('ERR_NOT_FOUND', `No route ${event.req.method} ${event.url.pathname}.`, undefined, headers);
  });
  return app;
}
