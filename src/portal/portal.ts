import { getRouterParams, onResponse } from 'h3';
import { type Engine, PORTAL_PATH, translator } from '../engine/index.js';
import { type AppSite, brandStylesheet, createSiteRouter } from '../h3/index.js';
import { ASSETS, assetResponse, WIDGET } from './internal/assets.js';
import { bareWords } from './internal/languages.js';
import { mountMailPages } from './internal/mail.js';
import { errorPage, unavailablePage } from './internal/message-pages.js';
import { mountParticipation } from './internal/participation.js';
import { mountReading } from './internal/reading.js';
import { cspFor } from './internal/responses.js';
import { PORTAL_LIMITS, type PortalLimits, PortalSite } from './internal/site.js';
import { mountLanguage } from './internal/switcher.js';

export { PORTAL_LIMITS, PORTAL_PATH, type PortalLimits };

export interface PortalOptions {
  engine: Engine;
  /**
   * Whether a reverse proxy in front of the server is trusted for the client's address (`X-Forwarded-For`), scheme
   * (`X-Forwarded-Proto`, for Secure cookies) and host (`X-Forwarded-Host`). Off by default: those headers are the
   * client's to forge when nothing in front sets them.
   */
  trustProxy?: boolean;
  /** Requests per minute (override for tests or busy portals); see PORTAL_LIMITS. */
  limits?: Partial<PortalLimits>;
}

/**
 * The public portal of every workspace that has a handle and turned its portal on: its boards, a board's posts (Top,
 * New, Trending; search; status filter; keyset pages), a post with its comments, the roadmap and the changelog; and
 * taking part: voting, commenting and posting, signed in with a token the workspace's backend mints or with a code
 * mailed to the person's address. Server-rendered HTML that works without JavaScript; every value is escaped by the
 * template (html-template); every form carries an anti-forgery token.
 * @example
 * const app = createApp({ engine, sites: [createPortal({ engine })] });
 */
export function createPortal(options: PortalOptions): AppSite {
  const site = new PortalSite(options.engine, options.trustProxy ?? false, { ...PORTAL_LIMITS, ...options.limits });
  // Failure pages need nothing from the database: the address's or the browser's language.
  const { router, site: served } = createSiteRouter('portal', PORTAL_PATH, {
    unavailable: (event) => unavailablePage(bareWords(event)),
    error: (event) => errorPage(bareWords(event)),
  });
  // A workspace that lets sites frame its portal (the widget), or shows a logo from elsewhere, says so in the policy
  // of every page it answers.
  router.use(
    onResponse((response, event) => {
      const frames = (event.context.frameOrigins as string[] | undefined) ?? [];
      const images = (event.context.imageOrigins as string[] | undefined) ?? [];
      if (frames.length || images.length) response.headers.set('content-security-policy', cspFor(frames, images));
    }),
  );
  // A workspace's accent colour, fitted to each theme: a stylesheet named by the colour (the design's version in its
  // query), so it is cached for good and needs no inline style.
  router.get(`${PORTAL_PATH}/assets/theme/:file`, (event) => {
    const accent = /^([0-9a-f]{6})\.css$/.exec(getRouterParams(event).file ?? '')?.[1];
    if (!accent) return site.notFound(null, translator().t('page.noFile'));
    return new Response(brandStylesheet(`#${accent}`), {
      headers: {
        'content-type': 'text/css; charset=utf-8',
        'cache-control': 'public, max-age=31536000, immutable',
        'x-content-type-options': 'nosniff',
      },
    });
  });
  router.get(`${PORTAL_PATH}/widget.js`, (event) =>
    assetResponse(WIDGET, event.req.headers.get('accept-encoding'), 'public, max-age=300'),
  );
  router.get(`${PORTAL_PATH}/assets/:name`, (event) => {
    const asset = ASSETS.get(getRouterParams(event).name ?? '');
    return asset
      ? assetResponse(asset, event.req.headers.get('accept-encoding'))
      : site.notFound(null, translator().t('page.noFile'));
  });
  mountReading(router, site);
  mountParticipation(router, site);
  mountMailPages(router, site);
  mountLanguage(router, site);
  router.all('/**', (event) => {
    const tr = bareWords(event);
    return site.notFound(null, tr.t('page.noPage'), tr);
  });
  return served;
}
