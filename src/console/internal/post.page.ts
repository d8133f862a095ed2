// A post page: its status, tags, board, moderation, voters, comments, notes, edit and merge forms.

import {
  allows,
  CONSOLE_PATH,
  FREE_VOTERS,
  type Impact,
  type PossibleDuplicate,
  type Team,
  TRIAGE_POST_LIMITS,
  type TriagePost,
  type TriagePostDetail,
  type TriageVoter,
} from '../../engine/index.js';
import { html, type SafeHtml } from '../../h3/index.js';
import { POST_STATUSES, type PostStatus } from '../../schemas/posts.js';
import { avatar, csrfField, type Frame, money, page, payersText, pill, when } from './layout.js';
import { issuesSection, type PostIssues } from './post-issues.page.js';
import { say, sayHtml } from './words.js';

export interface Refused {
  section: 'status' | 'tags' | 'board' | 'reply' | 'internal' | 'edit' | 'merge' | 'moderate' | 'issues';
  message: string;
  drafts: Record<string, string>;
}

export const impactLine = (impact: Impact[]) => {
  const paying = impact.filter((i) => i.mrrCents > 0);
  return paying.length
    ? html`<p class="impact">${sayHtml('console.post.impact', {
        lines: paying
          .map((i) => say('console.post.impactLine', { amount: money(i.mrrCents, i.currency), payers: payersText(i) }))
          .join(' · '),
      })}</p>`
    : html`<p class="impact muted">${say('console.post.noPaying')}</p>`;
};

export const errorFor = (refused: Refused | null, section: Refused['section']) =>
  refused?.section === section ? html`<p class="error" role="alert" id="${section}-error">${refused.message}</p>` : '';

export const invalid = (refused: Refused | null, section: Refused['section']) =>
  refused?.section === section ? html.raw` aria-invalid="true" aria-describedby="${section}-error"` : '';

export function statusForm(base: string, frame: Frame, d: TriagePostDetail, refused: Refused | null): SafeHtml {
  const current = (refused?.drafts.status as PostStatus | undefined) ?? d.post.status;
  return html`<section aria-labelledby="status-h"><h2 id="status-h">${say('console.post.status')}</h2>
<form method="post" action="${base}/status" data-inline>${csrfField(frame)}
<label for="status">${say('console.post.setStatus')}</label>
<select id="status" name="status">${POST_STATUSES.map((s) => html`<option value="${s}"${s === current ? html.raw` selected` : ''}>${say(`status.${s}`)}</option>`)}</select>
<label for="status-note">${sayHtml('console.post.publicNote')}</label>
<textarea id="status-note" name="note" rows="3"${invalid(refused, 'status')}>${refused?.drafts.note ?? ''}</textarea>
${errorFor(refused, 'status')}
<p><button type="submit">${say('console.post.changeStatus')}</button></p>
</form></section>`;
}

export function tagsForm(
  base: string,
  frame: Frame,
  d: TriagePostDetail,
  tags: Array<{ id: string; name: string }>,
  mayTriage: boolean,
  refused: Refused | null,
): SafeHtml | '' {
  if (tags.length === 0) return '';
  const carried = new Set(d.tagIds);
  if (!mayTriage)
    return carried.size
      ? html`<p>${tags.filter((t) => carried.has(t.id)).map((t) => html`<span class="tag">${t.name}</span> `)}</p>`
      : '';
  return html`<section aria-labelledby="tags-h"><h2 id="tags-h">${say('console.post.tags')}</h2>
<form method="post" action="${base}/tags">${csrfField(frame)}<fieldset class="tags"><legend class="sr-only">${say('console.post.tagsLegend')}</legend>
${tags.map((t) => html`<label class="check"><input type="checkbox" name="tag" value="${t.id}"${carried.has(t.id) ? html.raw` checked` : ''}> ${t.name}</label>`)}
</fieldset>${errorFor(refused, 'tags')}<p><button type="submit" class="secondary">${say('console.post.saveTags')}</button></p></form></section>`;
}

