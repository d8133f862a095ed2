// Server-rendered sites on the app (the portal, the console): their answers, each with the same security headers (no
// inline script or style, nothing from elsewhere, forms only to this site, no framing unless a site allows it), and
// their static assets, compressed once under names that change with their content.
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { H3, type H3Event } from 'h3';
import { isDatabaseUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../engine/index.js';
import type { AppSite } from './app.js';
import { isClientAbort } from './internal/body.js';
import { answerHead } from './internal/respond.js';

/**
 * Every site answer's headers: no inline script or style may run, nothing loads from elsewhere, forms post only
 * here, and no other site may frame the pages.
 */
const csp = (imgOrigins: readonly string[]) =>
  `default-src 'none'; style-src 'self'; img-src 'self' data:${imgOrigins.map((o) => ` ${o}`).join('')}; script-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'`;
/**
 * A page's policy: framed only by the origins given (the portal widget's hosts), else by nobody; images from this site,
 * and from the origins given (a portal's logo).
 */
export const cspFor = (frameOrigins: readonly string[], imgOrigins: readonly string[] = []) =>
  `${csp(imgOrigins)}; frame-ancestors ${frameOrigins.length ? frameOrigins.join(' ') : "'none'"}`;
const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': cspFor([]),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

export function respond(
  status: number,
  body: string | null,
  cookies: readonly string[] = [],
  extra: Record<string, string> = {},
): Response {
  const headers = new Headers({ ...SECURITY_HEADERS, 'cache-control': 'no-cache', ...extra });
  if (body !== null) headers.set('content-type', 'text/html; charset=utf-8');
  for (const c of cookies) headers.append('set-cookie', c);
  if (body === null) return new Response(null, { status, headers });
  // Encoded once, here; the way out (finishSiteAnswer) reads these bytes instead of the response's stream.
  const bytes = Buffer.from(body);
  const response = new Response(bytes as unknown as BodyInit, { status, headers });
  PAGE_BYTES.set(response, bytes);
  return response;
}

/**
 * The bytes of each page `respond` made, so the way out can tag and compress them without reading the body back
 * from its stream (a page of 500 comments is 280 KB: the round trip through the stream cost a third of its time).
 */
const PAGE_BYTES = new WeakMap<Response, Buffer>();
export const htmlResponse = (status: number, body: string, cookies?: readonly string[]) =>
  respond(status, body, cookies);
export const jsonResponse = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { ...SECURITY_HEADERS, 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
/** After a form: go to the page that shows its result (303, so a reload does not send it again). */
export const seeOther = (location: string, cookies?: readonly string[]) =>
  respond(303, null, cookies, { location, 'cache-control': 'no-store' });

/** A static asset, compressed once at start, under a name that changes with its content (so it is cached for a year). */
export interface Asset {
  /** `base.hash.ext`: a new content is a new name, so it is cached for good. */
  name: string;
  /** The content's digest (10 base64url characters). */
  hash: string;
  type: string;
  plain: Buffer;
  gzip: Buffer;
  brotli: Buffer;
}

export function asset(base: string, ext: string, type: string, text: string): Asset {
  const plain = Buffer.from(text);
  const hash = createHash('sha256').update(plain).digest('base64url').slice(0, 10);
  return {
    name: `${base}.${hash}.${ext}`,
    hash,
    type,
    plain,
    gzip: gzipSync(plain, { level: 9 }),
    brotli: brotliCompressSync(plain, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  };
}

/** Whether an Accept-Encoding takes this coding. */
const takes = (acceptEncoding: string | null, coding: string) =>
  new RegExp(`\\b${coding}\\b`).test(acceptEncoding ?? '');

/** The asset's response: brotli or gzip when the client takes it, immutable for a year. */
export function assetResponse(
  a: Asset,
  acceptEncoding: string | null,
  cacheControl = 'public, max-age=31536000, immutable',
): Response {
  const accepts = (coding: string) => takes(acceptEncoding, coding);
  const [body, encoding] = accepts('br') ? [a.brotli, 'br'] : accepts('gzip') ? [a.gzip, 'gzip'] : [a.plain, undefined];
  const headers: Record<string, string> = {
    'content-type': a.type,
    'cache-control': cacheControl,
    vary: 'accept-encoding',
    'x-content-type-options': 'nosniff',
  };
  if (encoding) headers['content-encoding'] = encoding;
  return new Response(body as unknown as BodyInit, { status: 200, headers });
}

/** Pages smaller than this go out as they are: compressing them would save less than it costs. */
const COMPRESS_FROM_BYTES = 1024;

/** The page compressed as the browser takes it: brotli (quality 5: fast, near gzip's best), else gzip, else as it is. */
function compressed(page: Buffer, acceptEncoding: string | null): [Buffer, string | undefined] {
  if (page.length < COMPRESS_FROM_BYTES) return [page, undefined];
  if (takes(acceptEncoding, 'br'))
    return [brotliCompressSync(page, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }), 'br'];
  if (takes(acceptEncoding, 'gzip')) return [gzipSync(page, { level: 6 }), 'gzip'];
  return [page, undefined];
}

/** Whether an If-None-Match names this tag (weakly: the page is the same whatever its compression). */
const hasTag = (ifNoneMatch: string | null, etag: string) =>
  (ifNoneMatch ?? '').split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag.replace(/^W\//, '');
  });

/**
 * What every site answer gets on its way out, in one place for the portal and the console: a `HEAD` is answered as its
 * `GET` without the body (uptime monitors, link checkers); a page (200, HTML) carries a weak `ETag` of its content, is
 * `304` when the browser already has it, and is compressed as the browser takes it.
 */
export async function finishSiteAnswer(
  request: Request,
  answer: (request: Request) => Response | Promise<Response>,
): Promise<Response> {
  if (request.method === 'HEAD') return answerHead(request, (get) => finishSiteAnswer(get, answer));
  const response = await answer(request);
  const page =
    response.status === 200 &&
    !response.headers.has('content-encoding') &&
    (response.headers.get('content-type') ?? '').startsWith('text/html');
  if (!page) return response;
  const html = PAGE_BYTES.get(response) ?? Buffer.from(await response.arrayBuffer());
  const headers = new Headers(response.headers);
  const etag = `W/"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`;
  headers.set('etag', etag);
  headers.set('vary', 'accept-encoding');
  if (hasTag(request.headers.get('if-none-match'), etag)) {
    headers.delete('content-type');
    return new Response(null, { status: 304, headers });
  }
  const [body, encoding] = compressed(html, request.headers.get('accept-encoding'));
  if (encoding) headers.set('content-encoding', encoding);
  headers.set('content-length', String(body.length));
  return new Response(body as unknown as BodyInit, { status: 200, headers });
}

/** The pages a site answers its failures with. */
export interface SitePages {
  /** The database is away (503, with Retry-After); the request, for the page's language. */
  unavailable(event: H3Event): string;
  /** Anything else unexpected (500). */
  error(event: H3Event): string;
}

/**
 * A site's router and the `AppSite` that serves it under `path`. A failure is answered with the site's page and reported
 * once through the app's reporter (not also printed by h3); a database that went away (a restart, a failover, a network
 * fault) is a 503 the browser may retry shortly.
 */
export function createSiteRouter(name: string, path: string, pages: SitePages): { router: H3; site: AppSite } {
  // The app's error reporter, as the first request hands it over (it is the same one every time).
  let report: ((message: string, error: unknown) => void) | undefined;
  let debug: ((message: string) => void) | undefined;
  const router = new H3({
    silent: true,
    onError(error, event) {
      const cause = error.cause ?? error;
      // The client closed the connection before its form arrived: nobody reads the answer; not a failure.
      if (isClientAbort(cause)) {
        debug?.(
          `[feedback-service] ${name}: client abort on ${event.url.pathname}: the client closed the connection mid-request`,
        );
        return htmlResponse(400, pages.error(event));
      }
      if (isDatabaseUnavailable(cause)) {
        report?.(`[feedback-service] ${name}: database unavailable on ${event.url.pathname}`, cause);
        return respond(503, pages.unavailable(event), [], {
          'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS),
          'cache-control': 'no-store',
        });
      }
      report?.(`[feedback-service] ${name} error on ${event.url.pathname}`, cause);
      return htmlResponse(500, pages.error(event));
    },
  });
  const site: AppSite = {
    path,
    async fetch(request, { logError, logDebug }) {
      report = logError;
      debug = logDebug;
      return finishSiteAnswer(request, (r) => router.fetch(r));
    },
  };
  return { router, site };
}
