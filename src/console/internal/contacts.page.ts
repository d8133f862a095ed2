// The contacts pages: the list (sorted, searched, filtered by plan), a contact's page, adding one by hand, and the
// confirmation of a data-subject request.

import { allows, CONSOLE_PATH, type ConsoleKey, type ContactActivity, type Team } from '../../engine/index.js';
import { html } from '../../h3/index.js';
import { CONTACT_SORTS, type ContactListItem, type ContactSort } from '../../schemas/contacts.js';
import { csrfField, type Frame, money, page, when } from './layout.js';
import { say, sayHtml } from './words.js';

const SOURCES = ['identify', 'admin', 'public_post', 'public_vote', 'public_comment'];
const BASES = ['sdk_identify', 'public_interaction_opt_in', 'admin_created', 'legacy_inferred'];
/** What a source or consent basis means, in the words of the spec's table (nothing for one added later). */
const meaning = (kind: 'source' | 'basis', value: string) =>
  (kind === 'source' ? SOURCES : BASES).includes(value) ? say(`console.contacts.${kind}.${value}` as ConsoleKey) : '';

const revenue = (c: { mrrCents: number | null; currency: string | null }) =>
  c.mrrCents !== null && c.currency ? say('console.contacts.perMonth', { amount: money(c.mrrCents, c.currency) }) : '';

export function listPage(
  frame: Frame,
  team: Team,
  query: { q: string; plan: string; sort: ContactSort; currency: string | null },
  contacts: ContactListItem[],
  next: string | null,
  currencies: string[],
): string {
  const base = `${CONSOLE_PATH}/${team.organizationId}/contacts`;
  const option = (value: string, text: string, selected: boolean) =>
    html`<option value="${value}"${selected ? html.raw` selected` : ''}>${text}</option>`;
  const body = html`<h1>${say('console.contacts.heading')}</h1>
${allows(team.role, 'manage') ? html`<p><a href="${base}/new">${say('console.contacts.addByHand')}</a></p>` : ''}
<form class="filters" method="get" action="${base}" role="search">
<label><span class="sr-only">${say('console.contacts.search')}</span><input type="search" name="q" value="${query.q}" placeholder="${say('console.contacts.searchPlaceholder')}"></label>
<label>${say('console.contacts.plan')} <input name="plan" size="10" value="${query.plan}"></label>
<label>${say('console.contacts.sort')} <select name="sort">${CONTACT_SORTS.map((s) => option(s, say(`console.contacts.sort.${s}`), s === query.sort))}</select></label>
${currencies.length > 1 ? html`<label>${say('console.contacts.currency')} <select name="currency">${currencies.map((c) => option(c, c, c === query.currency))}</select></label>` : ''}
<button type="submit">${say('console.contacts.show')}</button></form>
${query.sort === 'mrr' && query.currency ? html`<p class="muted">${say('console.contacts.payingIn', { currency: query.currency })}</p>` : ''}
${
  contacts.length
    ? html`<table><thead><tr><th scope="col">${say('console.contacts.person')}</th><th scope="col">${say('console.contacts.plan')}</th><th scope="col" class="num">${say('console.contacts.revenue')}</th><th scope="col" class="num">${say('console.contacts.posts')}</th><th scope="col">${say('console.contacts.source')}</th><th scope="col">${say('console.contacts.lastSeen')}</th><th scope="col">${say('console.contacts.added')}</th></tr></thead>
<tbody>${contacts.map(
        (c) =>
          html`<tr><td><a href="${base}/${c.id}">${c.name ?? c.email ?? c.externalUserId ?? c.id}</a>${c.name && c.email ? html`<br><span class="muted">${c.email}</span>` : ''}</td><td>${c.plan ?? ''}</td><td class="num">${revenue(c)}</td><td class="num">${c.postCount}</td><td>${c.source}</td><td>${when(c.lastSeenAt)}</td><td>${when(c.createdAt)}</td></tr>`,
      )}</tbody></table>`
    : html`<p>${say('console.contacts.noMatch')}</p>`
}
${next ? html`<p class="pager"><a href="${base}?${new URLSearchParams({ q: query.q, plan: query.plan, sort: query.sort, ...(query.currency ? { currency: query.currency } : {}), cursor: next }).toString()}" rel="next">${say('console.contacts.next')}</a></p>` : ''}`;
  return page(frame, body);
}