export function boardForm(
  base: string,
  frame: Frame,
  d: TriagePostDetail,
  boards: Array<{ id: string; name: string }>,
  refused: Refused | null,
): SafeHtml | '' {
  if (boards.length < 2) return '';
  return html`<form method="post" action="${base}/board" class="inline board">${csrfField(frame)}<label for="move-board">${say('console.post.board')}</label> <select id="move-board" name="board">${boards.map(
    (b) => html`<option value="${b.id}"${b.id === d.post.boardId ? html.raw` selected` : ''}>${b.name}</option>`,
  )}</select> <button type="submit" class="secondary">${say('console.post.move')}</button>${errorFor(refused, 'board')}</form>`;
}

export function moderation(base: string, frame: Frame, d: TriagePostDetail, refused: Refused | null): SafeHtml | '' {
  if (d.post.moderationStatus !== 'pending') return '';
  return html`<section aria-labelledby="held-h" class="held-box"><h2 id="held-h">${say('console.post.held')}</h2>
<p>${say('console.post.heldText')}</p>
<form method="post" action="${base}/moderate" class="inline">${csrfField(frame)}
<button type="submit" name="decision" value="approved">${say('console.post.approve')}</button> <button type="submit" name="decision" value="spam" class="secondary">${say('console.post.reject')}</button>
</form>${errorFor(refused, 'moderate')}</section>`;
}

/** Who a person is, as the console names them: their name, else their address, else that the vote is not linked. */
/** The companies a voter belongs to, each a link to its page. */
const companiesOf = (org: string, v: TriageVoter) =>
  v.companies.map(
    (c, n) =>
      html`${n ? ', ' : ''}<a class="company" href="${CONSOLE_PATH}/${org}/companies/${c.id}" dir="auto">${c.name ?? c.externalCompanyId}</a>`,
  );

const person = (v: TriageVoter, org: string) =>
  html`<span class="person">${avatar(v.name ?? v.email ?? '?')}<span><span dir="auto">${v.name ?? v.email ?? say('console.post.notLinked')}</span>${v.name && v.email ? html`<br><span class="muted">${v.email}</span>` : ''}${v.companies.length ? html`<br>${companiesOf(org, v)}` : ''}</span></span>`;

const revenue = (v: Pick<TriageVoter, 'mrrCents' | 'currency'>) =>
  v.mrrCents && v.currency
    ? say('console.post.perMonth', { amount: money(v.mrrCents, v.currency) })
    : say('console.post.paysNothing');

/** Who asked: the contact who wrote the post (name, address, plan, revenue), or the name they gave on the portal. */
export function author(d: TriagePostDetail): SafeHtml {
  const { name, contact } = d.author;
  const org = d.post.organizationId;
  return html`<section aria-labelledby="author-h" class="card panel"><h2 id="author-h">${say('console.post.askedBy')}</h2>
${
  contact
    ? html`${person({ ...contact, name: contact.name ?? name, companies: [] }, org)}<dl class="facts"><dt>${say('console.post.plan')}</dt><dd>${contact.plan ?? say('console.post.none')}</dd><dt>${say('console.post.revenue')}</dt><dd>${revenue(contact)}</dd>${contact.companies.length ? html`<dt>${say('console.post.companies', { count: contact.companies.length })}</dt><dd>${companiesOf(org, contact)}</dd>` : ''}</dl>`
    : html`<p class="muted">${name ? sayHtml('console.post.nameNotLinked', { name }, { who: (inside) => html`<span dir="auto">${inside}</span>` }) : say('console.post.byTeam')}</p>`
}</section>`;
}

/** The label of a group of voters: a currency's payers, or those who pay nothing. */
const groupLabel = (group: string) =>
  group === FREE_VOTERS ? say('console.post.notPaying') : say('console.post.payingIn', { currency: group });

