import type { MailPreferences, Translator } from '../../engine/index.js';
import { html, type SafeHtml } from '../../h3/index.js';
import { csrfField, type Here, mailPage } from './layout.js';

/** What every mail page knows: the workspace, the link's own address (with its token) and the forms' anti-forgery token. */
export interface MailFrame {
  tr: Translator;
  /** Where the page is (its token in the query), for the language switcher. */
  here: Here;
  workspace: string;
  /** The preferences page's address with the link's token. */
  preferences: string;
  /** The unsubscribe address with the link's token. */
  unsubscribe: string;
  csrf: string;
  notice?: string | null;
}

/** A link that does not verify (cut short, forged) or has expired: what to do instead. */
export function invalidLinkPage(tr: Translator, message: string): string {
  return mailPage(
    { tr, workspace: tr.t('layout.feedback'), title: tr.t('link.invalidTitle') },
    html`<h1>${tr.t('link.invalidHeading')}</h1><p>${message}</p><p>${tr.t('link.useLatest')}</p>`,
  );
}

/** A request to a mail page that was not carried out (too large, from another site, not valid): what happened. */
export function refusedPage(tr: Translator, workspace: string, heading: string, message: string): string {
  return mailPage(
    { tr, workspace, title: heading },
    html`<h1>${heading}</h1><p>${message}</p><p>${tr.t('link.retry')}</p>`,
  );
}

/** A sentence with one link in it (`<link>…</link>` in the message). */
const linked = (tr: Translator, key: 'unsubscribe.doneBack' | 'unsubscribe.instead', href: string): SafeHtml =>
  tr.html(key, {}, { link: (inside) => html`<a href="${href}">${inside}</a>` });

/**
 * The unsubscribe link's page (a person, not their mail client): one button that unsubscribes, so that a link scanner
 * opening the address changes nothing. Mail clients post to the same address directly (RFC 8058).
 */
export function unsubscribePage(frame: MailFrame, prefs: MailPreferences): string {
  const { tr } = frame;
  const who = { workspace: frame.workspace, email: prefs.email };
  const main = prefs.all
    ? html`<h1>${tr.t('unsubscribe.doneHeading')}</h1>
<p>${tr.t('unsubscribe.doneText', who)}</p>
<p>${linked(tr, 'unsubscribe.doneBack', frame.preferences)}</p>`
    : html`<h1>${tr.t('unsubscribe.heading', who)}</h1>
<p>${tr.t('unsubscribe.text', who)}</p>
<form method="post" action="${frame.unsubscribe}">
<input type="hidden" name="List-Unsubscribe" value="One-Click"><input type="hidden" name="from" value="page">
<button type="submit">${tr.t('unsubscribe.button')}</button>
</form>
<p>${linked(tr, 'unsubscribe.instead', frame.preferences)}</p>`;
  return mailPage({ ...frame, title: tr.t('unsubscribe.title') }, main);
}

const checked = (on: boolean) => (on ? html.raw` checked` : '');

/** What an address gets from the workspace, as a form: everything off, post updates, the changelog, the digest, and each post followed. */
export function preferencesPage(frame: MailFrame, prefs: MailPreferences): string {
  const { tr } = frame;
  const workspace = frame.workspace;
  const posts = prefs.subscriptions.map(
    (s) =>
      html`<li><label class="check"><input type="checkbox" name="post" value="${s.postId}"${checked(s.on)}> <span dir="auto">${s.title}</span></label><input type="hidden" name="listed" value="${s.postId}"></li>`,
  );
  return mailPage(
    { ...frame, title: tr.t('prefs.title') },
    html`<h1>${tr.t('prefs.heading', { workspace })}</h1>
<p>${tr.t('prefs.for', { email: prefs.email })}${prefs.legacy ? html` ${tr.t('prefs.legacy', { workspace })}` : ''}</p>
<form class="stack" method="post" action="${frame.preferences}">
${csrfField(frame)}
<fieldset><legend>${tr.t('prefs.what')}</legend>
<label class="check"><input type="checkbox" name="posts" value="on"${checked(prefs.posts)}> ${tr.t('prefs.posts')}</label>
<label class="check"><input type="checkbox" name="changelog" value="on"${checked(prefs.changelog)}> ${tr.t('prefs.changelog')}</label>
</fieldset>
<fieldset><legend>${tr.t('prefs.often')}</legend>
<label class="check"><input type="radio" name="digest" value="instant"${checked(prefs.digest === 'instant')}> ${tr.t('prefs.instant')}</label>
<label class="check"><input type="radio" name="digest" value="hourly"${checked(prefs.digest === 'hourly')}> ${tr.t('prefs.hourly')}</label>
</fieldset>
${posts.length ? html`<fieldset><legend>${tr.t('prefs.follows')}</legend><ul class="follows">${posts}</ul></fieldset>` : ''}
<fieldset><legend>${tr.t('prefs.everything')}</legend>
<label class="check"><input type="checkbox" name="all" value="off"${checked(prefs.all)}> ${tr.t('prefs.none')}</label>
</fieldset>
<button type="submit">${tr.t('prefs.save')}</button>
</form>`,
  );
}
