import type { MailPreferences } from '../../engine/index.js';
import { html } from '../../h3/index.js';
import { csrfField, mailPage } from './layout.js';

/** What every mail page knows: the workspace, the link's own address (with its token) and the forms' anti-forgery token. */
export interface MailFrame {
  workspace: string;
  /** The preferences page's address with the link's token. */
  preferences: string;
  /** The unsubscribe address with the link's token. */
  unsubscribe: string;
  csrf: string;
  notice?: string | null;
}

/** A link that does not verify (cut short, forged) or has expired: what to do instead. */
export function invalidLinkPage(workspace: string | null, message: string): string {
  return mailPage(
    { workspace: workspace ?? 'Feedback', title: 'Link not valid' },
    html`<h1>This link does not work</h1><p>${message}</p><p>Every email we send carries a link of its own: use the one in the most recent email.</p>`,
  );
}

/** A request to a mail page that was not carried out (too large, from another site, not valid): what happened. */
export function refusedPage(workspace: string, heading: string, message: string): string {
  return mailPage(
    { workspace, title: heading },
    html`<h1>${heading}</h1><p>${message}</p><p>Go back, reload the page and try again.</p>`,
  );
}

/**
 * The unsubscribe link's page (a person, not their mail client): one button that unsubscribes, so that a link scanner
 * opening the address changes nothing. Mail clients post to the same address directly (RFC 8058).
 */
export function unsubscribePage(frame: MailFrame, prefs: MailPreferences): string {
  const main = prefs.all
    ? html`<h1>You are unsubscribed</h1>
<p>${frame.workspace} sends no email to ${prefs.email}.</p>
<p><a href="${frame.preferences}">Choose what you get</a> if you want some of it back.</p>`
    : html`<h1>Unsubscribe from ${frame.workspace}'s email</h1>
<p>${frame.workspace} will send no more email to ${prefs.email}: no updates about posts, no replies, no changelog.</p>
<form method="post" action="${frame.unsubscribe}">
<input type="hidden" name="List-Unsubscribe" value="One-Click"><input type="hidden" name="from" value="page">
<button type="submit">Unsubscribe</button>
</form>
<p>Or <a href="${frame.preferences}">choose what you get</a> instead.</p>`;
  return mailPage({ workspace: frame.workspace, title: 'Unsubscribe', notice: frame.notice }, main);
}

const checked = (on: boolean) => (on ? html.raw` checked` : '');

/** What an address gets from the workspace, as a form: everything off, post updates, the changelog, the digest, and each post followed. */
export function preferencesPage(frame: MailFrame, prefs: MailPreferences): string {
  const posts = prefs.subscriptions.map(
    (s) =>
      html`<li><label class="check"><input type="checkbox" name="post" value="${s.postId}"${checked(s.on)}> <span dir="auto">${s.title}</span></label><input type="hidden" name="listed" value="${s.postId}"></li>`,
  );
  return mailPage(
    { workspace: frame.workspace, title: 'Email settings', notice: frame.notice },
    html`<h1>Email from ${frame.workspace}</h1>
<p>For ${prefs.email}.${prefs.legacy ? html` You came to ${frame.workspace} before it asked about email, so it only sends you replies to what you wrote.` : ''}</p>
<form class="stack" method="post" action="${frame.preferences}">
${csrfField(frame)}
<fieldset><legend>What you get</legend>
<label class="check"><input type="checkbox" name="posts" value="on"${checked(prefs.posts)}> Updates about posts you take part in: status changes and replies to what you wrote</label>
<label class="check"><input type="checkbox" name="changelog" value="on"${checked(prefs.changelog)}> The changelog: what is new</label>
</fieldset>
<fieldset><legend>How often</legend>
<label class="check"><input type="radio" name="digest" value="instant"${checked(prefs.digest === 'instant')}> As it happens (bundled into one email when there is a lot)</label>
<label class="check"><input type="radio" name="digest" value="hourly"${checked(prefs.digest === 'hourly')}> At most one email an hour</label>
</fieldset>
${posts.length ? html`<fieldset><legend>Posts you follow</legend><ul class="follows">${posts}</ul></fieldset>` : ''}
<fieldset><legend>Everything</legend>
<label class="check"><input type="checkbox" name="all" value="off"${checked(prefs.all)}> Send me no email at all</label>
</fieldset>
<button type="submit">Save</button>
</form>`,
  );
}
