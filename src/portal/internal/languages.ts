// Which language a portal page speaks (docs/portal.md, "Languages"), most specific first: the address's `lang` (a
// mail's link, the switcher of a mail's page), the person's own (their contact's, set by identify, a token's `locale`
// claim or their choice here), this browser's choice (a cookie), the browser's `Accept-Language`, the workspace's
// default, English.
import type { H3Event } from 'h3';
import {
  acceptedLanguages,
  DEFAULT_LOCALE,
  isLocale,
  type Locale,
  nearestLocale,
  PORTAL_PATH,
  type Translator,
  translator,
} from '../../engine/index.js';
import { cookie, type RequestFacts, readCookie } from '../../h3/index.js';

/** The cookie that keeps the language chosen in this browser, for every portal and the mail's pages. */
export const LANGUAGE_COOKIE = 'fs_lang';
const A_YEAR = 365 * 86_400;

/** The language asked for in the address (`?lang=de`), if it is one of ours (or near one: `de-AT`). */
export const askedLocale = (event: H3Event): Locale | null => nearestLocale([event.url.searchParams.get('lang')]);

/** The language of a page: what is asked for, then the person's, this browser's, the browser's, the workspace's. */
export function pageLocale(event: H3Event, known: { person?: string | null; workspace?: string | null }): Locale {
  const workspace = isLocale(known.workspace) ? known.workspace : DEFAULT_LOCALE;
  return (
    askedLocale(event) ??
    nearestLocale([known.person]) ??
    nearestLocale([readCookie(event, LANGUAGE_COOKIE)]) ??
    nearestLocale(acceptedLanguages(event.req.headers.get('accept-language'))) ??
    workspace
  );
}

/** The words of a page no workspace frames (no such portal, a failure, a mail link that does not verify). */
export const bareWords = (event: H3Event): Translator => translator(pageLocale(event, {}));

/** The cookie that remembers a language chosen in this browser (a year). */
export const languageCookie = (locale: Locale, facts: RequestFacts): string =>
  cookie(LANGUAGE_COOKIE, locale, { path: PORTAL_PATH, maxAge: A_YEAR, facts });
