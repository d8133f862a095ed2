import { getRouterParams, type H3, type H3Event } from 'h3';
import { CONSOLE_PATH, FeedbackError, type SignInFacts } from '../../engine/index.js';
import { htmlResponse, readCookie, respond, seeOther, sessionCookie } from '../../h3/index.js';
import { codePage, continuingPage, emailPage, linkPage, pausedPage } from './sign-in.page.js';
import { CONSOLE_SESSION_COOKIE, type ConsoleSite, type ConsoleVisit } from './site.js';
import { say } from './words.js';

/** A workspace id as it may appear in a path (anything else is not looked up). */
const ORG_ID = /^org_[0-9a-z]{26}$/;

const SSO_COOKIE = 'fs_sso';
const SSO_COOKIE_PATH = `${CONSOLE_PATH}/sso`;

/** A new session: its cookie, a fresh one (never the one the browser came with), and on to `to`. */
function signedIn(
  site: ConsoleSite,
  v: ConsoleVisit,
  session: { token: string; expiresAt: Date },
  to = `${CONSOLE_PATH}/`,
): Response {
  return seeOther(to, [...v.cookies, site.sessionCookie(v, session)]);
}

/** What a sign-in carries: the client's address, and the session the browser has (its proofs carry over). */
const factsOf = (event: H3Event, v: ConsoleVisit): SignInFacts => ({
  ip: v.facts.ip,
  previous: readCookie(event, CONSOLE_SESSION_COOKIE) ?? null,
});

/** A sign-in form from the console's own pages within the client address's budget; else the page that says why not. */
async function signInForm(
  site: ConsoleSite,
  event: H3Event,
): Promise<{ v: ConsoleVisit; form: URLSearchParams } | Response> {
  const v = await site.visit(event);
  const form = await site.form(event, v);
  if (form instanceof Response) return form;
  return (await site.overLimit(v, `ip:${v.facts.ip}`, site.limits.signInsPerIp)) ?? { v, form };
}

/** Start single sign-on from the shared page or a workspace's own: a page that moves on to the provider. */
async function startSso(site: ConsoleSite, event: H3Event, organizationId: string | null): Promise<Response> {
  const posted = await signInForm(site, event);
  if (posted instanceof Response) return posted;
  const { v, form } = posted;
  const email = (form.get('email') ?? '').trim();
  const again = (status: number, error: string) =>
    htmlResponse(status, emailPage(v.frame, { error, email, organizationId: organizationId ?? undefined }), v.cookies);
  if (organizationId !== null && !ORG_ID.test(organizationId)) return again(422, say('console.signIn.noSso'));
  try {
    const started = await site.engine.team.startSso({ email, organizationId }, event.url.origin);
    const keep = sessionCookie(SSO_COOKIE, SSO_COOKIE_PATH, v.facts, {
      token: started.pending,
      expiresAt: started.expiresAt,
    });
    // A page that moves on, not a redirect: the pages' policy lets forms post only here (form-action 'self'), and
    // browsers apply it to a form's redirects too.
    return htmlResponse(200, continuingPage(v.frame, started.url), [...v.cookies, keep]);
  } catch (err) {
    if (!(err instanceof FeedbackError) || !['ERR_VALIDATION', 'ERR_NOT_FOUND', 'ERR_UNAVAILABLE'].includes(err.code))
      throw err;
    return again(err.code === 'ERR_UNAVAILABLE' ? 503 : 422, err.message);
  }
}

/** A mailed code asked for: its page, or the page that says codes to the address are paused (and until when). */
async function requestCode(site: ConsoleSite, event: H3Event): Promise<Response> {
  const posted = await signInForm(site, event);
  if (posted instanceof Response) return posted;
  const { v, form } = posted;
  const email = (form.get('email') ?? '').trim().toLowerCase();
  const limited = await site.overLimit(v, `email:${email}`, site.limits.codesPerEmail);
  if (limited) return limited;
  try {
    const { signInId, codesPausedUntil } = await site.engine.team.requestSignIn(email);
    if (!codesPausedUntil) return htmlResponse(200, codePage(v.frame, signInId), v.cookies);
    const wait = Math.ceil((codesPausedUntil.getTime() - site.engine.clock().getTime()) / 1000);
    return respond(429, pausedPage(v.frame, codesPausedUntil), v.cookies, { 'retry-after': String(wait) });
  } catch (err) {
    if (!(err instanceof FeedbackError) || err.code !== 'ERR_VALIDATION') throw err;
    const error = say('console.signIn.badEmail');
    return htmlResponse(422, emailPage(v.frame, { error, email }), v.cookies);
  }
}

