import { H3, type H3Event } from 'h3';
import { OPERATION_IDS, OPERATIONS } from '../contract/index.js';
import { type Engine, type Logger, logErrorLine, logToLogger, newId } from '../engine/index.js';
import { DOCS_PATH, DOCS_SCRIPT_PATH } from './docs.js';
import { FAVICON_PATHS, mountFavicon } from './favicon.js';
import type { Admitted } from './internal/admit.js';
import { type FailureLog, failureResponse } from './internal/failures.js';
import { INBOUND_PATH, mountInbound } from './internal/inbound.js';
import { observe, record } from './internal/observe.js';
import {
  HEALTH_PATH,
  mountHealth,
  mountMetrics,
  mountReference,
  operational,
  READY_PATH,
} from './internal/operational.js';
import { admitted, mountOperations } from './internal/operations.js';
import { answerHead, errorResponse, type ResponseHeaders } from './internal/respond.js';
import { scopeOf } from './internal/scope.js';
import { METRICS_PATH, type Metrics } from './metrics.js';
import { createOpenApiDocument, type DocumentedEndpoint, OPENAPI_PATH } from './openapi.js';

/**
 * An endpoint served beside the operations, after the same key (401) and rate-limit (429) checks: how faces above
 * h3 (the agent tools at `/mcp`) join the server without h3 importing them.
 */
export interface AppEndpoint extends DocumentedEndpoint {
  method: 'GET' | 'POST';
  /** `logError` is the app's: where the endpoint reports an unexpected failure, with `headers['x-request-id']`. */
  handle(
    request: Request,
    admitted: Admitted,
    headers: ResponseHeaders,
    logError: (message: string, error: unknown) => void,
  ): Promise<Response>;
}

/**
 * A public site served beside the API under its own path, with no key: how the portal (`createPortal` from
 * `feedback-service/portal`) joins the server without h3 importing it. It answers every method under `path`.
 */
export interface AppSite {
  /** Its path prefix, e.g. `/portal`. */
  path: string;
  /** Answer one request under `path`; `logError` is the app's, for unexpected failures. */
  fetch(request: Request, context: SiteContext): Promise<Response>;
}

/** What a site is handed with each request: its id, where unexpected failures go, and where debug lines go. */
export interface SiteContext {
  requestId: string;
  logError: (message: string, error: unknown) => void;
  /** Lines only a debug log keeps (a client that went away mid-request); the logger's `debug`, else nowhere. */
  logDebug?: (message: string) => void;
}

export { HEALTH_PATH, READY_PATH };

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

/** The paths and methods the app answers, for a 405 that says which methods a path takes. */
function routeTable(endpoints: readonly AppEndpoint[], withMetrics: boolean) {
  return [
    ...OPERATION_IDS.map((id) => OPERATIONS[id]),
    ...[
      OPENAPI_PATH,
      HEALTH_PATH,
      READY_PATH,
      DOCS_PATH,
      DOCS_SCRIPT_PATH,
      ...FAVICON_PATHS,
      ...(withMetrics ? [METRICS_PATH] : []),
    ].map((path) => ({ method: 'GET', path })),
    { method: 'POST', path: INBOUND_PATH },
    ...endpoints,
  ].map((r) => ({ method: r.method, regex: new RegExp(`^${r.path.replace(/:[A-Za-z]+/g, '[^/]+')}/?$`) }));
}

/** Endpoints (the agent tools) behind the key and rate limit; sites (the portal) under their path, with no key. */
function mountGuests(app: H3, options: AppOptions, log: FailureLog): void {
  const logError = log.error;
  for (const endpoint of options.endpoints ?? []) {
    app.on(endpoint.method, endpoint.path, async (event) => {
      const scope = scopeOf(event);
      const admission = await admitted(options.engine, event.req as Request, scope);
      return admission instanceof Response
        ? admission
        : endpoint.handle(event.req as Request, admission, scope.headers, logError);
    });
  }
  for (const site of options.sites ?? []) {
    const serve = async (event: H3Event) => {
      const { requestId } = scopeOf(event);
      const response = await site.fetch(event.req as Request, { requestId, logError, logDebug: log.debug });
      response.headers.set('x-request-id', requestId);
      return response;
    };
    const meta = { label: `${site.path}/**` };
    app.all(site.path, serve, { meta });
    app.all(`${site.path}/**`, serve, { meta });
  }
}

/**
 * The REST API as an h3 app: `app.fetch(request)` is a `Request -> Response` function that Node, MSW and tests all
 * call. Its routes are the contract's operations; every request goes through the `observe` middleware (request id,
 * error envelope, access log, metrics).
 * @example
 * const app = createApp({ engine });
 * const res = await app.fetch(new Request('http://x/v1/whoami', { headers: { authorization: `Bearer ${key}` } }));
 */
export function createApp(options: AppOptions): H3 {
  const { engine, logger, metrics } = options;
  const endpoints = options.endpoints ?? [];
  const logError = options.logError ?? (logger ? logToLogger(logger) : logErrorLine);
  const log: FailureLog = {
    error: logError,
    debug: (message) => logger?.debug({}, message.replace(/^\[feedback-service\] /, '')),
  };
  metrics?.watch(engine);
  const app = new H3({
    // Failures are reported once, through logError (the logger): not also printed by h3.
    silent: true,
    // What fails before routing (a malformed URL) still answers in the envelope, logged and measured as `(invalid)`.
    onError: (error, event) => {
      const requestId = newId('req');
      const headers: ResponseHeaders = { 'x-request-id': requestId };
      const response =
        error.status === 400
          ? errorResponse('ERR_BAD_REQUEST', 'Malformed request URL.', undefined, headers)
          : failureResponse(error.cause ?? error, headers, requestId, log);
      if (logger || metrics)
        record({ logger, metrics }, '(invalid)', event?.req.method ?? 'GET', response.status, performance.now(), {
          requestId,
          headers,
        });
      return response;
    },
  });
  app.use(observe({ logger, metrics, log }));
  mountHealth(app, engine, options.requireScheduler);
  if (metrics) mountMetrics(app, metrics, options.metricsToken);
  // The OpenAPI document needs no key; it is built once, on first request.
  let openapi: string | undefined;
  mountReference(
    app,
    () =>
      (openapi ??= JSON.stringify(
        createOpenApiDocument({ version: '1' }, [...operational(Boolean(metrics)), ...endpoints]),
      )),
  );
  mountFavicon(app);
  mountGuests(app, options, log);
  mountInbound(app, engine);
  mountOperations(app, engine, metrics);
  const routes = routeTable(endpoints, Boolean(metrics));
  app.all(
    '/**',
    async (event) => {
      // A HEAD of a GET route is its GET without the body (the sites answer their own: src/h3/pages.ts).
      if (event.req.method === 'HEAD' && routes.some((p) => p.method === 'GET' && p.regex.test(event.url.pathname)))
        return answerHead(event.req as Request, (get) => app.fetch(get));
      const { headers } = scopeOf(event);
      const allowed = [...new Set(routes.filter((p) => p.regex.test(event.url.pathname)).map((p) => p.method))].join(
        ', ',
      );
      if (!allowed)
        return errorResponse(
          'ERR_NOT_FOUND',
          `No route ${event.req.method} ${event.url.pathname}.`,
          undefined,
          headers,
        );
      headers.allow = allowed;
      return errorResponse(
        'ERR_METHOD_NOT_ALLOWED',
        `${event.req.method} is not allowed here; use ${allowed}.`,
        undefined,
        headers,
      );
    },
    { meta: { label: '(unmatched)' } },
  );
  return app;
}
