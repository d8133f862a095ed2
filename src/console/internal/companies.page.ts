// The companies pages: the list (by revenue or newest, searched by name or domain) and a company's page (its revenue,
// its people, the posts they asked for and the posts they voted on).

import { CONSOLE_PATH, type CompanyActivity, type Team } from '../../engine/index.js';
import { html } from '../../h3/index.js';
import { COMPANY_SORTS, type Company, type CompanySort } from '../../schemas/companies.js';
import type { ContactListItem } from '../../schemas/contacts.js';
import { type Frame, money, page, pill, when } from './layout.js';

const SORT_LABELS: Record<CompanySort, string> = { mrr: 'Revenue', created: 'Newest' };

const revenue = (c: { mrrCents: number | null; currency: string | null }) =>
  c.mrrCents !== null && c.currency ? `${money(c.mrrCents, c.currency)} / month` : '';
const nameOf = (c: Company) => c.name ?? c.externalCompanyId;
const people = (n: number) => `${n.toLocaleString('en')} ${n === 1 ? 'person' : 'people'}`;

export function companiesPage(
  frame: Frame,
  team: Team,
  query: { q: string; sort: CompanySort },
  companies: Company[],
  next: string | null,
): string {
  const base = `${CONSOLE_PATH}/${team.organizationId}/companies`;
  const option = (value: string, text: string, selected: boolean) =>
    html`<option value="${value}"${selected ? html.raw` selected` : ''}>${text}</option>`;
  const body = html`<h1>Companies</h1>
<p class="muted">The paying accounts your contacts belong to, as your app identifies them. Impact counts each company once, however many of its people voted.</p>
<form class="filters" method="get" action="${base}" role="search">
<label><span class="sr-only">Search</span><input type="search" name="q" value="${query.q}" placeholder="Search by name or domain"></label>
<label>Sort <select name="sort">${COMPANY_SORTS.map((s) => option(s, SORT_LABELS[s], s === query.sort))}</select></label>
<button type="submit">Show</button></form>
${
  companies.length
    ? html`<table><thead><tr><th scope="col">Company</th><th scope="col">Plan</th><th scope="col" class="num">Revenue</th><th scope="col" class="num">People</th><th scope="col">Added</th></tr></thead>
<tbody>${companies.map(
        (c) =>
          html`<tr><td class="long"><a href="${base}/${c.id}" dir="auto">${nameOf(c)}</a>${c.domain ? html`<br><span class="muted">${c.domain}</span>` : ''}</td><td data-label="Plan">${c.plan ?? ''}</td><td class="num" data-label="Revenue">${revenue(c)}</td><td class="num" data-label="People">${c.memberCount.toLocaleString('en')}</td><td data-label="Added">${when(c.createdAt)}</td></tr>`,
      )}</tbody></table>`
    : html`<div class="empty"><p>${query.q ? 'No companies match.' : 'No companies yet. Your app names a contact’s companies when it identifies them (companies in POST /v1/contacts/identify).'}</p></div>`
}
${next ? html`<p class="pager"><a href="${base}?${new URLSearchParams({ q: query.q, sort: query.sort, cursor: next }).toString()}" rel="next">Next page</a></p>` : ''}`;
  return page(frame, body);
}

export function companyPage(
  frame: Frame,
  team: Team,
  a: CompanyActivity,
  members: { data: ContactListItem[]; nextCursor: string | null },
): string {
  const c = a.company;
  const base = `${CONSOLE_PATH}/${team.organizationId}`;
  const row = (label: string, value: unknown) =>
    html`<tr><th scope="row">${label}</th><td>${value === null || value === undefined || value === '' ? html`<span class="muted">none</span>` : String(value)}</td></tr>`;
  const postList = (list: CompanyActivity['voted'], voted: boolean) =>
    list.length
      ? html`<ul class="targets">${list.map((p) => html`<li><a href="${base}/posts/${p.id}" dir="auto">${p.title}</a> ${pill(p.status as never)} <span class="muted">${voted ? `${people(p.voters)} of ${p.voteCount.toLocaleString('en')} votes` : when(p.createdAt)}</span></li>`)}</ul>`
      : html`<p class="muted">None.</p>`;
  const body = html`<p class="crumbs"><a href="${base}/companies">Companies</a></p>
<h1 dir="auto">${nameOf(c)}</h1>
<div class="columns"><div>
<h2>Account</h2>
<table class="facts"><tbody>
${row('Revenue', revenue(c))}${row('Plan', c.plan)}${row('Domain', c.domain)}${row('Account id in your app', c.externalCompanyId)}
${Object.entries(c.metadata).map(([k, v]) => row(k, typeof v === 'string' ? v : JSON.stringify(v)))}
</tbody></table>
<h2>People <span class="muted">(${c.memberCount.toLocaleString('en')})</span></h2>
${
  members.data.length
    ? html`<ul class="targets">${members.data.map((m) => html`<li><a href="${base}/contacts/${m.id}" dir="auto">${m.name ?? m.email ?? m.externalUserId ?? m.id}</a>${m.name && m.email ? html` <span class="muted">${m.email}</span>` : ''}</li>`)}</ul>
${members.nextCursor ? html`<p class="muted">The newest ${members.data.length} of ${people(c.memberCount)}.</p>` : ''}`
    : html`<p class="muted">Nobody yet.</p>`
}
</div><div>
<h2>Voted for</h2>
${postList(a.voted, true)}
<h2>Asked for</h2>
${postList(a.asked, false)}
</div></div>`;
  return page(frame, body);
}
