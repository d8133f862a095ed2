import { timingSafeEqual } from 'node:crypto';
import { H3, getRouterParams, type H3Event } from 'h3';
import { OPERATIONS, OPERATION_IDS, OPERATION_SCHEMAS, answersPage, type OperationId, type OperationSchemas } from '../contract/index.js';
import { FeedbackError, UNAVAILABLE_RETRY_AFTER_SECONDS, isDatabaseUnavailable, logErrorLine, logToLogger, newId, operationRefusal, requestFingerprint, runOperation, type Engine, type Logger } from '../engine/index.js';
import { admit, bearerToken, type Admitted } from './internal/admit.js';
import { readJsonObject, readQuery } from './internal/body.js';
import { idempotent } from './internal/idempotent.js';
import { errorResponse, json, jsonText, type ResponseHeaders } from './internal/respond.js';
import { DOCS_PATH, DOCS_SCRIPT_PATH, docsPage, referenceBundle } from './docs.js';
import { METRICS_PATH, type Metrics } from './metrics.js';
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

/**
 * A public site served beside the API under its own path, with no key: how the portal (`createPortal` from
 * `feedback-service/portal`) joins the server without h3 importing it. It answers every method under `path`.
 */
export interface AppSite {
  /** Its path prefix, e.g. `/portal`. */
  path: string;
  /** Answer one request under `path`; `logError` is the app's, for unexpected failures. */
  fetch(request: Request, context: { requestId: string; logError: (message: string, error: unknown) => void }): Promise<Response>;
}

/** Liveness: answers 200 while the process runs. */
export const HEALTH_PATH = '/healthz';
/** Readiness: 200 when the database answers, migrations are current and (for `serve`) the scheduler runs; else 503. */
export const READY_PATH = '/readyz';

export interface AppOptions {
  engine: Engine;
  /** Endpoints served beside the REST operations (`mcpEndpoint(engine)` from `feedback-service/mcp`). */
  endpoints?: readonly AppEndpoint[];
  /** Public sites served under their own paths, without a key (`createPortal({ engine })` from `feedback-service/portal`). */
  sites?: readonly AppSite[];
  /** `/readyz` also requires the delivery scheduler to run (what `feedback-service serve` sets). */
  requireScheduler?: boolean;
  /**
   * A structured logger (pino's shape): one `info` line per request (request id, method, route pattern, status,
   * duration, key id and workspace; never a key or a body), and unexpected errors at `error`.
   */
  logger?: Logger;
  /** Where unexpected errors are reported; never receives secrets. Defaults to the logger, else one line on stderr. */
  logError?: (message: string, error: unknown) => void;
  /** Prometheus metrics (`createMetrics()`), served at `/metrics`. */
  metrics?: Metrics;
  /** With metrics: scrapes must send `Authorization: Bearer <metricsToken>` (a key of its own, not an API key). */
  metricsToken?: string;
}

/** What one request carries through the app: its id, its answer's headers, and who it turned out to be. */
interface RequestScope {
  requestId: string;
  headers: ResponseHeaders;
  keyId?: string;
  organizationId?: string;
}

/**
 * The REST API as an h3 app: `app.fetch(request)` is a `Request -> Response` function that Node, MSW and tests all
 * call. Its routes are the contract's operations.
 * @example
 * const app = createApp({ engine });
 * const res = await app.fetch(new Request('http://x/v1/whoami', { headers: { authorization: `Bearer ${key}` } }));
 */
