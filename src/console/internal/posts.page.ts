// The posts page: every board posts in one table, its filters, sorts and bulk controls.

import {
  CONSOLE_PATH,
  type Impact,
  type Team,
  TRIAGE_SORTS,
  type TriagePost,
  type TriageQuery,
  type TriageSort,
} from '../../engine/index.js';
import { html } from '../../h3/index.js';
import { POST_STATUS_LABELS, POST_STATUSES, type PostStatus } from '../../schemas/posts.js';
import { money, payersText, pill, when } from './layout.js';

export const label = (status: PostStatus) => POST_STATUS_LABELS[status];

/** The query the page's filter form and links carry, read leniently: an unknown value is no filter. */
export const SORT_LABELS: Record<TriageSort, string> = {
  votes: 'Most votes',
  newest: 'Newest',
  trending: 'Trending (7 days)',
  impact: 'Impact (revenue)',
};

export type Named = Array<{ id: string; name: string }>;

export function filters(
  team: Team,
  query: TriageQuery & { fresh?: boolean },
  boards: Named,
  tags: Named,
  currencies: string[],
  currency: string | null,
  lastLook: Date | null,
) {
  const option = (value: string, text: string, selected: boolean) =>
    html`<option value="${value}"${selected ? html.raw` selected` : ''}>${text}</option>`;
  return html`<form class="filters" method="get" action="${CONSOLE_PATH}/${team.organizationId}/posts" role="search">
<label><span class="sr-only">Search</span><input type="search" name="q" value="${query.q ?? ''}" placeholder="Search posts"></label>
<label>Board <select name="board">${option('', 'All boards', !query.boardId)}${boards.map((b) => option(b.id, b.name, b.id === query.boardId))}</select></label>
<label>Status <select name="status">${option('', 'Any status', !query.status)}${POST_STATUSES.map((s) => option(s, label(s), s === query.status))}</select></label>
${tags.length ? html`<label>Tag <select name="tag">${option('', 'Any tag', !query.tagId)}${tags.map((t) => option(t.id, t.name, t.id === query.tagId))}</select></label>` : ''}
<label>Voters' plan <input name="plan" size="6" value="${query.voterPlan ?? ''}" title="Posts someone on this plan voted for"></label>
<label>Company plan <input name="company_plan" size="6" value="${query.companyPlan ?? ''}" title="Posts someone of a company on this plan voted for"></label>
<label>Sort <select name="sort">${TRIAGE_SORTS.map((s) => option(s, SORT_LABELS[s], s === (query.sort ?? 'votes')))}</select></label>
${currencies.length > 1 ? html`<label>Currency <select name="currency">${currencies.map((c) => option(c, c, c === currency))}</select></label>` : ''}
<label class="check"><input type="checkbox" name="held" value="1"${query.held ? html.raw` checked` : ''}> Held</label>
${lastLook ? html`<label class="check"><input type="checkbox" name="new" value="1"${query.fresh ? html.raw` checked` : ''}> New since my last look <span class="muted">(${when(lastLook.toISOString(), 'minute')} UTC)</span></label>` : ''}
<button type="submit">Show</button>
</form>`;
}

/**
 * A post's impact in a list cell: each currency's revenue on a line of its own, and whom it comes from in small type
 * ("$24,000.00 from 6 companies and 3 people"); amounts of different currencies are never added.
 */
export const impactCell = (impact: Impact[]) =>
  impact
    .filter((i) => i.mrrCents > 0)
    .map(
      (i) =>
        html`<span class="impact-line"><strong>${money(i.mrrCents, i.currency)}</strong> <span class="payers">from ${payersText(i)}</span></span>`,
    );

/** The bulk form's choices: a status, a tag to add, approve or reject held posts. */
export function bulkControls(tags: Named, boards: Named) {
  return html`<div class="bulk"><label for="bulk-action">With the chosen posts</label>
<select id="bulk-action" name="action">
<optgroup label="Set the status">${POST_STATUSES.map((s) => html`<option value="status:${s}">${label(s)}</option>`)}</optgroup>
${tags.length ? html`<optgroup label="Add a tag">${tags.map((t) => html`<option value="tag:${t.id}">${t.name}</option>`)}</optgroup>` : ''}
${boards.length > 1 ? html`<optgroup label="Move to the board">${boards.map((b) => html`<option value="move:${b.id}">${b.name}</option>`)}</optgroup>` : ''}
<optgroup label="Held for moderation"><option value="approve">Approve</option><option value="reject">Reject as spam</option></optgroup>
</select> <button type="submit">Apply</button></div>`;
}

export function table(
  team: Team,
  posts: Array<TriagePost & { impact: Impact[]; tagIds: string[] }>,
  sort: string,
  tags: Named,
  boards: Named,
  mayTriage: boolean,
  csrf: string,
) {
  const none: Record<string, string> = {
    impact: 'No post matches with paying voters in this currency. Sort by votes to see every post.',
    trending: 'No post that matches got a vote in the last 7 days. Sort by votes to see every post.',
  };
  if (posts.length === 0) return html`<p>${none[sort] ?? 'No posts match.'}</p>`;
  const tagName = new Map(tags.map((t) => [t.id, t.name]));
  const rows = html`<table class="posts cards">
<caption class="muted">Posts of every board <span class="keys">(keys: j and k move, x ticks, Enter opens, / searches)</span></caption>
<thead><tr>${mayTriage ? html`<th scope="col"><span class="sr-only">Choose</span></th>` : ''}<th scope="col">Post</th><th scope="col">Board</th><th scope="col">Status</th><th scope="col" class="num">Votes</th><th scope="col" class="num">Impact</th><th scope="col" class="num">Comments</th><th scope="col">Created</th></tr></thead>
<tbody>${posts.map(
    (p) =>
      html`<tr>${mayTriage ? html`<td class="pick"><input type="checkbox" name="post" value="${p.id}" id="pick-${p.id}" aria-label="Choose ${p.title}"></td>` : ''}<td class="title long"><a href="${CONSOLE_PATH}/${team.organizationId}/posts/${p.id}" dir="auto">${p.title}</a>${p.moderationStatus === 'pending' ? html` <span class="held">held</span>` : ''}${p.tagIds.map((id) => html` <span class="tag">${tagName.get(id) ?? ''}</span>`)}</td><td data-label="Board">${p.boardName}</td><td>${pill(p.status)}</td><td class="num" data-label="Votes">${p.voteCount}</td><td class="num impact" data-label="Impact">${impactCell(p.impact)}</td><td class="num" data-label="Comments">${p.commentCount}</td><td data-label="Created">${when(p.createdAt)}</td></tr>`,
  )}</tbody>
</table>`;
  if (!mayTriage) return rows;
  return html`<form method="post" action="${CONSOLE_PATH}/${team.organizationId}/posts/bulk"><input type="hidden" name="csrf" value="${csrf}">${bulkControls(tags, boards)}${rows}</form>`;
}

/** A bulk form's action, or null when it is not one of the page's choices. */
