// The portal's pages that say one thing: a message with the way back, a refused sign-in token, and the pages of a
// failure (which need nothing from the database).
import { type Translator, translator } from '../../engine/index.js';
import { html } from '../../h3/index.js';
import { mailPage, type PageFrame, page } from './layout.js';

/**
 * The page for when the database cannot be reached (a restart, a failover, a network fault): it needs nothing from the
 * database, and says what happened to what was being sent.
 */
export function unavailablePage(tr: Translator = translator()): string {
  return mailPage(
    { tr, workspace: tr.t('layout.feedback'), title: tr.t('page.unavailableTitle') },
    html`<h1>${tr.t('page.unavailableHeading')}</h1><p>${tr.t('page.unavailableText')}</p><p>${tr.t('page.unavailableRetry')}</p>`,
  );
}

/** The page for a failure nobody expected; the log has the details under the request's id. */
export function errorPage(tr: Translator = translator()): string {
  return mailPage(
    { tr, workspace: tr.t('layout.feedback'), title: tr.t('page.errorTitle') },
    html`<h1>${tr.t('page.errorHeading')}</h1><p>${tr.t('page.errorText')}</p>`,
  );
}

/**
 * A sign-in token refused: what to do, in the page's words, and what was wrong with the token in English, for the
 * workspace's developers who minted it.
 */
export function signInRefusedPage(frame: Omit<PageFrame, 'title'>, detail: string): string {
  const { tr, workspace } = frame;
  const heading = tr.t('signIn.failed');
  return page(
    { ...frame, title: heading },
    html`<h1>${heading}</h1><p>${tr.t('signIn.refused', { workspace })}</p><p class="muted" lang="en">${tr.t('signIn.detail', { workspace, detail })}</p><p><a href="${frame.paths.home}">${tr.t('page.allBoards')}</a></p>`,
  );
}

/** A page that says one thing: a heading, a sentence, the way back. Without a workspace, the bare page in `tr`'s words. */
export function messagePage(
  frame: Omit<PageFrame, 'title'> | null,
  heading: string,
  text: string,
  back?: { href: string; label: string },
  tr: Translator = frame?.tr ?? translator(),
): string {
  if (!frame)
    return String(
      html`<!doctype html><html lang="${tr.locale}" dir="${tr.dir}"><head><meta charset="utf-8"><title>${heading}</title></head><body><main><h1>${heading}</h1><p>${text}</p></main></body></html>`,
    );
  return page(
    { ...frame, title: heading },
    html`<h1>${heading}</h1><p>${text}</p><p>${back ? html`<a href="${back.href}">${back.label}</a> · ` : ''}<a href="${frame.paths.home}">${tr.t('page.allBoards')}</a></p>`,
  );
}
