// The console's sign-in pages: the address form (shared, or a workspace's own), the code, codes paused, a mailed link.

import { CONSOLE_PATH } from '../../engine/index.js';
import { html } from '../../h3/index.js';
import { csrfField, type Frame, page } from './layout.js';

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
export const codePage = (frame: Omit<Frame, 'title'>, signInId: string, error?: string) =>
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
export const pausedPage = (frame: Omit<Frame, 'title'>, until: Date) =>
  page(
    { ...frame, title: 'Check your email' },
    html`<h1>Check your email</h1>
<p>Too many wrong codes were typed for this address, so codes for it are paused until <time datetime="${until.toISOString()}">${until.toISOString().slice(11, 16)} UTC</time>.</p>
<p>If the address is on a team, a sign-in link is on its way instead: it works once, for 15 minutes.</p>`,
    { narrow: true },
  );

/** A link's page asks for a click before it signs in: mail scanners that open links do not use it up. */
export const linkPage = (frame: Omit<Frame, 'title'>, token: string) =>
  page(
    { ...frame, title: 'Sign in' },
    html`<h1>Sign in to the feedback console</h1>
<form method="post" action="${CONSOLE_PATH}/sign-in/link">${csrfField(frame)}<input type="hidden" name="token" value="${token}">
<p><button type="submit">Sign in</button></p>
</form>`,
    { narrow: true },
  );

/** The page that moves on to the sign-in provider (a refresh, and a link for a browser that does not follow it). */
export const continuingPage = (frame: Omit<Frame, 'title'>, to: string) =>
  page(
    { ...frame, title: 'Signing in' },
    html`<h1>Continuing to your sign-in provider</h1><p><a href="${to}">Continue to sign in</a></p>`,
    { narrow: true, refreshTo: to },
  );
