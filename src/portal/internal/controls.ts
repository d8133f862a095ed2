// The portal's form controls that several pages share: the notify-me opt-in, the honeypot, and the vote controls (a
// post page's form, a list's one form with a button per row, the count where the viewer may not vote).

import type { PortalPost, Translator } from '../../engine/index.js';
import { html, type SafeHtml } from '../../h3/index.js';
import { csrfField, type PageFrame } from './layout.js';

/** The notify-me opt-in: shown to people who are not signed in with the workspace's token; never ticked for them. */
export const notifyMe = (frame: PageFrame, what: 'notify.post' | 'notify.updates') =>
  frame.viewer?.verified
    ? ''
    : html`<label class="check"><input type="checkbox" name="notify_me" value="on"> ${frame.tr.t(what)}</label>`;

/** A field no person fills in (it is off-screen and skipped by keyboard and screen readers); bots that do are ignored. */
export const honeypot = (tr: Translator) =>
  html`<div class="hp" aria-hidden="true"><label>${tr.t('form.honeypot')} <input type="text" name="website" tabindex="-1" autocomplete="off"></label></div>`;

/**
 * What a vote button says: the post's count, shown, and "Vote, 3 votes" for a screen reader (the script rewrites
 * both, from its answer's words, when the count changes).
 */
const voteInside = (tr: Translator, n: number) =>
  html`<span class="arrow" aria-hidden="true">▲</span><strong data-vote-count aria-hidden="true">${tr.number(n)}</strong><span class="sr-only" data-vote-label>${tr.t('vote.button', { count: n })}</span>`;

/** What a vote button's title says, pressed (voted: pressing takes the vote back) or not. */
export const voteTitle = (tr: Translator, voted: boolean) => tr.t(voted ? 'vote.pressed' : 'vote.open');

/** Where a vote button posts: to vote, or, once voted, to take the vote back. */
const voteAddress = (frame: PageFrame, boardSlug: string, post: PortalPost, voted: boolean) =>
  voted ? frame.paths.unvote(boardSlug, post.slug) : frame.paths.vote(boardSlug, post.slug);

/** The vote button: pressed once voted, and then pressing it again takes the vote back. */
const voteButton = (tr: Translator, post: PortalPost, voted: boolean, formaction?: string) =>
  html`<button type="submit"${formaction ? html` formaction="${formaction}"` : ''} class="vote-button" aria-pressed="${voted ? 'true' : 'false'}" title="${voteTitle(tr, voted)}">${voteInside(tr, post.voteCount)}</button>`;

/**
 * A post page's vote control: a form that votes, or once voted takes the vote back (in place with the script, a form
 * post without).
 */
export function voteControl(frame: PageFrame, v: { boardSlug: string; post: PortalPost; voted: boolean }): SafeHtml {
  return html`<form class="vote" method="post" action="${voteAddress(frame, v.boardSlug, v.post, v.voted)}">${csrfField(frame)}${honeypot(frame.tr)}${
    frame.viewer && !v.voted ? notifyMe(frame, 'notify.post') : ''
  }${voteButton(frame.tr, v.post, v.voted)}</form>`;
}

/**
 * A list row's vote button: it submits the list's one form (`votesForm`) to its post's address (to vote, or to take
 * the vote back), so the anti-forgery field, the honeypot and the way back are written once a page, not once a row.
 */
export function listVoteButton(frame: PageFrame, boardSlug: string, post: PortalPost, voted: boolean): SafeHtml {
  return html`<p class="vote">${voteButton(frame.tr, post, voted, voteAddress(frame, boardSlug, post, voted))}</p>`;
}

/** A list of posts whose rows vote: one form around it, each row's button posting it to its own post. */
export const votesForm = (frame: PageFrame, returnTo: string, list: SafeHtml) =>
  html`<form class="votes" method="post">${csrfField(frame)}${honeypot(frame.tr)}<input type="hidden" name="return" value="${returnTo}">${list}</form>`;

/** A post's vote count where the viewer may not vote: the same box, not a control. */
export const voteCount = (tr: Translator, n: number) =>
  html`<p class="vote"><span class="vote-button"><span class="arrow" aria-hidden="true">▲</span><strong aria-hidden="true">${tr.number(n)}</strong><span class="sr-only">${tr.t('vote.count', { count: n })}</span></span></p>`;
