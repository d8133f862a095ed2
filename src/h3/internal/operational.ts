import { timingSafeEqual } from 'node:crypto';
import type { H3 } from 'h3';
import { type Engine, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../engine/index.js';
import { DOCS_PATH, DOCS_SCRIPT_PATH, docsPage, referenceBundle } from '../docs.js';
import { FAVICON_PATHS } from '../favicon.js';
import { METRICS_PATH, type Metrics } from '../metrics.js';
import { type DocumentedEndpoint, errorResponseDoc, OPENAPI_PATH } from '../openapi.js';
import { bearerToken } from './admit.js';
import { INBOUND_DOC } from './inbound.js';
import { errorResponse, json, jsonText } from './respond.js';
import { scopeOf } from './scope.js';

/** Liveness: answers 200 while the process runs. */
export const HEALTH_PATH = '/healthz';
/** Readiness: 200 when the database answers, migrations are current and (for `serve`) the scheduler runs; else 503. */
export const READY_PATH = '/readyz';

/** Whether a presented token is the expected one, compared in constant time. */
function sameSecret(presented: string | null, expected: string): boolean {
  if (presented === null) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Health for load balancers and probes, no key: the process is up; the process can serve. */
export function mountHealth(app: H3, engine: Engine, requireScheduler: boolean | undefined): void {
  app.get(HEALTH_PATH, (event) =>
    json(200, { status: 'ok' }, { ...scopeOf(event).headers, 'cache-control': 'no-store' }),
  );
  app.get(READY_PATH, async (event) => {
    const { headers } = scopeOf(event);
    headers['cache-control'] = 'no-store';
    const { ready, checks } = await engine.readiness({ requireScheduler });
    if (!ready) headers['retry-after'] = String(UNAVAILABLE_RETRY_AFTER_SECONDS);
    return json(ready ? 200 : 503, { status: ready ? 'ready' : 'not_ready', checks }, headers);
  });
}

/** Prometheus metrics at /metrics, behind their own token when one is set (never an API key). */
export function mountMetrics(app: H3, metrics: Metrics, metricsToken: string | undefined): void {
  app.get(METRICS_PATH, async (event) => {
    const { headers } = scopeOf(event);
    if (metricsToken !== undefined && !sameSecret(bearerToken(event.req as Request), metricsToken)) {
      headers['www-authenticate'] = 'Bearer';
      return errorResponse(
        'ERR_UNAUTHORIZED',
        'Scrapes need Authorization: Bearer <metrics token>.',
        undefined,
        headers,
      );
    }
    headers['content-type'] = metrics.registry.contentType;
    return new Response(await metrics.registry.metrics(), { status: 200, headers });
  });
}

/** The API reference page, no key: the OpenAPI document rendered by Scalar's bundle, served from the package; and the document. */
export function mountReference(app: H3, document: () => string): void {
  app.get(DOCS_PATH, (event) => {
    const { headers } = scopeOf(event);
    headers['content-type'] = 'text/html; charset=utf-8';
    return new Response(docsPage(OPENAPI_PATH), { status: 200, headers });
  });
  app.get(DOCS_SCRIPT_PATH, async (event) => {
    const { headers } = scopeOf(event);
    const asset = await referenceBundle();
    if (!asset) return errorResponse('ERR_NOT_FOUND', 'This build has no API reference bundle.', undefined, headers);
    const gzip = /\bgzip\b/.test(event.req.headers.get('accept-encoding') ?? '');
    headers['content-type'] = 'text/javascript; charset=utf-8';
    headers['cache-control'] = 'public, max-age=86400';
    headers.vary = 'accept-encoding';
    if (gzip) headers['content-encoding'] = 'gzip';
    return new Response((gzip ? asset.gzip : asset.plain) as unknown as BodyInit, { status: 200, headers });
  });
  app.get(OPENAPI_PATH, (event) => jsonText(200, document(), scopeOf(event).headers));
}

/** The operational routes, as the OpenAPI document lists them beside the operations. */
export function operational(withMetrics: boolean): DocumentedEndpoint[] {
  const jsonBody = (description: string) => ({
    description,
    content: { 'application/json': { schema: { type: 'object' } } },
  });
  // Every one needs no key, and answers 400 to a malformed URL and 405 to another method.
  const get = (
    path: string,
    openapi: { operationId: string; summary: string; description: string; responses: Record<string, unknown> },
  ): DocumentedEndpoint => ({
    method: 'GET',
    path,
    openapi: {
      ...openapi,
      tags: ['Operations'],
      security: [],
      responses: { ...openapi.responses, '400': errorResponseDoc(400), '405': errorResponseDoc(405) },
    },
  });
  return [
    get(HEALTH_PATH, {
      operationId: 'health',
      summary: 'Liveness: the process is up',
      description: 'Answers 200 while the process runs, whatever the database: for a liveness probe.',
      responses: { '200': jsonBody('{ status: "ok" }') },
    }),
    get(READY_PATH, {
      operationId: 'ready',
      summary: 'Readiness: the database answers, migrations are current, the scheduler runs',
      description:
        'Answers 200 when this instance can serve requests, 503 with Retry-After and the failing checks when not: for a readiness probe.',
      responses: {
        '200': jsonBody('{ status: "ready", checks }'),
        '503': jsonBody('{ status: "not_ready", checks }, with Retry-After'),
      },
    }),
    get(DOCS_PATH, {
      operationId: 'docs',
      summary: 'This document, rendered (Scalar)',
      description:
        'The API reference as a page for people, rendered from this document in the browser; served by this server, no CDN.',
      responses: { '200': { description: 'An HTML page' } },
    }),
    get(DOCS_SCRIPT_PATH, {
      operationId: 'docsScript',
      summary: "The reference page's script",
      description: "Scalar's standalone bundle, which the reference page loads (gzip when accepted, cached for a day).",
      responses: { '200': { description: 'JavaScript' } },
    }),
    ...FAVICON_PATHS.map((path) =>
      get(path, {
        operationId: path === '/favicon.ico' ? 'favicon' : 'faviconSvg',
        summary: "The site's icon",
        description:
          'A speech bubble, as SVG: where browsers look for an icon on their own (/favicon.ico), and what the pages link (/favicon.svg).',
        responses: {
          '200': { description: 'An SVG image', content: { 'image/svg+xml': { schema: { type: 'string' } } } },
        },
      }),
    ),
    INBOUND_DOC,
    ...(withMetrics
      ? [
          get(METRICS_PATH, {
            operationId: 'metrics',
            summary: 'Prometheus metrics (text exposition format), behind the metrics token when one is set',
            description:
              'Requests, delivery attempts, backlogs and mail, in the Prometheus text format; with a metrics token, send it as a bearer token.',
            responses: {
              '200': {
                description: 'Prometheus text format',
                content: { 'text/plain': { schema: { type: 'string' } } },
              },
              '401': errorResponseDoc(401),
            },
          }),
        ]
      : []),
  ];
}
