import { html } from '@remix-run/html-template';
import type { H3, H3Event } from 'h3';
import { CONSOLE_PATH, FeedbackError } from '../../engine/index.js';
import { htmlResponse, readCookie, seeOther, sessionCookie } from '../../h3/index.js';
import { csrfField, page, type Frame } from './layout.js';
import { CONSOLE_SESSION_COOKIE, type ConsoleSite, type ConsoleVisit } from './site.js';

const emailPage = (frame: Omit<Frame, 'title'>, error?: string, email = '') =>
  page(
    { ...frame, title: 'Sign in' },
    html`<h1>Sign in to the feedback console</h1>
<form method="post" action="${CONSOLE_PATH}/sign-in">${csrfField(frame)}
<label for="email">Your work email</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${email}"${error ? html.raw` aria-invalid="true" aria-describedby="email-error"` : ''}>
${error ? html`<p id="email-error" class="error" role="alert">${error}</p>` : ''}
<p><button type="submit">Email me a sign-in code</button> <button type="submit" class="secondary" formaction="${CONSOLE_PATH}/sso">Sign in with single sign-on</button></p>
</form>`,
    { narrow: true },
  );

/** The cookie that keeps a single sign-on on its way (sealed by the engine) between the provider's redirect and its return. */
const SSO_COOKIE = 'fs_sso';
const SSO_COOKIE_PATH = `${CONSOLE_PATH}/sso`;

const codePage = (frame: Omit<Frame, 'title'>, signInId: string, error?: string) =>
  page(
    { ...frame, title: 'Check your email' },
    html`<h1>Check your email</h1>
<p>If that address is on a team, a code and a link are on their way. The code works once, for 15 minutes.</p>
<form method="post" action="${CONSOLE_PATH}/sign-in/code">${csrfField(frame)}<input type="hidden" name="signInId" value="${signInId}">
<label for="code">Code</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required${error ? html.raw` aria-invalid="true" aria-describedby="code-error"` : ''}>
${error ? html`<p id="code-error" class="error">${error}</p>` : ''}
<p><button type="submit">Sign in</button></p>
</form>`,
    { narrow: true },
  );

/** A link's page asks for a click before it signs in: mail scanners that open links do not use it up. */
const linkPage = (frame: Omit<Frame, 'title'>, token: string) =>
  page(
    { ...frame, title: 'Sign in' },
    html`<h1>Sign in to the feedback console</h1>
<form method="post" action="${CONSOLE_PATH}/sign-in/link">${csrfField(frame)}<input type="hidden" name="token" value="${token}">
<p><button type="submit">Sign in</button></p>
</form>`,
    { narrow: true },
  );

/** A new session: its cookie, a fresh one (never the one the browser came with), and on to the console. */
function signedIn(site: ConsoleSite, v: ConsoleVisit, session: { token: string; expiresAt: Date }): Response {
  return seeOther(`${CONSOLE_PATH}/`, [...v.cookies, site.sessionCookie(v, session)]);
}

/** A sign-in form from the console's own pages within the client address's budget; else the page that says why not. */
async function signInForm(site: ConsoleSite, event: H3Event): Promise<{ v: ConsoleVisit; form: URLSearchParams } | Response> {
  const v = await site.visit(event);
  const form = await site.form(event, v);
  if (form instanceof Response) return form;
  return (await site.overLimit(v, `ip:${v.facts.ip}`, site.limits.signInsPerIp)) ?? { v, form };
}