export function createApp(options: AppOptions): H3 {
  const { engine, logger, metrics } = options;
  const endpoints = options.endpoints ?? [];
  const logError = options.logError ?? (logger ? logToLogger(logger) : logErrorLine);
  metrics?.watch(engine);

  /** Key (401) and rate limit (429), noting who the request is for the access log. */
  async function admitted(request: Request, scope: RequestScope): Promise<Admitted | Response> {
    const result = await admit(engine, request, scope.headers);
    if (!(result instanceof Response)) {
      scope.keyId = result.key.keyId;
      scope.organizationId = result.key.organizationId;
    }
    return result;
  }

  /** One operation: key, rate limit, scope and billing, the body, then the engine (idempotently with a key). */
  async function handle(id: OperationId, event: H3Event, scope: RequestScope): Promise<Response> {
    const { headers } = scope;
    const request = event.req as Request;
    const admission = await admitted(request, scope);
    if (admission instanceof Response) return admission;
    const refusal = operationRefusal(admission.key, id);
    if (refusal) return errorResponse(refusal.code, refusal.message, refusal.details, headers);
    const schemas: OperationSchemas = OPERATION_SCHEMAS[id];
    // An operation without a body schema (DELETE, a replay) still reads one that was sent: its fields are ones it does
    // not take (422). A GET's body means nothing in HTTP and is not read.
    const body = schemas.body ? await readJsonObject(request) : request.method === 'GET' ? undefined : await readJsonObject(request, { optional: true });
    const params = getRouterParams(event, { decode: true }) as Record<string, string>;
    const run = async () => {
      let outcome;
      try {
        outcome = await runOperation(engine, admission.caller, id, { params, query: readQuery(event.url), body });
      } catch (err) {
        if (id === 'identifyContact' && err instanceof FeedbackError) metrics?.identify('refused');
        throw err;
      }
      const { value, created } = outcome;
      if (id === 'identifyContact') metrics?.identify(created ? 'created' : 'updated');
      const statuses = Object.keys(schemas.responses).map(Number);
      const status = created === undefined ? statuses[0]! : created ? 201 : 200;
      return { status, body: answersPage(id) ? value : { data: value } };
    };
    const idempotencyKey = OPERATIONS[id].method === 'POST' ? request.headers.get('idempotency-key') : null;
    if (idempotencyKey === null) {
      const result = await run();
      return json(result.status, result.body, headers);
    }
    return idempotent(engine, admission.key.organizationId, idempotencyKey, requestFingerprint(id, event.url.pathname, body ?? {}), run, headers);
  }

  function toErrorResponse(err: unknown, headers: ResponseHeaders, requestId: string, request?: Request): Response {
    if (err instanceof FeedbackError) return errorResponse(err.code, err.message, err.details, headers);
    // The database went away (a restart, a failover): retryable, and it recovers by itself when the database returns.
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

  /** The access log line and the request metrics of one answer. */
  function record(route: string, method: string, status: number, started: number, scope: RequestScope): void {
    const ms = performance.now() - started;
    metrics?.request(route, method, status, ms / 1000);
    logger?.info(
      { reqId: scope.requestId, method, route, status, durationMs: Math.round(ms * 10) / 10, keyId: scope.keyId, organizationId: scope.organizationId },
      'request',
    );
  }

  /**
   * Every route: a request id and `X-Request-Id`, the error envelope whatever it throws, and one access-log line and
   * metrics sample labelled with the route's pattern (never the raw path, whose ids would be unbounded).
   */
  const observed =
    (route: string, fn: (event: H3Event, scope: RequestScope) => Response | Promise<Response>) =>
    async (event: H3Event): Promise<Response> => {
      const started = performance.now();
      const requestId = newId('req');
      const scope: RequestScope = { requestId, headers: { 'x-request-id': requestId } };
      let response: Response;
      try {
        response = await fn(event, scope);
      } catch (err) {
        response = toErrorResponse(err, scope.headers, requestId, event.req as Request);
      }
      if (logger || metrics) record(route, event.req.method, response.status, started, scope);
      return response;
    };

  const app = new H3({
    // Failures are reported once, through logError (the logger): not also printed by h3.
    silent: true,
    onError: (error, event) => {
      const requestId = newId('req');
      const headers: ResponseHeaders = { 'x-request-id': requestId };
      const response =
        error.status === 400 ? errorResponse('ERR_BAD_REQUEST', 'Malformed request URL.', undefined, headers) : toErrorResponse(error.cause ?? error, headers, requestId);
      if (logger || metrics) record('(invalid)', event?.req.method ?? 'GET', response.status, performance.now(), { requestId, headers });
      return response;
    },
  });

  // Health for load balancers and probes, no key: the process is up; the process can serve.
  app.get(HEALTH_PATH, observed(HEALTH_PATH, (_event, { headers }) => json(200, { status: 'ok' }, { ...headers, 'cache-control': 'no-store' })));
  app.get(
    READY_PATH,
    observed(READY_PATH, async (_event, { headers }) => {
      headers['cache-control'] = 'no-store';
      const { ready, checks } = await engine.readiness({ requireScheduler: options.requireScheduler });
      if (!ready) headers['retry-after'] = String(UNAVAILABLE_RETRY_AFTER_SECONDS);
      return json(ready ? 200 : 503, { status: ready ? 'ready' : 'not_ready', checks }, headers);
    }),
  );

  if (metrics) {
    app.get(
      METRICS_PATH,
      observed(METRICS_PATH, async (event, { headers }) => {
        const token = options.metricsToken;
        if (token !== undefined && !sameSecret(bearerToken(event.req as Request), token)) {
          headers['www-authenticate'] = 'Bearer';
          return errorResponse('ERR_UNAUTHORIZED', 'Scrapes need Authorization: Bearer <metrics token>.', undefined, headers);
        }
        headers['content-type'] = metrics.registry.contentType;
        return new Response(await metrics.registry.metrics(), { status: 200, headers });
      }),
    );
  }

  // The API reference page, no key: the OpenAPI document rendered by Scalar's bundle, served from the package.
  app.get(
    DOCS_PATH,
    observed(DOCS_PATH, (_event, { headers }) => {
      headers['content-type'] = 'text/html; charset=utf-8';
      return new Response(docsPage(OPENAPI_PATH), { status: 200, headers });
    }),
  );
  app.get(
    DOCS_SCRIPT_PATH,
    observed(DOCS_SCRIPT_PATH, async (event, { headers }) => {
      const asset = await referenceBundle();
      if (!asset) return errorResponse('ERR_NOT_FOUND', 'This build has no API reference bundle.', undefined, headers);
      const gzip = /\bgzip\b/.test(event.req.headers.get('accept-encoding') ?? '');
      headers['content-type'] = 'text/javascript; charset=utf-8';
      headers['cache-control'] = 'public, max-age=86400';
      headers.vary = 'accept-encoding';
      if (gzip) headers['content-encoding'] = 'gzip';
      return new Response((gzip ? asset.gzip : asset.plain) as unknown as BodyInit, { status: 200, headers });
    }),
  );

  // The OpenAPI document needs no key; it is built once, on first request.
  let openapi: string | undefined;
  app.get(
    OPENAPI_PATH,
    observed(OPENAPI_PATH, (_event, { headers }) => {
      openapi ??= JSON.stringify(createOpenApiDocument({ version: '1' }, [...operational(Boolean(metrics)), ...endpoints]));
      return jsonText(200, openapi, headers);
    }),
  );

  for (const endpoint of endpoints) {
    app.on(
      endpoint.method,
      endpoint.path,
      observed(endpoint.path, async (event, scope) => {
        const request = event.req as Request;
        const admission = await admitted(request, scope);
        return admission instanceof Response ? admission : endpoint.handle(request, admission, scope.headers, logError);
      }),
    );
  }

  for (const site of options.sites ?? []) {
    const serve = observed(`${site.path}/**`, async (event, scope) => {
      const response = await site.fetch(event.req as Request, { requestId: scope.requestId, logError });
      response.headers.set('x-request-id', scope.requestId);
      return response;
    });
    app.all(site.path, serve);
    app.all(`${site.path}/**`, serve);
  }

  for (const id of OPERATION_IDS) app.on(OPERATIONS[id].method, OPERATIONS[id].path, observed(OPERATIONS[id].path, (event, scope) => handle(id, event, scope)));

  const patterns = [
    ...OPERATION_IDS.map((id) => OPERATIONS[id]),
    ...[OPENAPI_PATH, HEALTH_PATH, READY_PATH, DOCS_PATH, DOCS_SCRIPT_PATH, ...(metrics ? [METRICS_PATH] : [])].map((path) => ({ method: 'GET', path })),
    ...endpoints,
  ].map((r) => ({
    method: r.method,
    regex: new RegExp(`^${r.path.replace(/:[A-Za-z]+/g, '[^/]+')}/?$`),
  }));
  app.all(
    '/**',
    observed('(unmatched)', (event, { headers }) => {
      const allowed = [...new Set(patterns.filter((p) => p.regex.test(event.url.pathname)).map((p) => p.method))].join(', ');
      if (allowed) {
        headers.allow = allowed;
        return errorResponse('ERR_METHOD_NOT_ALLOWED', `${event.req.method} is not allowed here; use ${allowed}.`, undefined, headers);
      }
      return errorResponse('ERR_NOT_FOUND', `No route ${event.req.method} ${event.url.pathname}.`, undefined, headers);
    }),
  );
  return app;
}

/** The operational routes, as the OpenAPI document lists them beside the operations. */
function operational(withMetrics: boolean): DocumentedEndpoint[] {
  const jsonBody = (description: string) => ({ description, content: { 'application/json': { schema: { type: 'object' } } } });
  return [
    { method: 'GET', path: HEALTH_PATH, openapi: { operationId: 'health', summary: 'Liveness: the process is up', security: [], responses: { '200': jsonBody('{ status: "ok" }') } } },
    {
      method: 'GET',
      path: READY_PATH,
      openapi: {
        operationId: 'ready',
        summary: 'Readiness: the database answers, migrations are current, the scheduler runs',
        security: [],
        responses: { '200': jsonBody('{ status: "ready", checks }'), '503': jsonBody('{ status: "not_ready", checks }, with Retry-After') },
      },
    },
    {
      method: 'GET',
      path: DOCS_PATH,
      openapi: { operationId: 'docs', summary: 'This document, rendered (Scalar)', security: [], responses: { '200': { description: 'An HTML page' } } },
    },
    {
      method: 'GET',
      path: DOCS_SCRIPT_PATH,
      openapi: { operationId: 'docsScript', summary: "The reference page's script", security: [], responses: { '200': { description: 'JavaScript' } } },
    },
    ...(withMetrics
      ? [
          {
            method: 'GET',
            path: METRICS_PATH,
            openapi: {
              operationId: 'metrics',
              summary: 'Prometheus metrics (text exposition format), behind the metrics token when one is set',
              security: [],
              responses: { '200': { description: 'Prometheus text format', content: { 'text/plain': { schema: { type: 'string' } } } } },
            },
          },
        ]
      : []),
  ];
}

/** Whether a presented token is the expected one, compared in constant time. */
function sameSecret(presented: string | null, expected: string): boolean {
  if (presented === null) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
