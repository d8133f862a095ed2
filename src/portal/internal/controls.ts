// The portal's form controls that several pages share: the notify-me opt-in, the honeypot, and the vote controls (a
// post page's form, a list's one form with a button per row, the count where the viewer may not vote).

import type { PortalPost } from '../../engine/index.js';
import { html, type SafeHtml } from '../../h3/index.js';
import { csrfField, type PageFrame } from './layout.js';

/** The notify-me opt-in: shown to people who are not signed in with the workspace's token; never ticked for them. */
export const notifyMe = (frame: PageFrame, what: string) =>
  frame.viewer?.verified
    ? ''
    : html`<label class="check"><input type="checkbox" name="notify_me" value="on"> Email me about ${what}</label>`;

/** A field no person fills in (it is off-screen and skipped by keyboard and screen readers); bots that do are ignored. */
export const honeypot = html`<div class="hp" aria-hidden="true"><label>Leave this empty <input type="text" name="website" tabindex="-1" autocomplete="off"></label></div>`;

/** What a vote button says: the post's count, and "Vote" for a screen reader. */
const voteInside = (n: number) =>
  html`<span class="arrow" aria-hidden="true">▲</span><span class="sr-only">Vote, </span><strong data-vote-count>${n}</strong><span class="sr-only"> ${n === 1 ? 'vote' : 'votes'}</span>`;

/** What a vote button's title says, pressed (voted: pressing takes the vote back) or not. */
export const VOTE_TITLES = { pressed: 'You voted for this: press to take your vote back', open: 'Vote for this' };

/** Where a vote button posts: to vote, or, once voted, to take the vote back. */
const voteAddress = (frame: PageFrame, boardSlug: string, post: PortalPost, voted: boolean) =>
  voted ? frame.paths.unvote(boardSlug, post.slug) : frame.paths.vote(boardSlug, post.slug);

/** The vote button: pressed once voted, and then pressing it again takes the vote back. */
const voteButton = (post: PortalPost, voted: boolean, formaction?: string) =>
  html`<button type="submit"${formaction ? html` formaction="${formaction}"` : ''} class="vote-button" aria-pressed="${voted ? 'true' : 'false'}" title="${voted ? VOTE_TITLES.pressed : VOTE_TITLES.open}">${voteInside(post.voteCount)}</button>`;

/**
 * A post page's vote control: a form that votes, or once voted takes the vote back (in place with the script, a form
 * post without).
 */
export function voteControl(frame: PageFrame, v: { boardSlug: string; post: PortalPost; voted: boolean }): SafeHtml {
  return html`<form class="vote" method="post" action="${voteAddress(frame, v.boardSlug, v.post, v.voted)}">${csrfField(frame)}${honeypot}${
    frame.viewer && !v.voted ? notifyMe(frame, 'this post') : ''
  }${voteButton(v.post, v.voted)}</form>`;
}

/**
 * A list row's vote button: it submits the list's one form (`votesForm`) to its post's address (to vote, or to take
 * the vote back), so the anti-forgery field, the honeypot and the way back are written once a page, not once a row.
 */
export function listVoteButton(frame: PageFrame, boardSlug: string, post: PortalPost, voted: boolean): SafeHtml {
  return html`<p class="vote">${voteButton(post, voted, voteAddress(frame, boardSlug, post, voted))}</p>`;
}

/** A list of posts whose rows vote: one form around it, each row's button posting it to its own post. */
export const votesForm = (frame: PageFrame, returnTo: string, list: SafeHtml) =>
  html`<form class="votes" method="post">${csrfField(frame)}${honeypot}<input type="hidden" name="return" value="${returnTo}">${list}</form>`;

/** A post's vote count where the viewer may not vote: the same box, not a control. */
export const voteCount = (n: number) =>
  html`<p class="vote"><span class="vote-button"><span class="arrow" aria-hidden="true">▲</span><strong>${n}</strong><span class="sr-only"> ${n === 1 ? 'vote' : 'votes'}</span></span></p>`;