export function contactPage(frame: Frame, team: Team, a: ContactActivity): string {
  const c = a.contact;
  const base = `${CONSOLE_PATH}/${team.organizationId}`;
  const row = (label: string, value: unknown) =>
    html`<tr><th scope="row">${label}</th><td>${value === null || value === undefined || value === '' ? html`<span class="muted">${say('console.contacts.none')}</span>` : String(value)}</td></tr>`;
  const metadata = Object.entries(c.metadata);
  const manage = allows(team.role, 'manage');
  const body = html`<p class="crumbs"><a href="${base}/contacts">${say('console.contacts.heading')}</a></p>
<h1>${c.name ?? c.email ?? c.externalUserId ?? c.id}</h1>
<div class="columns"><div>
<h2>${say('console.contacts.traits')}</h2>
<table class="facts"><tbody>
${row(say('console.contacts.email'), c.email)}${row(say('console.contacts.name'), c.name)}${row(say('console.contacts.userId'), c.externalUserId)}${row(say('console.contacts.plan'), c.plan)}${row(say('console.contacts.revenue'), revenue(c))}${row(say('console.contacts.language'), c.locale)}
${metadata.map(([k, v]) => row(k, typeof v === 'string' ? v : JSON.stringify(v)))}
</tbody></table>
<h2>${say('console.contacts.provenance')}</h2>
<table class="facts"><tbody>
<tr><th scope="row">${say('console.contacts.source')}</th><td><code>${c.source}</code> <span class="muted">${meaning('source', c.source)}</span></td></tr>
<tr><th scope="row">${say('console.contacts.basis')}</th><td><code>${c.consentBasis}</code> <span class="muted">${meaning('basis', c.consentBasis)}</span></td></tr>
<tr><th scope="row">${say('console.contacts.firstSeen')}</th><td>${when(c.firstSeenAt)}</td></tr><tr><th scope="row">${say('console.contacts.lastSeen')}</th><td>${when(c.lastSeenAt)}</td></tr>
</tbody></table>
</div><div>
<h2>${sayHtml('console.contacts.postsCount', { count: c.postCount })}</h2>
${a.posts.length ? html`<ul class="targets">${a.posts.map((p) => html`<li><a href="${base}/posts/${p.id}">${p.title}</a> <span class="muted">${when(p.createdAt)}</span></li>`)}</ul>` : html`<p class="muted">${say('console.contacts.noneYet')}</p>`}
<h2>${sayHtml('console.contacts.votesCount', { count: c.voteCount })}</h2>
${a.votes.length ? html`<ul class="targets">${a.votes.map((v) => html`<li><a href="${base}/posts/${v.postId}">${v.postTitle}</a> <span class="muted">${when(v.createdAt)}</span></li>`)}</ul>` : html`<p class="muted">${say('console.contacts.noneYet')}</p>`}
<h2>${sayHtml('console.contacts.commentsCount', { count: c.commentCount })}</h2>
${a.comments.length ? html`<ol class="comments">${a.comments.map((m) => html`<li><div class="body">${m.bodyText}</div><div class="meta"><a href="${base}/posts/${m.postId}">${say('console.contacts.onThePost')}</a> · ${when(m.createdAt)}</div></li>`)}</ol>` : html`<p class="muted">${say('console.contacts.noneYet')}</p>`}
</div></div>
${
  manage
    ? html`<section aria-labelledby="requests-h"><h2 id="requests-h">${say('console.contacts.requests')}</h2>
<p><a href="${base}/contacts/${c.id}/export">${say('console.contacts.exportLink')}</a> · <a href="${base}/contacts/${c.id}/erase">${say('console.contacts.eraseLink')}</a></p></section>`
    : ''
}`;
  return page(frame, body);
}

export interface NewContactState {
  drafts: Record<string, string>;
  refused: string | null;
}

export function newContactPage(frame: Frame, team: Team, state: NewContactState): string {
  const d = state.drafts;
  const field = (name: string, label: string, attrs = html``) =>
    html`<label for="c-${name}">${label}</label><input id="c-${name}" name="${name}" value="${d[name] ?? ''}"${attrs}>`;
  const body = html`<p class="crumbs"><a href="${CONSOLE_PATH}/${team.organizationId}/contacts">${say('console.contacts.heading')}</a></p>
<h1>${say('console.contacts.addByHand')}</h1>
<p>${sayHtml('console.contacts.newIntro')}</p>
${state.refused ? html`<p class="error" role="alert" id="contact-error">${state.refused}</p>` : ''}
<form method="post" action="${CONSOLE_PATH}/${team.organizationId}/contacts">${csrfField(frame)}
${field('email', say('console.contacts.email'), html.raw` type="email"`)}
${field('name', say('console.contacts.name'))}
${field('externalUserId', say('console.contacts.userIdOptional'))}
${field('plan', say('console.contacts.planOptional'))}
<div class="row">${field('mrr', say('console.contacts.mrrOptional'), html.raw` inputmode="decimal"`)}${field('currency', say('console.contacts.currencyExample'), html.raw` size="4" maxlength="3"`)}</div>
<label for="c-attestation">${say('console.contacts.attestation')}</label>
<textarea id="c-attestation" name="attestation" rows="3" required${state.refused ? html.raw` aria-describedby="contact-error"` : ''}>${d.attestation ?? ''}</textarea>
<p><button type="submit">${say('console.contacts.addSubmit')}</button></p>
</form>`;
  return page(frame, body, { narrow: true });
}

/** A confirmation page of a data-subject request: what it does, and the button (typed confirmation for erasure). */
export function requestPage(
  frame: Frame,
  team: Team,
  a: ContactActivity,
  kind: 'export' | 'erase',
  refused: string | null,
): string {
  const c = a.contact;
  const who = c.email ?? c.externalUserId ?? c.id;
  const action = `${CONSOLE_PATH}/${team.organizationId}/contacts/${c.id}/${kind}`;
  const body =
    kind === 'export'
      ? html`<h1>${say('console.contacts.exportHeading', { who })}</h1>
<p>${say('console.contacts.exportIntro')}</p>
<form method="post" action="${action}">${csrfField(frame)}<p><button type="submit">${say('console.contacts.download')}</button> <a href="${CONSOLE_PATH}/${team.organizationId}/contacts/${c.id}">${say('console.contacts.cancel')}</a></p></form>`
      : html`<h1>${say('console.contacts.eraseHeading', { who })}</h1>
<p>${sayHtml('console.contacts.eraseIntro')}</p>
${refused ? html`<p class="error" role="alert" id="erase-error">${refused}</p>` : ''}
<form method="post" action="${action}">${csrfField(frame)}
<label for="confirm">${sayHtml('console.contacts.typeErase')}</label><input id="confirm" name="confirm" autocomplete="off" required${refused ? html.raw` aria-invalid="true" aria-describedby="erase-error"` : ''}>
<p><button type="submit">${say('console.contacts.eraseSubmit')}</button> <a href="${CONSOLE_PATH}/${team.organizationId}/contacts/${c.id}">${say('console.contacts.cancel')}</a></p></form>`;
  return page(frame, body, { narrow: true });
}