/**
 * The post's voters, a page at a time, in groups: each currency's payers by revenue (amounts of different currencies
 * are never ranked together), then those who pay nothing. The group links and the next page keep the page's address.
 */
export function voters(base: string, d: TriagePostDetail): SafeHtml {
  const page = d.voters;
  const href = (group: string, cursor?: string) =>
    `${base}?voters=${encodeURIComponent(group)}${cursor ? `&voters_cursor=${encodeURIComponent(cursor)}` : ''}#voters-h`;
  const tabs = page.groups.map(
    (g) =>
      html`<li><a href="${href(g.group)}"${g.group === page.group ? html.raw` aria-current="true"` : ''}>${groupLabel(g.group)} <span class="count">${g.voters.toLocaleString('en')}</span></a></li>`,
  );
  const rows = page.data.map(
    (v) =>
      html`<tr><td>${person(v, d.post.organizationId)}</td><td class="num" data-label="${say('console.post.revenue')}">${v.mrrCents && v.currency ? html`<strong>${money(v.mrrCents, v.currency)}</strong>` : ''}${v.plan ? html`<br><span class="muted">${v.plan}</span>` : ''}</td></tr>`,
  );
  return html`<section aria-labelledby="voters-h"><h2 id="voters-h">${say('console.post.voters', { count: d.post.voteCount })}</h2>
${impactLine(d.impact)}
${page.groups.length > 1 ? html`<nav aria-label="${say('console.post.byCurrency')}"><ul class="segments">${tabs}</ul></nav>` : ''}
${
  page.data.length
    ? html`<table class="voters"><thead><tr><th scope="col">${say('console.post.voter')}</th><th scope="col" class="num">${say('console.post.revenuePlan')}</th></tr></thead><tbody>${rows}</tbody></table>
${page.nextCursor ? html`<p class="pager"><a href="${href(page.group)}">${say('console.post.first')}</a><a href="${href(page.group, page.nextCursor)}" rel="next">${say('console.post.nextVoters', { count: TRIAGE_POST_LIMITS.voters })}</a></p>` : ''}`
    : html`<p class="muted">${say('console.post.noVotes')}</p>`
}
</section>`;
}

export function comments(
  base: string,
  frame: Frame,
  d: TriagePostDetail,
  mayTriage: boolean,
  refused: Refused | null,
): SafeHtml {
  const words = {
    team: say('console.post.team'),
    theTeam: say('console.post.theTeam'),
    official: say('console.post.officialReply'),
    anonymous: say('console.post.anonymous'),
    inReply: say('console.post.inReply'),
  };
  const list = d.comments.map(
    (c) =>
      html`<li class="${c.official ? 'official' : ''}" id="${c.id}"><div class="meta">${avatar(c.authorName ?? (c.official ? words.team : '?'))}${c.official ? html`<strong>${c.authorName ?? words.theTeam}</strong> <span class="badge">${words.official}</span>` : html`<strong dir="auto">${c.authorName ?? words.anonymous}</strong>`} · ${when(c.createdAt, 'minute')}${c.parentId ? html` · <a href="#${c.parentId}">${words.inReply}</a>` : ''}</div><div class="body" dir="auto">${c.bodyText}</div></li>`,
  );
  return html`<section aria-labelledby="comments-h"><h2 id="comments-h">${say('console.post.comments', { count: d.post.commentCount })}</h2>
${d.comments.length ? html`<ol class="comments">${list}</ol>` : html`<p class="muted">${say('console.post.noComments')}</p>`}
${
  mayTriage
    ? html`<form method="post" action="${base}/reply">${csrfField(frame)}
<label for="reply">${sayHtml('console.post.replyAsTeam')}</label>
<textarea id="reply" name="text" rows="3" required${invalid(refused, 'reply')}>${refused?.drafts.reply ?? ''}</textarea>
${errorFor(refused, 'reply')}
<p><button type="submit">${say('console.post.postReply')}</button></p>
</form>`
    : ''
}</section>`;
}