/** Signing in with a mailed code or a one-time link, and signing out. */
export function mountSignIn(router: H3, site: ConsoleSite): void {
  router.get(`${CONSOLE_PATH}/sign-in`, async (event) => {
    const v = await site.visit(event);
    if (v.identity) return seeOther(`${CONSOLE_PATH}/`, v.cookies);
    return htmlResponse(200, emailPage(v.frame), v.cookies);
  });
  router.post(`${CONSOLE_PATH}/sign-in`, async (event) => {
    const posted = await signInForm(site, event);
    if (posted instanceof Response) return posted;
    const { v, form } = posted;
    const email = (form.get('email') ?? '').trim().toLowerCase();
    const limited = await site.overLimit(v, `email:${email}`, site.limits.codesPerEmail);
    if (limited) return limited;
    try {
      const { signInId } = await site.engine.team.requestSignIn(email);
      return htmlResponse(200, codePage(v.frame, signInId), v.cookies);
    } catch (err) {
      if (err instanceof FeedbackError && err.code === 'ERR_VALIDATION') return htmlResponse(422, emailPage(v.frame, 'Enter an email address like name@example.com.', email), v.cookies);
      throw err;
    }
  });
  router.post(`${CONSOLE_PATH}/sign-in/code`, async (event) => {
    const posted = await signInForm(site, event);
    if (posted instanceof Response) return posted;
    const { v, form } = posted;
    const signInId = form.get('signInId') ?? '';
    try {
      return signedIn(site, v, await site.engine.team.redeem({ signInId, code: form.get('code') ?? '' }));
    } catch (err) {
      if (!(err instanceof FeedbackError) || err.code !== 'ERR_VALIDATION') throw err;
      if (err.details?.retry) return htmlResponse(422, codePage(v.frame, signInId, err.message), v.cookies);
      return htmlResponse(422, emailPage(v.frame, err.message), v.cookies);
    }
  });
  router.get(`${CONSOLE_PATH}/sign-in/link`, async (event) => {
    const v = await site.visit(event);
    return htmlResponse(200, linkPage(v.frame, event.url.searchParams.get('token') ?? ''), v.cookies);
  });
  router.post(`${CONSOLE_PATH}/sign-in/link`, async (event) => {
    const posted = await signInForm(site, event);
    if (posted instanceof Response) return posted;
    const { v, form } = posted;
    try {
      return signedIn(site, v, await site.engine.team.redeem({ token: form.get('token') ?? '' }));
    } catch (err) {
      if (!(err instanceof FeedbackError) || err.code !== 'ERR_VALIDATION') throw err;
      return htmlResponse(422, emailPage(v.frame, err.message), v.cookies);
    }
  });
  // Single sign-on: the address's domain names the workspace; the browser goes to its provider and comes back here.
  router.post(`${CONSOLE_PATH}/sso`, async (event) => {
    const posted = await signInForm(site, event);
    if (posted instanceof Response) return posted;
    const { v, form } = posted;
    const email = (form.get('email') ?? '').trim();
    try {
      const started = await site.engine.team.startSso(email, event.url.origin);
      const keep = sessionCookie(SSO_COOKIE, SSO_COOKIE_PATH, v.facts, { token: started.pending, expiresAt: started.expiresAt });
      // A page that moves on, not a redirect: the pages' policy lets forms post only here (form-action 'self'), and
      // browsers apply it to a form's redirects too.
      const body = html`<h1>Continuing to your sign-in provider</h1><p><a href="${started.url}">Continue to sign in</a></p>`;
      return htmlResponse(200, page({ ...v.frame, title: 'Signing in' }, body, { narrow: true, refreshTo: started.url }), [...v.cookies, keep]);
    } catch (err) {
      if (!(err instanceof FeedbackError) || !['ERR_VALIDATION', 'ERR_NOT_FOUND', 'ERR_UNAVAILABLE'].includes(err.code)) throw err;
      return htmlResponse(err.code === 'ERR_UNAVAILABLE' ? 503 : 422, emailPage(v.frame, err.message, email), v.cookies);
    }
  });
  router.get(`${CONSOLE_PATH}/sso/callback`, async (event) => {
    const v = await site.visit(event);
    const done = [...v.cookies, sessionCookie(SSO_COOKIE, SSO_COOKIE_PATH, v.facts, null)];
    const providerError = event.url.searchParams.get('error');
    if (providerError) return htmlResponse(422, emailPage(v.frame, `The sign-in provider did not sign you in (${providerError}).`), done);
    try {
      return signedIn(site, { ...v, cookies: done }, await site.engine.team.finishSso(readCookie(event, SSO_COOKIE), event.url));
    } catch (err) {
      if (!(err instanceof FeedbackError) || !['ERR_VALIDATION', 'ERR_UNAVAILABLE'].includes(err.code)) throw err;
      return htmlResponse(err.code === 'ERR_UNAVAILABLE' ? 503 : 422, emailPage(v.frame, err.message), done);
    }
  });
  router.post(`${CONSOLE_PATH}/sign-out`, async (event) => {
    const v = await site.visit(event);
    const form = await site.form(event, v);
    if (form instanceof Response) return form;
    const token = readCookie(event, CONSOLE_SESSION_COOKIE);
    if (token) await site.engine.team.signOut(token);
    return seeOther(`${CONSOLE_PATH}/sign-in`, [...v.cookies, site.sessionCookie(v, null)]);
  });
}
