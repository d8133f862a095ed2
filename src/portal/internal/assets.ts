import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { PORTAL_JS } from './script.js';
import { PORTAL_CSS } from './styles.js';
import { WIDGET_JS } from './widget.js';

/** A static asset, compressed once at start, under a name that changes with its content (so it is cached for a year). */
export interface Asset {
  name: string;
  type: string;
  plain: Buffer;
  gzip: Buffer;
  brotli: Buffer;
}

function asset(base: string, ext: string, type: string, text: string): Asset {
  const plain = Buffer.from(text);
  const hash = createHash('sha256').update(plain).digest('base64url').slice(0, 10);
  return {
    name: `${base}.${hash}.${ext}`,
    type,
    plain,
    gzip: gzipSync(plain, { level: 9 }),
    brotli: brotliCompressSync(plain, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  };
}

export const STYLESHEET = asset('portal', 'css', 'text/css; charset=utf-8', PORTAL_CSS);
export const SCRIPT = asset('portal', 'js', 'text/javascript; charset=utf-8', PORTAL_JS);
/** The widget host pages load at a fixed address (`/portal/widget.js`), so it is cached for minutes, not a year. */
export const WIDGET = asset('widget', 'js', 'text/javascript; charset=utf-8', WIDGET_JS);
export const ASSETS: ReadonlyMap<string, Asset> = new Map([STYLESHEET, SCRIPT].map((a) => [a.name, a]));

/** The asset's response: brotli or gzip when the client takes it, immutable for a year. */
export function assetResponse(a: Asset, acceptEncoding: string | null, cacheControl = 'public, max-age=31536000, immutable'): Response {
  const accepts = (coding: string) => new RegExp(`\\b${coding}\\b`).test(acceptEncoding ?? '');
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