export function notes(
  base: string,
  frame: Frame,
  d: TriagePostDetail,
  mayTriage: boolean,
  refused: Refused | null,
): SafeHtml {
  return html`<section aria-labelledby="notes-h" class="notes"><h2 id="notes-h">${say('console.post.notes')}</h2>
<p class="muted">${say('console.post.notesText')}</p>
${d.notes.length ? html`<ol class="comments">${d.notes.map((n) => html`<li id="${n.id}"><div class="meta">${n.authorEmail} · ${when(n.createdAt, 'minute')}</div><div class="body">${n.bodyText}</div></li>`)}</ol>` : ''}
${
  mayTriage
    ? html`<form method="post" action="${base}/notes">${csrfField(frame)}
<label for="internal">${say('console.post.addNote')}</label>
<textarea id="internal" name="text" rows="2" required${invalid(refused, 'internal')}>${refused?.drafts.internal ?? ''}</textarea>
${errorFor(refused, 'internal')}
<p><button type="submit" class="secondary">${say('console.post.addNoteSubmit')}</button></p>
</form>`
    : ''
}</section>`;
}

export function editForm(base: string, frame: Frame, d: TriagePostDetail, refused: Refused | null): SafeHtml {
  return html`<details${refused?.section === 'edit' ? html.raw` open` : ''}><summary>${say('console.post.edit')}</summary>
<form method="post" action="${base}/edit">${csrfField(frame)}
<label for="title">${say('console.post.title')}</label>
<input id="title" name="title" required maxlength="200" value="${refused?.drafts.title ?? d.post.title}"${invalid(refused, 'edit')}>
<label for="body">${sayHtml('console.post.text')}</label>
<textarea id="body" name="body" rows="6">${refused?.drafts.body ?? d.post.bodyText}</textarea>
${errorFor(refused, 'edit')}
<p><button type="submit">${say('console.post.save')}</button></p>
</form></details>`;
}

export function mergeForm(
  base: string,
  frame: Frame,
  q: string,
  found: TriagePost[] | null,
  refused: Refused | null,
): SafeHtml {
  return html`<details${q || refused?.section === 'merge' ? html.raw` open` : ''}><summary>${say('console.post.merge')}</summary>
<p class="muted">${say('console.post.mergeText')}</p>
<form method="get" action="${base}" role="search"><label for="merge-q">${say('console.post.findKeep')}</label> <input id="merge-q" type="search" name="merge_q" value="${q}"> <button type="submit" class="secondary">${say('console.post.find')}</button></form>
${errorFor(refused, 'merge')}
${
  found === null
    ? ''
    : found.length
      ? html`<ul class="targets">${found.map(
          (t) =>
            html`<li><form method="post" action="${base}/merge" class="inline">${csrfField(frame)}<input type="hidden" name="into" value="${t.id}">${t.title} <span class="muted">${say('console.post.mergeMeta', { board: t.boardName, votes: say('console.votes', { count: t.voteCount }) })}</span> <button type="submit" class="secondary">${sayHtml('console.post.mergeInto', { title: t.title })}</button></form></li>`,
        )}</ul>`
      : html`<p>${say('console.post.noOther')}</p>`
}</details>`;
}

