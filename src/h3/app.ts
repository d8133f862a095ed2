import { H3, getRouterParams, type H3Event } from 'h3';
import { OPERATIONS, OPERATION_IDS, OPERATION_SCHEMAS, answersPage, type OperationId, type OperationSchemas } from '../contract/index.js';
import { FeedbackError, isDatabaseUnavailable, logErrorLine, newId, operationRefusal, requestFingerprint, runOperation, type Engine } from '../engine/index.js';
import { admit, type Admitted } from './internal/admit.js';
import { readJsonObject, readQuery } from './internal/body.js';
import { idempotent } from './internal/idempotent.js';
import { errorResponse, json, jsonText, type ResponseHeaders } from './internal/respond.js';
import { createOpenApiDocument, OPENAPI_PATH, type DocumentedEndpoint } from './openapi.js';

/**
 * An endpoint served beside the operations, after the same key (401) and rate-limit (429) checks: how faces above
 * h3 (the agent tools at `/mcp`) join the server without h3 importing them.
 */
export interface AppEndpoint extends DocumentedEndpoint {
  method: 'GET' | 'POST';
  /** `logError` is the app's: where the endpoint reports an unexpected failure, with `headers['x-request-id']`. */
  handle(request: Request, admitted: Admitted, headers: ResponseHeaders, logError: (message: string, error: unknown) => void): Promise<Response>;
}

/** Liveness: answers 200 while the process runs. */
export const HEALTH_PATH = '/healthz';
/** Readiness: 200 when the database answers, migrations are current and (for `serve`) the scheduler runs; else 503. */
export const READY_PATH = '/readyz';
const RETRY_AFTER_SECONDS = 2;

export interface AppOptions {
  engine: Engine;
  /** Endpoints served beside the REST operations (`mcpEndpoint(engine)` from `feedback-service/mcp`). */
  endpoints?: readonly AppEndpoint[];
  /** `/readyz` also requires the delivery scheduler to run (what `feedback-service serve` sets). */
  requireScheduler?: boolean;
  /** Where unexpected errors are reported; never receives secrets. Defaults to one line on stderr. */
  logError?: (message: string, error: unknown) => void;
}

/**
 * The REST API as an h3 app: `app.fetch(request)` is a `Request -> Response` function that Node, MSW and tests all
 * call. Its routes are the contract's operations.
 * @example
 * const app = createApp({ engine });
 * const res = await app.fetch(new Request('http://x/v1/whoami', { headers: { authorization: `Bearer ${key}` } }));
 */
