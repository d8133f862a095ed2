// The companies pages: the list (by revenue or newest, searched by name or domain) and a company's page (its revenue,
// its people, the posts they asked for and the posts they voted on).

import { CONSOLE_PATH, type CompanyActivity, type Team } from '../../engine/index.js';
import { html } from '../../h3/index.js';
import { COMPANY_SORTS, type Company, type CompanySort } from '../../schemas/companies.js';
import type { ContactListItem } from '../../schemas/contacts.js';
import { type Frame, money, page, pill, when } from './layout.js';
import { say, sayHtml } from './words.js';

type CompanySortKey = `console.companies.sort.${CompanySort}`;

const revenue = (c: { mrrCents: number | null; currency: string | null }) =>
  c.mrrCents !== null && c.currency ? say('console.contacts.perMonth', { amount: money(c.mrrCents, c.currency) }) : '';
const nameOf = (c: Company) => c.name ?? c.externalCompanyId;
const people = (n: number) => say('console.companies.people', { count: n });

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
  const body = html`<h1>${say('console.companies.heading')}</h1>
<p class="muted">${say('console.companies.intro')}</p>
<form class="filters" method="get" action="${base}" role="search">
<label><span class="sr-only">${say('console.contacts.search')}</span><input type="search" name="q" value="${query.q}" placeholder="${say('console.companies.searchPlaceholder')}"></label>
<label>${say('console.contacts.sort')} <select name="sort">${COMPANY_SORTS.map((s) => option(s, say(`console.companies.sort.${s}` as CompanySortKey), s === query.sort))}</select></label>
<button type="submit">${say('console.contacts.show')}</button></form>
${
  companies.length
    ? html`<table><thead><tr><th scope="col">${say('console.companies.company')}</th><th scope="col">${say('console.contacts.plan')}</th><th scope="col" class="num">${say('console.contacts.revenue')}</th><th scope="col" class="num">${say('console.companies.peopleColumn')}</th><th scope="col">${say('console.contacts.added')}</th></tr></thead>
<tbody>${companies.map(
        (c) =>
          html`<tr><td class="long"><a href="${base}/${c.id}" dir="auto">${nameOf(c)}</a>${c.domain ? html`<br><span class="muted">${c.domain}</span>` : ''}</td><td data-label="${say('console.contacts.plan')}">${c.plan ?? ''}</td><td class="num" data-label="${say('console.contacts.revenue')}">${revenue(c)}</td><td class="num" data-label="${say('console.companies.peopleColumn')}">${c.memberCount.toLocaleString('en')}</td><td data-label="${say('console.contacts.added')}">${when(c.createdAt)}</td></tr>`,
      )}</tbody></table>`
    : html`<div class="empty"><p>${say(query.q ? 'console.companies.noMatch' : 'console.companies.none')}</p></div>`
}
${next ? html`<p class="pager"><a href="${base}?${new URLSearchParams({ q: query.q, sort: query.sort, cursor: next }).toString()}" rel="next">${say('console.contacts.next')}</a></p>` : ''}`;
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
    html`<tr><th scope="row">${label}</th><td>${value === null || value === undefined || value === '' ? html`<span class="muted">${say('console.contacts.none')}</span>` : String(value)}</td></tr>`;
  const postList = (list: CompanyActivity['voted'], voted: boolean) =>
    list.length
      ? html`<ul class="targets">${list.map((p) => html`<li><a href="${base}/posts/${p.id}" dir="auto">${p.title}</a> ${pill(p.status as never)} <span class="muted">${voted ? say('console.companies.voters', { people: people(p.voters), votes: p.voteCount }) : when(p.createdAt)}</span></li>`)}</ul>`
      : html`<p class="muted">${say('console.contacts.noneYet')}</p>`;
  const body = html`<p class="crumbs"><a href="${base}/companies">${say('console.companies.heading')}</a></p>
<h1 dir="auto">${nameOf(c)}</h1>
<div class="columns"><div>
<h2>${say('console.companies.account')}</h2>
<table class="facts"><tbody>
${row(say('console.contacts.revenue'), revenue(c))}${row(say('console.contacts.plan'), c.plan)}${row(say('console.companies.domain'), c.domain)}${row(say('console.companies.accountId'), c.externalCompanyId)}
${Object.entries(c.metadata).map(([k, v]) => row(k, typeof v === 'string' ? v : JSON.stringify(v)))}
</tbody></table>
<h2>${sayHtml('console.companies.peopleCount', { count: c.memberCount })}</h2>
${
  members.data.length
    ? html`<ul class="targets">${members.data.map((m) => html`<li><a href="${base}/contacts/${m.id}" dir="auto">${m.name ?? m.email ?? m.externalUserId ?? m.id}</a>${m.name && m.email ? html` <span class="muted">${m.email}</span>` : ''}</li>`)}</ul>
${members.nextCursor ? html`<p class="muted">${say('console.companies.newest', { shown: members.data.length, people: people(c.memberCount) })}</p>` : ''}`
    : html`<p class="muted">${say('console.companies.nobody')}</p>`
}
</div><div>
<h2>${say('console.companies.voted')}</h2>
${postList(a.voted, true)}
<h2>${say('console.companies.asked')}</h2>
${postList(a.asked, false)}
</div></div>`;
  return page(frame, body);
}