/** The posts most alike this one: for a role that may triage, merge into one, or say it is not a duplicate. */
function duplicatesList(
  base: string,
  frame: Frame,
  team: Team,
  found: PossibleDuplicate[],
  mayTriage: boolean,
): SafeHtml {
  if (found.length === 0) return html``;
  const href = (id: string) => `${CONSOLE_PATH}/${team.organizationId}/posts/${id}`;
  return html`<section aria-labelledby="dup-h"><h2 id="dup-h">${say('console.post.duplicates')}</h2><ul class="targets">${found.map(
    ({ post: t, score }) =>
      html`<li><a href="${href(t.id)}">${t.title}</a> <span class="muted">${say('console.post.duplicateMeta', { board: t.boardName, votes: say('console.votes', { count: t.voteCount }), score: Math.round(score * 100) / 100 })}</span>${
        mayTriage
          ? html`<div><form method="post" action="${base}/merge" class="inline">${csrfField(frame)}<input type="hidden" name="into" value="${t.id}"><button type="submit" class="secondary">${sayHtml('console.post.mergeInto', { title: t.title })}</button></form> <form method="post" action="${base}/not-duplicate" class="inline">${csrfField(frame)}<input type="hidden" name="other" value="${t.id}"><button type="submit" class="secondary">${sayHtml('console.post.notDuplicate', { title: t.title })}</button></form></div>`
          : ''
      }</li>`,
  )}</ul></section>`;
}

/** The post page: everything of the post, and for a role that may triage, every action on it. */
export function postPage(
  frame: Frame,
  team: Team,
  d: TriagePostDetail,
  options: {
    merge: { q: string; found: TriagePost[] | null };
    refused: Refused | null;
    tags: Array<{ id: string; name: string }>;
    boards: Array<{ id: string; name: string }>;
    duplicates: PossibleDuplicate[];
    issues: PostIssues;
  },
): string {
  const base = `${CONSOLE_PATH}/${team.organizationId}/posts/${d.post.id}`;
  const mayTriage = allows(team.role, 'triage');
  const p = d.post;
  const { refused } = options;
  const link = (href: string) => (inside: SafeHtml) => html`<a href="${href}">${inside}</a>`;
  const meta = { votes: say('console.votes', { count: p.voteCount }), created: when(p.createdAt) };
  const body = html`<p class="crumbs">${sayHtml('console.post.crumbs', { board: d.boardName }, { posts: link(`${CONSOLE_PATH}/${team.organizationId}/posts`) })}</p>
<h1 dir="auto" class="long">${p.title}</h1>
<p class="meta">${pill(p.status)} <span class="muted">${sayHtml('console.post.meta', { ...meta, spam: p.moderationStatus === 'spam' ? 'yes' : 'no' })}</span></p>
${d.mergedInto ? html`<p class="notice">${sayHtml('console.post.mergedInto', { title: d.mergedInto.title }, { link: link(`${CONSOLE_PATH}/${team.organizationId}/posts/${d.mergedInto.id}`) })}</p>` : ''}
${mayTriage ? moderation(base, frame, d, refused) : ''}
${p.bodyText ? html`<div class="post-body" dir="auto">${p.bodyText}</div>` : html`<p class="muted">${say('console.post.noText')}</p>`}
${mayTriage ? '' : html`${refused ? html`<p class="error" role="alert">${refused.message}</p>` : ''}<p class="muted">${say('console.post.readOnly', { role: team.role })}</p>`}
<div class="columns"><div>
${mayTriage ? statusForm(base, frame, d, refused) : ''}
${tagsForm(base, frame, d, options.tags, mayTriage, refused)}
${mayTriage ? boardForm(base, frame, d, options.boards, refused) : ''}
${issuesSection(base, frame, team, options.issues, p.title, mayTriage, errorFor(refused, 'issues'))}
${comments(base, frame, d, mayTriage, refused)}
${notes(base, frame, d, mayTriage, refused)}
${mayTriage ? editForm(base, frame, d, refused) : ''}
${d.mergedInto ? '' : duplicatesList(base, frame, team, options.duplicates, mayTriage)}
${mayTriage && !d.mergedInto ? mergeForm(base, frame, options.merge.q, options.merge.found, refused) : ''}
</div><div class="aside-first">${author(d)}${voters(base, d)}</div></div>`;
  return page(frame, body);
}

/**
 * One of the post page's forms: the section its refusals show in, the action (what it answers with, a word of DONE),
 * and the fields shown back after a refusal (draft name: form field).
 */
