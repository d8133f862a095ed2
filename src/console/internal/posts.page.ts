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
import { POST_STATUSES, type PostStatus } from '../../schemas/posts.js';
import { money, payersText, pill, when } from './layout.js';
import { say, sayHtml } from './words.js';

const label = (status: PostStatus) => say(`status.${status}`);

/** The query the page's filter form and links carry, read leniently: an unknown value is no filter. */
const sortLabel = (sort: TriageSort) => say(`console.posts.sort.${sort}`);

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
<label><span class="sr-only">${say('console.posts.search')}</span><input type="search" name="q" value="${query.q ?? ''}" placeholder="${say('console.posts.searchPlaceholder')}"></label>
<label>${say('console.posts.board')} <select name="board">${option('', say('console.posts.allBoards'), !query.boardId)}${boards.map((b) => option(b.id, b.name, b.id === query.boardId))}</select></label>
<label>${say('console.posts.status')} <select name="status">${option('', say('console.posts.anyStatus'), !query.status)}${POST_STATUSES.map((s) => option(s, label(s), s === query.status))}</select></label>
${tags.length ? html`<label>${say('console.posts.tag')} <select name="tag">${option('', say('console.posts.anyTag'), !query.tagId)}${tags.map((t) => option(t.id, t.name, t.id === query.tagId))}</select></label>` : ''}
<label>${say('console.posts.votersPlan')} <input name="plan" size="6" value="${query.voterPlan ?? ''}" title="${say('console.posts.votersPlanTitle')}"></label>
<label>${say('console.posts.companyPlan')} <input name="company_plan" size="6" value="${query.companyPlan ?? ''}" title="${say('console.posts.companyPlanTitle')}"></label>
<label>${say('console.posts.sort')} <select name="sort">${TRIAGE_SORTS.map((s) => option(s, sortLabel(s), s === (query.sort ?? 'votes')))}</select></label>
${currencies.length > 1 ? html`<label>${say('console.posts.currency')} <select name="currency">${currencies.map((c) => option(c, c, c === currency))}</select></label>` : ''}
<label class="check"><input type="checkbox" name="held" value="1"${query.held ? html.raw` checked` : ''}> ${say('console.posts.held')}</label>
${lastLook ? html`<label class="check"><input type="checkbox" name="new" value="1"${query.fresh ? html.raw` checked` : ''}> ${sayHtml('console.posts.newSince', { when: when(lastLook.toISOString(), 'minute') })}</label>` : ''}
<button type="submit">${say('console.posts.show')}</button>
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
        html`<span class="impact-line"><strong>${money(i.mrrCents, i.currency)}</strong> <span class="payers">${say('console.posts.from', { payers: payersText(i) })}</span></span>`,
    );

/** The bulk form's choices: a status, a tag to add, approve or reject held posts. */
export function bulkControls(tags: Named, boards: Named) {
  return html`<div class="bulk"><label for="bulk-action">${say('console.posts.withChosen')}</label>
<select id="bulk-action" name="action">
<optgroup label="${say('console.posts.setStatus')}">${POST_STATUSES.map((s) => html`<option value="status:${s}">${label(s)}</option>`)}</optgroup>
${tags.length ? html`<optgroup label="${say('console.posts.addTag')}">${tags.map((t) => html`<option value="tag:${t.id}">${t.name}</option>`)}</optgroup>` : ''}
${boards.length > 1 ? html`<optgroup label="${say('console.posts.moveTo')}">${boards.map((b) => html`<option value="move:${b.id}">${b.name}</option>`)}</optgroup>` : ''}
<optgroup label="${say('console.posts.moderation')}"><option value="approve">${say('console.posts.approve')}</option><option value="reject">${say('console.posts.reject')}</option></optgroup>
</select> <button type="submit">${say('console.posts.apply')}</button></div>`;
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
  const none =
    sort === 'impact'
      ? 'console.posts.noneImpact'
      : sort === 'trending'
        ? 'console.posts.noneTrending'
        : 'console.posts.none';
  if (posts.length === 0) return html`<p>${say(none)}</p>`;
  // The words every row repeats, said once.
  const words = {
    held: say('console.posts.heldMark'),
    board: say('console.posts.board'),
    votes: say('console.posts.votes'),
    impact: say('console.posts.impact'),
    comments: say('console.posts.comments'),
    created: say('console.posts.created'),
  };
  const tagName = new Map(tags.map((t) => [t.id, t.name]));
  const rows = html`<table class="posts cards">
<caption class="muted">${sayHtml('console.posts.caption', {}, { keys: (inside) => html`<span class="keys">${inside}</span>` })}</caption>
<thead><tr>${mayTriage ? html`<th scope="col"><span class="sr-only">${say('console.posts.choose')}</span></th>` : ''}<th scope="col">${say('console.posts.post')}</th><th scope="col">${words.board}</th><th scope="col">${say('console.posts.status')}</th><th scope="col" class="num">${words.votes}</th><th scope="col" class="num">${words.impact}</th><th scope="col" class="num">${words.comments}</th><th scope="col">${words.created}</th></tr></thead>
<tbody>${posts.map(
    (p) =>
      html`<tr>${mayTriage ? html`<td class="pick"><input type="checkbox" name="post" value="${p.id}" id="pick-${p.id}" aria-label="${say('console.posts.chooseOne', { title: p.title })}"></td>` : ''}<td class="title long"><a href="${CONSOLE_PATH}/${team.organizationId}/posts/${p.id}" dir="auto">${p.title}</a>${p.moderationStatus === 'pending' ? html` <span class="held">${words.held}</span>` : ''}${p.tagIds.map((id) => html` <span class="tag">${tagName.get(id) ?? ''}</span>`)}</td><td data-label="${words.board}">${p.boardName}</td><td>${pill(p.status)}</td><td class="num" data-label="${words.votes}">${p.voteCount}</td><td class="num impact" data-label="${words.impact}">${impactCell(p.impact)}</td><td class="num" data-label="${words.comments}">${p.commentCount}</td><td data-label="${words.created}">${when(p.createdAt)}</td></tr>`,
  )}</tbody>
</table>`;
  if (!mayTriage) return rows;
  return html`<form method="post" action="${CONSOLE_PATH}/${team.organizationId}/posts/bulk"><input type="hidden" name="csrf" value="${csrf}">${bulkControls(tags, boards)}${rows}</form>`;
}

/** A bulk form's action, or null when it is not one of the page's choices. */