export function createApp(options: AppOptions): H3 {
  const { engine } = options;
  const endpoints = options.endpoints ?? [];
  const logError = options.logError ?? logErrorLine;

  /** One operation: key, rate limit, scope and billing, the body, then the engine (idempotently with a key). */
  async function handle(id: OperationId, event: H3Event, headers: ResponseHeaders): Promise<Response> {
    const request = event.req as Request;
    const admitted = await admit(engine, request, headers);
    if (admitted instanceof Response) return admitted;
    const refusal = operationRefusal(admitted.key, id);
    if (refusal) return errorResponse(refusal.code, refusal.message, refusal.details, headers);
    const schemas: OperationSchemas = OPERATION_SCHEMAS[id];
    const body = schemas.body ? await readJsonObject(request) : undefined;
    const params = getRouterParams(event, { decode: true }) as Record<string, string>;
    const run = async () => {
      const { value, created } = await runOperation(engine, admitted.caller, id, { params, input: body ?? readQuery(event.url) });
      const statuses = Object.keys(schemas.responses).map(Number);
      const status = created === undefined ? statuses[0]! : created ? 201 : 200;
      return { status, body: answersPage(id) ? value : { data: value } };
    };
    const idempotencyKey = OPERATIONS[id].method === 'POST' ? request.headers.get('idempotency-key') : null;
    if (idempotencyKey === null) {
      const result = await run();
      return json(result.status, result.body, headers);
    }
    return idempotent(engine, admitted.key.organizationId, idempotencyKey, requestFingerprint(id, event.url.pathname, body ?? {}), run, headers);
  }

  function toErrorResponse(err: unknown, headers: ResponseHeaders, requestId: string, request?: Request): Response {
    if (err instanceof FeedbackError) return errorResponse(err.code, err.message, err.details, headers);
    // The database went away (a restart, a failover): retryable, and it recovers by itself when the database returns.
    if (isDatabaseUnavailable(err)) {
      logError(`[feedback-service] ${requestId} database unavailable`, err);
      headers['retry-after'] = String(RETRY_AFTER_SECONDS);
      return errorResponse('ERR_UNAVAILABLE', undefined, { requestId }, headers);
    }
    // The client went away mid-request: nobody reads this answer, and it is not our failure.
    if (request?.signal?.aborted) return errorResponse('ERR_BAD_REQUEST', 'The client closed the request.', undefined, headers);
    logError(`[feedback-service] ${requestId} unexpected error`, err);
    return errorResponse('ERR_INTERNAL', undefined, { requestId }, headers);
  }

  /** A route that answers with `X-Request-Id`, and with the error envelope whatever it throws. */
  const guarded = (fn: (event: H3Event, headers: ResponseHeaders) => Promise<Response>) => async (event: H3Event) => {
    const requestId = newId('req');
    const headers: ResponseHeaders = { 'x-request-id': requestId };
    try {
      return await fn(event, headers);
    } catch (err) {
      return toErrorResponse(err, headers, requestId, event.req as Request);
    }
  };

  const app = new H3({
    onError: (error) => {
      const requestId = newId('req');
      const headers: ResponseHeaders = { 'x-request-id': requestId };
      if (error.status === 400) return errorResponse('ERR_BAD_REQUEST', 'Malformed request URL.', undefined, headers);
      return toErrorResponse(error.cause ?? error, headers, requestId);
    },
  });

  // Health for load balancers and probes, no key: the process is up; the process can serve.
  app.get(HEALTH_PATH, () => json(200, { status: 'ok' }, { 'x-request-id': newId('req'), 'cache-control': 'no-store' }));
  app.get(READY_PATH, async () => {
    const headers: ResponseHeaders = { 'x-request-id': newId('req'), 'cache-control': 'no-store' };
    const { ready, checks } = await engine.readiness({ requireScheduler: options.requireScheduler });
    if (!ready) headers['retry-after'] = String(RETRY_AFTER_SECONDS);
    return json(ready ? 200 : 503, { status: ready ? 'ready' : 'not_ready', checks }, headers);
  });

  // The OpenAPI document needs no key; it is built once, on first request.
  let openapi: string | undefined;
  app.get(OPENAPI_PATH, () => {
    openapi ??= JSON.stringify(createOpenApiDocument({ version: '1' }, endpoints));
    return jsonText(200, openapi, { 'x-request-id': newId('req') });
  });

  for (const endpoint of endpoints) {
    app.on(
      endpoint.method,
      endpoint.path,
      guarded(async (event, headers) => {
        const request = event.req as Request;
        const admitted = await admit(engine, request, headers);
        return admitted instanceof Response ? admitted : endpoint.handle(request, admitted, headers, logError);
      }),
    );
  }

  for (const id of OPERATION_IDS) app.on(OPERATIONS[id].method, OPERATIONS[id].path, guarded((event, headers) => handle(id, event, headers)));

  const patterns = [...OPERATION_IDS.map((id) => OPERATIONS[id]), { method: 'GET', path: OPENAPI_PATH }, { method: 'GET', path: HEALTH_PATH }, { method: 'GET', path: READY_PATH }, ...endpoints].map((r) => ({
    method: r.method,
    regex: new RegExp(`^${r.path.replace(/:[A-Za-z]+/g, '[^/]+')}/?$`),
  }));
  app.all('/**', (event) => {
    const headers: ResponseHeaders = { 'x-request-id': newId('req') };
    const allowed = [...new Set(patterns.filter((p) => p.regex.test(event.url.pathname)).map((p) => p.method))].join(', ');
    if (allowed) {
      headers.allow = allowed;
      return errorResponse('ERR_METHOD_NOT_ALLOWED', `${event.req.method} is not allowed here; use ${allowed}.`, undefined, headers);
    }
    return errorResponse('ERR_NOT_FOUND', `No route ${event.req.method} ${event.url.pathname}.`, undefined, headers);
  });
  return app;
}
