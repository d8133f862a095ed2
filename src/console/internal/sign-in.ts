import { html } from '@remix-run/html-template';
import { getRouterParams, type H3, type H3Event } from 'h3';
import { CONSOLE_PATH, FeedbackError, type SignInFacts } from '../../engine/index.js';
import { htmlResponse, readCookie, respond, seeOther, sessionCookie } from '../../h3/index.js';
import { csrfField, type Frame, page } from './layout.js';
import { CONSOLE_SESSION_COOKIE, type ConsoleSite, type ConsoleVisit } from './site.js';

/** A workspace id as it may appear in a path (anything else is not looked up). */
const ORG_ID = /^org_[0-9a-z]{26}$/;

/**
 * The sign-in form: the shared page (the address's verified domain picks the single sign-on), or a workspace's own page
 * (`/console/ORG_ID/sign-in`: its single sign-on, verified domains or not). The workspace page names no workspace and
 * looks the same for any id, so it says nothing of which exist.
 */
const emailPage = (
  frame: Omit<Frame, 'title'>,
  options: { error?: string; email?: string; organizationId?: string } = {},
) => {
  const sso = options.organizationId ? `${CONSOLE_PATH}/${options.organizationId}/sso` : `${CONSOLE_PATH}/sso`;
  const onlySso = frame.identity && !frame.identity.addressProven;
  return page(
    { ...frame, title: 'Sign in' },
    html`<h1>${options.organizationId ? 'Sign in to your workspace' : 'Sign in to the feedback console'}</h1>
${
  onlySso
    ? html`<p class="notice">You are signed in with single sign-on to ${frame.identity!.teams.map((t) => t.workspace).join(', ') || 'a workspace'}. Your other workspaces open with an emailed code.</p>`
    : ''
}
<form method="post" action="${CONSOLE_PATH}/sign-in">${csrfField(frame)}
<label for="email">Your work email</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${options.email ?? ''}"${options.error ? html.raw` aria-invalid="true" aria-describedby="email-error"` : ''}>
${options.error ? html`<p id="email-error" class="error" role="alert">${options.error}</p>` : ''}
<p><button type="submit">Email me a sign-in code</button> <button type="submit" class="secondary" formaction="${sso}" formnovalidate>Sign in with single sign-on</button></p>
</form>
${options.organizationId ? '' : html`<p class="muted">Your workspace signs in with single sign-on from its own page? Your admin has its address (<code>/console/<em>workspace id</em>/sign-in</code>).</p>`}`,
    { narrow: true },
  );
};

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

/** While codes for the address are paused: the mail (if the address is on a team) carries a link alone. */
const pausedPage = (frame: Omit<Frame, 'title'>, until: Date) =>
  page(
    { ...frame, title: 'Check your email' },
    html`<h1>Check your email</h1>
<p>Too many wrong codes were typed for this address, so codes for it are paused until <time datetime="${until.toISOString()}">${until.toISOString().slice(11, 16)} UTC</time>.</p>
<p>If the address is on a team, a sign-in link is on its way instead: it works once, for 15 minutes.</p>`,
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
  if (organizationId !== null && !ORG_ID.test(organizationId))
    return again(422, 'This workspace does not sign in with single sign-on: use the emailed code.');
  try {
    const started = await site.engine.team.startSso({ email, organizationId }, event.url.origin);
    const keep = sessionCookie(SSO_COOKIE, SSO_COOKIE_PATH, v.facts, {
      token: started.pending,
      expiresAt: started.expiresAt,
    });
    // A page that moves on, not a redirect: the pages' policy lets forms post only here (form-action 'self'), and
    // browsers apply it to a form's redirects too.
    const body = html`<h1>Continuing to your sign-in provider</h1><p><a href="${started.url}">Continue to sign in</a></p>`;
    return htmlResponse(
      200,
      page({ ...v.frame, title: 'Signing in' }, body, { narrow: true, refreshTo: started.url }),
      [...v.cookies, keep],
    );
  } catch (err) {
    if (!(err instanceof FeedbackError) || !['ERR_VALIDATION', 'ERR_NOT_FOUND', 'ERR_UNAVAILABLE'].includes(err.code))
      throw err;
    return again(err.code === 'ERR_UNAVAILABLE' ? 503 : 422, err.message);
  }
}

