import type { H3 } from 'h3';
import { nearestLocale, PORTAL_PATH } from '../../engine/index.js';
import { languageCookie } from './languages.js';
import { seeOther } from './responses.js';
import type { PortalSite } from './site.js';

/**
 * The switcher's choice, posted from a portal page: this browser keeps it (a cookie), a signed-in person's contact
 * too (so their mail speaks it), and the page comes back in it. An anti-forgery token, like every form.
 */
export function mountLanguage(router: H3, site: PortalSite): void {
  router.post(`${PORTAL_PATH}/:handle/language`, async (event) => {
    const v = await site.visit(event);
    if (!v) return site.noPortal(event);
    const form = await site.form(event, v);
    if (form instanceof Response) return form;
    const chosen = nearestLocale([form.get('lang')]);
    const wanted = form.get('return') ?? '';
    const back = wanted.startsWith(v.paths.home) && !/[\\]|\/\/|\.\./.test(wanted) ? wanted : v.paths.home;
    if (!chosen) return seeOther(back, v.cookies);
    if (v.viewer) await v.participation.chooseLocale(v.viewer, chosen);
    return seeOther(back, [...v.cookies, languageCookie(chosen, v.facts)]);
  });
}
