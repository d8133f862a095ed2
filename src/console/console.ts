import { html } from '@remix-run/html-template';
import { getRouterParams } from 'h3';
import { CONSOLE_PATH, type Engine } from '../engine/index.js';
import { assetResponse, createSiteRouter, htmlResponse, seeOther, type AppSite } from '../h3/index.js';
import { SCRIPT, STYLESHEET, message, page } from './internal/layout.js';
import { mountPost } from './internal/post.js';
import { mountPosts } from './internal/posts.js';
import { mountSignIn } from './internal/sign-in.js';
import { mountTeam } from './internal/team.js';
import { CONSOLE_LIMITS, ConsoleSite, type ConsoleLimits } from './internal/site.js';

export { CONSOLE_PATH, CONSOLE_LIMITS, type ConsoleLimits };

export interface ConsoleOptions {
  engine: Engine;
  /** Whether a reverse proxy in front is trusted for the client's address and scheme (`X-Forwarded-*`). Off by default. */
  trustProxy?: boolean;
  /** Requests per minute the sign-in takes (override for tests); see CONSOLE_LIMITS. */
  limits?: Partial<ConsoleLimits>;
}

/**
 * The team's console under `/console/` (docs/console.md): sign-in with a mailed code or a one-time link, the
 * workspaces the person is on, and each workspace's posts. Server-rendered HTML that works without JavaScript; every
 * value escaped by the template; every form carries an anti-forgery token; no site may frame it.
 * @example
 * const app = createApp({ engine, sites: [createPortal({ engine }), createConsole({ engine })] });
 */
export function createConsole(options: ConsoleOptions): AppSite {
  const site = new ConsoleSite(options.engine, options.trustProxy ?? false, { ...CONSOLE_LIMITS, ...options.limits });
  const { router, site: served } = createSiteRouter('console', CONSOLE_PATH, {
    unavailable: () => message({ title: 'Unavailable', csrf: '' }, 'Unavailable', 'The database is unreachable; try again in a moment.'),
    error: () => message({ title: 'Error', csrf: '' }, 'Something went wrong', 'The error is in the server log.'),
  });
  const assets = new Map([STYLESHEET, SCRIPT].map((a) => [a.name, a]));
  router.get(`${CONSOLE_PATH}/assets/:name`, (event) => {
    const found = assets.get(getRouterParams(event).name ?? '');
    return found ? assetResponse(found, event.req.headers.get('accept-encoding')) : htmlResponse(404, 'Not found');
  });
  mountSignIn(router, site);
  mountPosts(router, site);
  mountPost(router, site);
  mountTeam(router, site);
  // The console's home: the one workspace, or a choice of them.
  router.get(`${CONSOLE_PATH}/`, async (event) => {
    const v = await site.visit(event);
    if (!v.identity) return seeOther(`${CONSOLE_PATH}/sign-in`, v.cookies);
    const teams = v.identity.teams;
    if (teams.length === 1) return seeOther(`${CONSOLE_PATH}/${teams[0]!.organizationId}/posts`, v.cookies);
    const body = teams.length
      ? html`<h1>Your workspaces</h1><ul class="teams">${teams.map((t) => html`<li><a href="${CONSOLE_PATH}/${t.organizationId}/posts">${t.workspace}</a> <span class="muted">${t.role}</span></li>`)}</ul>`
      : html`<h1>No workspace</h1><p>You are not on any workspace's team any more. Ask an owner to add you again.</p>`;
    return htmlResponse(200, page({ ...v.frame, title: 'Workspaces' }, body, { narrow: true }), v.cookies);
  });
  router.get(CONSOLE_PATH, () => seeOther(`${CONSOLE_PATH}/`));
  router.all('/**', async (event) => site.notFound(await site.visit(event)));
  return served;
}
