import type { H3 } from 'h3';

/**
 * Where browsers look for a site's icon (`/favicon.ico`, asked for by every browser on its own) and where the pages
 * link it (`/favicon.svg`): the same icon, a speech bubble, as SVG. A workspace's logo, where it has one, is its
 * portal's icon instead (the pages link it).
 */
export const FAVICON_PATHS = ['/favicon.ico', '/favicon.svg'] as const;

const ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1d4ed8"/>' +
  '<path d="M9 8h14a3 3 0 0 1 3 3v8a3 3 0 0 1-3 3h-7l-6 5v-5H9a3 3 0 0 1-3-3v-8a3 3 0 0 1 3-3z" fill="#fff"/></svg>';

/** The icon at both addresses: a day in caches, and no script or anything else may run in it if opened. */
export function mountFavicon(app: H3): void {
  for (const path of FAVICON_PATHS)
    app.get(
      path,
      () =>
        new Response(ICON, {
          headers: {
            'content-type': 'image/svg+xml',
            'cache-control': 'public, max-age=86400',
            'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
            'x-content-type-options': 'nosniff',
          },
        }),
    );
}
