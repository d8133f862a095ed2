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

/** Once voted: the same button, pressed (a button that does nothing more). */
const votedButton = (n: number) =>
  html`<p class="vote"><button type="button" class="vote-button" aria-pressed="true" title="You voted for this">${voteInside(n)}</button></p>`;

/**
 * A post page's vote control: a form that votes (in place with the script, a form post without), or, once voted, the
 * same button pressed.
 */
export function voteControl(frame: PageFrame, v: { boardSlug: string; post: PortalPost; voted: boolean }): SafeHtml {
  if (v.voted) return votedButton(v.post.voteCount);
  return html`<form class="vote" method="post" action="${frame.paths.vote(v.boardSlug, v.post.slug)}">${csrfField(frame)}${honeypot}${
    frame.viewer ? notifyMe(frame, 'this post') : ''
  }<button type="submit" class="vote-button" aria-pressed="false" title="Vote for this">${voteInside(v.post.voteCount)}</button></form>`;
}

/**
 * A list row's vote button: it submits the list's one form (`votesForm`) to its post's address, so the anti-forgery
 * field, the honeypot and the way back are written once a page, not once a row.
 */
export function listVoteButton(frame: PageFrame, boardSlug: string, post: PortalPost, voted: boolean): SafeHtml {
  if (voted) return votedButton(post.voteCount);
  return html`<p class="vote"><button type="submit" formaction="${frame.paths.vote(boardSlug, post.slug)}" class="vote-button" aria-pressed="false" title="Vote for this">${voteInside(post.voteCount)}</button></p>`;
}

/** A list of posts whose rows vote: one form around it, each row's button posting it to its own post. */
export const votesForm = (frame: PageFrame, returnTo: string, list: SafeHtml) =>
  html`<form class="votes" method="post">${csrfField(frame)}${honeypot}<input type="hidden" name="return" value="${returnTo}">${list}</form>`;

/** A post's vote count where the viewer may not vote: the same box, not a control. */
export const voteCount = (n: number) =>
  html`<p class="vote"><span class="vote-button"><span class="arrow" aria-hidden="true">▲</span><strong>${n}</strong><span class="sr-only"> ${n === 1 ? 'vote' : 'votes'}</span></span></p>`;
