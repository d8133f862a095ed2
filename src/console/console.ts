import { getRouterParams } from 'h3';
import { CONSOLE_PATH, type Engine } from '../engine/index.js';
import { type AppSite, assetResponse, createSiteRouter, html, htmlResponse, seeOther } from '../h3/index.js';
import { mountChangelog } from './internal/changelog.js';
import { mountCompanies } from './internal/companies.js';
import { mountContacts } from './internal/contacts.js';
import { mountDuplicates } from './internal/duplicates.js';
import { mountIntegrations } from './internal/integrations.js';
import { mountKeys } from './internal/keys.js';
import { message, page, SCRIPT, STYLESHEET, THEME } from './internal/layout.js';
import { mountPost } from './internal/post.js';
import { mountPosts } from './internal/posts.js';
import { mountRoadmap } from './internal/roadmap.js';
import { mountSettings } from './internal/settings.js';
import { mountSignIn } from './internal/sign-in.js';
import {
  CONSOLE_LIMITS,
  type ConsoleLimits,
  ConsoleSite,
  type HostMember,
  type HostMemberOf,
} from './internal/site.js';
import { mountTeam } from './internal/team.js';
import { mountWebhooks } from './internal/webhooks.js';
import { say, sayHtml } from './internal/words.js';

export { CONSOLE_LIMITS, CONSOLE_PATH, type ConsoleLimits, type HostMember, type HostMemberOf };

export interface ConsoleOptions {
  engine: Engine;
  /** Whether a reverse proxy in front is trusted for the client's address and scheme (`X-Forwarded-*`). Off by default. */
  trustProxy?: boolean;
  /** Requests per minute the sign-in takes (override for tests); see CONSOLE_LIMITS. */
  limits?: Partial<ConsoleLimits>;
  /**
   * Embed the console in your own admin, behind your own sign-in: return who the request is from (their workspace,
   * address and role there, as your app decides), or null. The console's own sign-in, sessions and team page are then
   * off; the engine takes the role you give for every action and records the address in the audit log.
   */
  member?: HostMemberOf;
}

/**
 * The team's console under `/console/` (docs/console.md): sign-in with a mailed code, a one-time link or single
 * sign-on (or the host's own sign-in, embedded), the workspaces the person is on, and each workspace's posts, roadmap,
 * changelog, contacts, webhooks, keys, settings, team and audit log. Server-rendered HTML that works without JavaScript; every
 * value escaped by the template; every form carries an anti-forgery token; no site may frame it.
 * @example
 * const app = createApp({ engine, sites: [createPortal({ engine }), createConsole({ engine })] });
 * // Embedded in your own admin, behind your own sign-in:
 * const console = createConsole({ engine, member: async (request) => {
 *   const user = await yourSession(request);
 *   return user?.isAdmin ? { organizationId: user.orgId, email: user.email, role: 'admin' } : null;
 * } });
 */
export function createConsole(options: ConsoleOptions): AppSite {
  const site = new ConsoleSite(
    options.engine,
    options.trustProxy ?? false,
    { ...CONSOLE_LIMITS, ...options.limits },
    options.member ?? null,
  );
  const { router, site: served } = createSiteRouter('console', CONSOLE_PATH, {
    unavailable: () =>
      message(
        { title: say('console.unavailable'), csrf: '' },
        say('console.unavailable'),
        say('console.unavailableText'),
      ),
    error: () =>
      message({ title: say('console.error'), csrf: '' }, say('console.errorHeading'), say('console.errorText')),
  });
  const assets = new Map([STYLESHEET, SCRIPT, THEME].map((a) => [a.name, a]));
  router.get(`${CONSOLE_PATH}/assets/:name`, (event) => {
    const found = assets.get(getRouterParams(event).name ?? '');
    return found
      ? assetResponse(found, event.req.headers.get('accept-encoding'))
      : htmlResponse(404, say('console.notFound'));
  });
  if (!site.embedded) mountSignIn(router, site);
  mountPosts(router, site);
  mountPost(router, site);
  mountDuplicates(router, site);
  mountRoadmap(router, site);
  mountChangelog(router, site);
  mountContacts(router, site);
  mountCompanies(router, site);
  mountWebhooks(router, site);
  mountIntegrations(router, site);
  mountKeys(router, site);
  mountSettings(router, site);
  mountTeam(router, site);
  // The console's home: the one workspace, or a choice of them.
  router.get(`${CONSOLE_PATH}/`, async (event) => {
    const v = await site.visit(event);
    if (!v.identity) return site.signInFirst(v);
    const embedded = site.embedded;
    const { teams, elsewhere, addressProven } = v.identity;
    if (teams.length === 1 && elsewhere.length === 0)
      return seeOther(`${CONSOLE_PATH}/${teams[0]!.organizationId}/posts`, v.cookies);
    // Teams that ask for their own single sign-on, and (for a session that single sign-on alone proved) the way to the others.
    const more = html`${
      elsewhere.length
        ? html`<h2>${say('console.ssoWorkspaces')}</h2><p class="muted">${say('console.ssoWorkspacesText')}</p><ul class="teams">${elsewhere.map(
            (t) =>
              html`<li><a href="${CONSOLE_PATH}/${t.organizationId}/sign-in">${t.workspace}</a> <span class="muted">${t.role}</span></li>`,
          )}</ul>`
        : ''
    }${addressProven || embedded ? '' : html`<p class="muted">${sayHtml('console.ssoOpened', {}, { link: (inside) => html`<a href="${CONSOLE_PATH}/sign-in">${inside}</a>` })}</p>`}`;
    const body =
      teams.length || elsewhere.length
        ? html`<h1>${say('console.yourWorkspaces')}</h1><ul class="teams">${teams.map((t) => html`<li><a href="${CONSOLE_PATH}/${t.organizationId}/posts">${t.workspace}</a> <span class="muted">${t.role}</span></li>`)}</ul>${more}`
        : html`<h1>${say('console.noWorkspace')}</h1><p>${say('console.noWorkspaceText')}</p>${more}`;
    return htmlResponse(200, page({ ...v.frame, title: say('console.workspaces') }, body, { narrow: true }), v.cookies);
  });
  router.get(CONSOLE_PATH, () => seeOther(`${CONSOLE_PATH}/`));
  router.all('/**', async (event) => site.notFound(await site.visit(event)));
  return served;
}