/** Signing in with a mailed code or a one-time link, or single sign-on; signing out. */
export function mountSignIn(router: H3, site: ConsoleSite): void {
  router.get(`${CONSOLE_PATH}/sign-in`, async (event) => {
    const v = await site.visit(event);
    // A session proven by a mailed code has nothing more to gain here; one of single sign-on alone may add the address.
    if (v.identity?.addressProven) return seeOther(`${CONSOLE_PATH}/`, v.cookies);
    return htmlResponse(200, emailPage(v.frame), v.cookies);
  });
  router.get(`${CONSOLE_PATH}/:org/sign-in`, async (event) => {
    const v = await site.visit(event);
    const organizationId = getRouterParams(event).org ?? '';
    if (!ORG_ID.test(organizationId)) return site.notFound(v);
    if (v.identity?.teams.some((t) => t.organizationId === organizationId))
      return seeOther(`${CONSOLE_PATH}/${organizationId}/posts`, v.cookies);
    return htmlResponse(200, emailPage(v.frame, { organizationId }), v.cookies);
  });
  router.post(`${CONSOLE_PATH}/sign-in`, async (event) => {
    const posted = await signInForm(site, event);
    if (posted instanceof Response) return posted;
    const { v, form } = posted;
    const email = (form.get('email') ?? '').trim().toLowerCase();
    const limited = await site.overLimit(v, `email:${email}`, site.limits.codesPerEmail);
    if (limited) return limited;
    try {
      const { signInId, codesPausedUntil } = await site.engine.team.requestSignIn(email);
      if (codesPausedUntil)
        return respond(429, pausedPage(v.frame, codesPausedUntil), v.cookies, {
          'retry-after': String(Math.ceil((codesPausedUntil.getTime() - site.engine.clock().getTime()) / 1000)),
        });
      return htmlResponse(200, codePage(v.frame, signInId), v.cookies);
    } catch (err) {
      if (err instanceof FeedbackError && err.code === 'ERR_VALIDATION')
        return htmlResponse(
          422,
          emailPage(v.frame, { error: 'Enter an email address like name@example.com.', email }),
          v.cookies,
        );
      throw err;
    }
  });
  router.post(`${CONSOLE_PATH}/sign-in/code`, async (event) => {
    const posted = await signInForm(site, event);
    if (posted instanceof Response) return posted;
    const { v, form } = posted;
    const signInId = form.get('signInId') ?? '';
    try {
      return signedIn(
        site,
        v,
        await site.engine.team.redeem({ signInId, code: form.get('code') ?? '' }, factsOf(event, v)),
      );
    } catch (err) {
      if (!(err instanceof FeedbackError) || err.code !== 'ERR_VALIDATION') throw err;
      if (err.details?.retry) return htmlResponse(422, codePage(v.frame, signInId, err.message), v.cookies);
      return htmlResponse(422, emailPage(v.frame, { error: err.message }), v.cookies);
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
      return signedIn(site, v, await site.engine.team.redeem({ token: form.get('token') ?? '' }, factsOf(event, v)));
    } catch (err) {
      if (!(err instanceof FeedbackError) || err.code !== 'ERR_VALIDATION') throw err;
      return htmlResponse(422, emailPage(v.frame, { error: err.message }), v.cookies);
    }
  });
  // Single sign-on: from the shared page, the address's verified domain names the workspace; from a workspace's own
  // page, that workspace. The browser goes to its provider and comes back to the callback.
  router.post(`${CONSOLE_PATH}/sso`, (event) => startSso(site, event, null));
  router.post(`${CONSOLE_PATH}/:org/sso`, (event) => startSso(site, event, getRouterParams(event).org ?? ''));
  router.get(`${CONSOLE_PATH}/sso/callback`, async (event) => {
    const v = await site.visit(event);
    const done = [...v.cookies, sessionCookie(SSO_COOKIE, SSO_COOKIE_PATH, v.facts, null)];
    try {
      const { session, organizationId } = await site.engine.team.finishSso(
        readCookie(event, SSO_COOKIE),
        event.url,
        factsOf(event, v),
      );
      return signedIn(site, { ...v, cookies: done }, session, `${CONSOLE_PATH}/${organizationId}/posts`);
    } catch (err) {
      if (!(err instanceof FeedbackError) || !['ERR_VALIDATION', 'ERR_UNAVAILABLE'].includes(err.code)) throw err;
      return htmlResponse(err.code === 'ERR_UNAVAILABLE' ? 503 : 422, emailPage(v.frame, { error: err.message }), done);
    }
  });
  router.post(`${CONSOLE_PATH}/sign-out`, async (event) => {
    const v = await site.visit(event);
    const form = await site.form(event, v);
    if (form instanceof Response) return form;
    const token = readCookie(event, CONSOLE_SESSION_COOKIE);
    if (token) await site.engine.team.signOut(token, { ip: v.facts.ip });
    return seeOther(`${CONSOLE_PATH}/sign-in`, [...v.cookies, site.sessionCookie(v, null)]);
  });
}