/** A mailed code typed in: signed in, or the code page again (a wrong code), or the first page (nothing left to try). */
async function redeemCode(site: ConsoleSite, event: H3Event): Promise<Response> {
  const posted = await signInForm(site, event);
  if (posted instanceof Response) return posted;
  const { v, form } = posted;
  const signInId = form.get('signInId') ?? '';
  try {
    const session = await site.engine.team.redeem({ signInId, code: form.get('code') ?? '' }, factsOf(event, v));
    return signedIn(site, v, session);
  } catch (err) {
    if (!(err instanceof FeedbackError) || err.code !== 'ERR_VALIDATION') throw err;
    if (err.details?.retry) return htmlResponse(422, codePage(v.frame, signInId, err.message), v.cookies);
    return htmlResponse(422, emailPage(v.frame, { error: err.message }), v.cookies);
  }
}

/** A one-time link followed (its button posted): signed in, or the first page with why. */
async function redeemLink(site: ConsoleSite, event: H3Event): Promise<Response> {
  const posted = await signInForm(site, event);
  if (posted instanceof Response) return posted;
  const { v, form } = posted;
  try {
    return signedIn(site, v, await site.engine.team.redeem({ token: form.get('token') ?? '' }, factsOf(event, v)));
  } catch (err) {
    if (!(err instanceof FeedbackError) || err.code !== 'ERR_VALIDATION') throw err;
    return htmlResponse(422, emailPage(v.frame, { error: err.message }), v.cookies);
  }
}

/** The provider's answer: signed in to the workspace that vouched, or the first page with why. */
async function ssoCallback(site: ConsoleSite, event: H3Event): Promise<Response> {
  const v = await site.visit(event);
  const done = [...v.cookies, sessionCookie(SSO_COOKIE, SSO_COOKIE_PATH, v.facts, null)];
  try {
    const pending = readCookie(event, SSO_COOKIE);
    const { session, organizationId } = await site.engine.team.finishSso(pending, event.url, factsOf(event, v));
    return signedIn(site, { ...v, cookies: done }, session, `${CONSOLE_PATH}/${organizationId}/posts`);
  } catch (err) {
    if (!(err instanceof FeedbackError) || !['ERR_VALIDATION', 'ERR_UNAVAILABLE'].includes(err.code)) throw err;
    return htmlResponse(err.code === 'ERR_UNAVAILABLE' ? 503 : 422, emailPage(v.frame, { error: err.message }), done);
  }
}

/** A workspace's own sign-in page (its single sign-on); a member already signed in to it goes to its posts. */
async function workspaceSignIn(site: ConsoleSite, event: H3Event): Promise<Response> {
  const v = await site.visit(event);
  const organizationId = getRouterParams(event).org ?? '';
  if (!ORG_ID.test(organizationId)) return site.notFound(v);
  if (v.identity?.teams.some((t) => t.organizationId === organizationId))
    return seeOther(`${CONSOLE_PATH}/${organizationId}/posts`, v.cookies);
  return htmlResponse(200, emailPage(v.frame, { organizationId }), v.cookies);
}

/** Signing out: the session ends (and says so in the audit log), the cookie goes. */
async function signOut(site: ConsoleSite, event: H3Event): Promise<Response> {
  const v = await site.visit(event);
  const form = await site.form(event, v);
  if (form instanceof Response) return form;
  const token = readCookie(event, CONSOLE_SESSION_COOKIE);
  if (token) await site.engine.team.signOut(token, { ip: v.facts.ip });
  return seeOther(`${CONSOLE_PATH}/sign-in`, [...v.cookies, site.sessionCookie(v, null)]);
}

/** Signing in with a mailed code or a one-time link, or single sign-on; signing out. */
export function mountSignIn(router: H3, site: ConsoleSite): void {
  router.get(`${CONSOLE_PATH}/sign-in`, async (event) => {
    const v = await site.visit(event);
    // A session proven by a mailed code has nothing more to gain here; one of single sign-on alone may add the address.
    if (v.identity?.addressProven) return seeOther(`${CONSOLE_PATH}/`, v.cookies);
    return htmlResponse(200, emailPage(v.frame), v.cookies);
  });
  router.get(`${CONSOLE_PATH}/:org/sign-in`, (event) => workspaceSignIn(site, event));
  router.post(`${CONSOLE_PATH}/sign-in`, (event) => requestCode(site, event));
  router.post(`${CONSOLE_PATH}/sign-in/code`, (event) => redeemCode(site, event));
  router.get(`${CONSOLE_PATH}/sign-in/link`, async (event) => {
    const v = await site.visit(event);
    return htmlResponse(200, linkPage(v.frame, event.url.searchParams.get('token') ?? ''), v.cookies);
  });
  router.post(`${CONSOLE_PATH}/sign-in/link`, (event) => redeemLink(site, event));
  // Single sign-on: from the shared page, the address's verified domain names the workspace; from a workspace's own
  // page, that workspace. The browser goes to its provider and comes back to the callback.
  router.post(`${CONSOLE_PATH}/sso`, (event) => startSso(site, event, null));
  router.post(`${CONSOLE_PATH}/:org/sso`, (event) => startSso(site, event, getRouterParams(event).org ?? ''));
  router.get(`${CONSOLE_PATH}/sso/callback`, (event) => ssoCallback(site, event));
  router.post(`${CONSOLE_PATH}/sign-out`, (event) => signOut(site, event));
}
