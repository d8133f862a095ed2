import type { H3Event, Middleware } from 'h3';
import type { OperationId } from '../../contract/index.js';
import { FeedbackError, type Logger, newId } from '../../engine/index.js';
import type { Metrics } from '../metrics.js';
import { type FailureLog, failureResponse } from './failures.js';
import type { RequestScope } from './scope.js';

/** The label a route's requests are logged and measured under: its pattern (or `meta.label`), never the raw path. */
export const routeLabel = (event: H3Event): string => {
  const route = event.context.matchedRoute;
  return (route?.meta?.label as string | undefined) ?? route?.route ?? '(unmatched)';
};

/** The access log line and the request metrics of one answer. */
export function record(
  options: { logger?: Logger; metrics?: Metrics },
  route: string,
  method: string,
  status: number,
  started: number,
  scope: RequestScope,
): void {
  const ms = performance.now() - started;
  options.metrics?.request(route, method, status, ms / 1000);
  options.logger?.info(
    {
      reqId: scope.requestId,
      method,
      route,
      status,
      durationMs: Math.round(ms * 10) / 10,
      keyId: scope.keyId,
      organizationId: scope.organizationId,
    },
    'request',
  );
}

/**
 * Every request's wrapper, as h3 middleware: a request id and `X-Request-Id`, the error envelope whatever a route
 * throws, and one access-log line and metrics sample labelled with the route's pattern (never the raw path, whose ids
 * would be unbounded).
 */
export function observe(options: { logger?: Logger; metrics?: Metrics; log: FailureLog }): Middleware {
  return async (event, next) => {
    const started = performance.now();
    const requestId = newId('req');
    const scope: RequestScope = { requestId, headers: { 'x-request-id': requestId } };
    event.context.scope = scope;
    let response: Response;
    try {
      response = (await next()) as Response;
    } catch (err) {
      response = failureResponse(err, scope.headers, requestId, options.log, event.req as Request);
    }
    if (options.logger || options.metrics)
      record(options, routeLabel(event), event.req.method, response.status, started, scope);
    return response;
  };
}

/** The statuses of an identify the engine refused (validation, the plan's cap, a conflict, no workspace). */
const REFUSED = new Set([402, 404, 409, 422]);

/** `feedback_identify_total` by outcome, as middleware on the identify route: created (201), updated (200), refused. */
function identifyOutcomes(metrics: Metrics): Middleware {
  return async (_event, next) => {
    try {
      const response = (await next()) as Response;
      if (response.headers.get('idempotent-replayed') === 'true') return response;
      if (response.status === 200 || response.status === 201)
        metrics.identify(response.status === 201 ? 'created' : 'updated');
      else if (REFUSED.has(response.status)) metrics.identify('refused');
      return response;
    } catch (err) {
      if (err instanceof FeedbackError && REFUSED.has(err.status)) metrics.identify('refused');
      throw err;
    }
  };
}

/** The middleware of an operation's own route, given the app's metrics: the per-operation slot of the generic handler. */
export const ROUTE_MIDDLEWARE: { readonly [id in OperationId]?: (metrics: Metrics) => Middleware } = {
  identifyContact: identifyOutcomes,
};
