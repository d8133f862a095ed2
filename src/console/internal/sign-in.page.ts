// The console's sign-in pages: the address form (shared, or a workspace's own), the code, codes paused, a mailed link.

import { CONSOLE_PATH } from '../../engine/index.js';
import { html } from '../../h3/index.js';
import { csrfField, type Frame, page } from './layout.js';
import { say, sayHtml } from './words.js';

/**
 * The sign-in form: the shared page (the address's verified domain picks the single sign-on), or a workspace's own page
 * (`/console/ORG_ID/sign-in`: its single sign-on, verified domains or not). The workspace page names no workspace and
 * looks the same for any id, so it says nothing of which exist.
 */
export const emailPage = (
  frame: Omit<Frame, 'title'>,
  options: { error?: string; email?: string; organizationId?: string } = {},
) => {
  const sso = options.organizationId ? `${CONSOLE_PATH}/${options.organizationId}/sso` : `${CONSOLE_PATH}/sso`;
  const onlySso = frame.identity && !frame.identity.addressProven;
  return page(
    { ...frame, title: say('console.signIn.title') },
    html`<h1>${say(options.organizationId ? 'console.signIn.workspace' : 'console.signIn.console')}</h1>
${
  onlySso
    ? html`<p class="notice">${say('console.signIn.ssoOnly', { workspaces: frame.identity!.teams.map((t) => t.workspace).join(', ') || say('console.signIn.aWorkspace') })}</p>`
    : ''
}
<form method="post" action="${CONSOLE_PATH}/sign-in">${csrfField(frame)}
<label for="email">${say('console.signIn.email')}</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${options.email ?? ''}"${options.error ? html.raw` aria-invalid="true" aria-describedby="email-error"` : ''}>
${options.error ? html`<p id="email-error" class="error" role="alert">${options.error}</p>` : ''}
<p><button type="submit">${say('console.signIn.sendCode')}</button> <button type="submit" class="secondary" formaction="${sso}" formnovalidate>${say('console.signIn.sso')}</button></p>
</form>
${options.organizationId ? '' : html`<p class="muted">${sayHtml('console.signIn.ownPage')}</p>`}`,
    { narrow: true },
  );
};

/** The cookie that keeps a single sign-on on its way (sealed by the engine) between the provider's redirect and its return. */
export const codePage = (frame: Omit<Frame, 'title'>, signInId: string, error?: string) =>
  page(
    { ...frame, title: say('console.signIn.checkEmail') },
    html`<h1>${say('console.signIn.checkEmail')}</h1>
<p>${say('console.signIn.codeSent')}</p>
<form method="post" action="${CONSOLE_PATH}/sign-in/code">${csrfField(frame)}<input type="hidden" name="signInId" value="${signInId}">
<label for="code">${say('console.signIn.code')}</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required${error ? html.raw` aria-invalid="true" aria-describedby="code-error"` : ''}>
${error ? html`<p id="code-error" class="error">${error}</p>` : ''}
<p><button type="submit">${say('console.signIn.submit')}</button></p>
</form>`,
    { narrow: true },
  );

/** While codes for the address are paused: the mail (if the address is on a team) carries a link alone. */
export const pausedPage = (frame: Omit<Frame, 'title'>, until: Date) =>
  page(
    { ...frame, title: say('console.signIn.checkEmail') },
    html`<h1>${say('console.signIn.checkEmail')}</h1>
<p>${sayHtml('console.signIn.paused', { until: until.toISOString().slice(11, 16) }, { time: (inside) => html`<time datetime="${until.toISOString()}">${inside}</time>` })}</p>
<p>${say('console.signIn.linkInstead')}</p>`,
    { narrow: true },
  );

/** A link's page asks for a click before it signs in: mail scanners that open links do not use it up. */
export const linkPage = (frame: Omit<Frame, 'title'>, token: string) =>
  page(
    { ...frame, title: say('console.signIn.title') },
    html`<h1>${say('console.signIn.console')}</h1>
<form method="post" action="${CONSOLE_PATH}/sign-in/link">${csrfField(frame)}<input type="hidden" name="token" value="${token}">
<p><button type="submit">${say('console.signIn.submit')}</button></p>
</form>`,
    { narrow: true },
  );

/** The page that moves on to the sign-in provider (a refresh, and a link for a browser that does not follow it). */
export const continuingPage = (frame: Omit<Frame, 'title'>, to: string) =>
  page(
    { ...frame, title: say('console.signIn.signingIn') },
    html`<h1>${say('console.signIn.continuing')}</h1><p><a href="${to}">${say('console.signIn.continue')}</a></p>`,
    { narrow: true, refreshTo: to },
  );
