// The contacts pages: the list (sorted, searched, filtered by plan), a contact's page, adding one by hand, and the
// confirmation of a data-subject request.

import { allows, CONSOLE_PATH, type ContactActivity, type Team } from '../../engine/index.js';
import { html } from '../../h3/index.js';
import { CONTACT_SORTS, type ContactListItem, type ContactSort } from '../../schemas/contacts.js';
import { csrfField, type Frame, money, page, when } from './layout.js';

const SORT_LABELS: Record<ContactSort, string> = { mrr: 'Revenue', created: 'Newest', last_seen: 'Last seen' };

/** What each source and consent basis means, in the words of the spec's table. */
const SOURCES: Record<string, string> = {
  identify: 'the workspace’s app identified them',
  admin: 'an admin of the workspace added them by hand',
  public_post: 'they posted on the portal and ticked the opt-in',
  public_vote: 'they voted on the portal and ticked the opt-in',
  public_comment: 'they commented on the portal and ticked the opt-in',
};
const BASES: Record<string, string> = {
  sdk_identify: 'the workspace’s app established consent before identifying them',
  public_interaction_opt_in: 'they opted in on the portal: mail only about what they asked for',
  admin_created: 'an admin attested a lawful basis (see the audit log); mailed only where the workspace turned that on',
  legacy_inferred: 'inferred from history: treated as suppressed for updates',
};

const revenue = (c: { mrrCents: number | null; currency: string | null }) =>
  c.mrrCents !== null && c.currency ? `${money(c.mrrCents, c.currency)} / month` : '';

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
  const body = html`<h1>Contacts</h1>
${allows(team.role, 'manage') ? html`<p><a href="${base}/new">Add a contact by hand</a></p>` : ''}
<form class="filters" method="get" action="${base}" role="search">
<label><span class="sr-only">Search</span><input type="search" name="q" value="${query.q}" placeholder="Search by email or name"></label>
<label>Plan <input name="plan" size="10" value="${query.plan}"></label>
<label>Sort <select name="sort">${CONTACT_SORTS.map((s) => option(s, SORT_LABELS[s], s === query.sort))}</select></label>
${currencies.length > 1 ? html`<label>Currency <select name="currency">${currencies.map((c) => option(c, c, c === query.currency))}</select></label>` : ''}
<button type="submit">Show</button></form>
${query.sort === 'mrr' && query.currency ? html`<p class="muted">Paying in ${query.currency}, most revenue first: amounts in different currencies are never ranked together.</p>` : ''}
${
  contacts.length
    ? html`<table><thead><tr><th scope="col">Person</th><th scope="col">Plan</th><th scope="col" class="num">Revenue</th><th scope="col" class="num">Posts</th><th scope="col">Source</th><th scope="col">Last seen</th><th scope="col">Added</th></tr></thead>
<tbody>${contacts.map(
        (c) =>
          html`<tr><td><a href="${base}/${c.id}">${c.name ?? c.email ?? c.externalUserId ?? c.id}</a>${c.name && c.email ? html`<br><span class="muted">${c.email}</span>` : ''}</td><td>${c.plan ?? ''}</td><td class="num">${revenue(c)}</td><td class="num">${c.postCount}</td><td>${c.source}</td><td>${when(c.lastSeenAt)}</td><td>${when(c.createdAt)}</td></tr>`,
      )}</tbody></table>`
    : html`<p>No contacts match.</p>`
}
${next ? html`<p class="pager"><a href="${base}?${new URLSearchParams({ q: query.q, plan: query.plan, sort: query.sort, ...(query.currency ? { currency: query.currency } : {}), cursor: next }).toString()}" rel="next">Next page</a></p>` : ''}`;
  return page(frame, body);
}

export function contactPage(frame: Frame, team: Team, a: ContactActivity): string {
  const c = a.contact;
  const base = `${CONSOLE_PATH}/${team.organizationId}`;
  const row = (label: string, value: unknown) =>
    html`<tr><th scope="row">${label}</th><td>${value === null || value === undefined || value === '' ? html`<span class="muted">none</span>` : String(value)}</td></tr>`;
  const metadata = Object.entries(c.metadata);
  const manage = allows(team.role, 'manage');
  const body = html`<p class="crumbs"><a href="${base}/contacts">Contacts</a></p>
<h1>${c.name ?? c.email ?? c.externalUserId ?? c.id}</h1>
<div class="columns"><div>
<h2>Traits</h2>
<table class="facts"><tbody>
${row('Email', c.email)}${row('Name', c.name)}${row('User id in your app', c.externalUserId)}${row('Plan', c.plan)}${row('Revenue', revenue(c))}
${metadata.map(([k, v]) => row(k, typeof v === 'string' ? v : JSON.stringify(v)))}
</tbody></table>
<h2>Provenance and consent</h2>
<table class="facts"><tbody>
<tr><th scope="row">Source</th><td><code>${c.source}</code> <span class="muted">${SOURCES[c.source] ?? ''}</span></td></tr>
<tr><th scope="row">Consent basis</th><td><code>${c.consentBasis}</code> <span class="muted">${BASES[c.consentBasis] ?? ''}</span></td></tr>
<tr><th scope="row">First seen</th><td>${when(c.firstSeenAt)}</td></tr><tr><th scope="row">Last seen</th><td>${when(c.lastSeenAt)}</td></tr>
</tbody></table>
</div><div>
<h2>Posts <span class="muted">(${c.postCount})</span></h2>
${a.posts.length ? html`<ul class="targets">${a.posts.map((p) => html`<li><a href="${base}/posts/${p.id}">${p.title}</a> <span class="muted">${when(p.createdAt)}</span></li>`)}</ul>` : html`<p class="muted">None.</p>`}
<h2>Votes <span class="muted">(${c.voteCount})</span></h2>
${a.votes.length ? html`<ul class="targets">${a.votes.map((v) => html`<li><a href="${base}/posts/${v.postId}">${v.postTitle}</a> <span class="muted">${when(v.createdAt)}</span></li>`)}</ul>` : html`<p class="muted">None.</p>`}
<h2>Comments <span class="muted">(${c.commentCount})</span></h2>
${a.comments.length ? html`<ol class="comments">${a.comments.map((m) => html`<li><div class="body">${m.bodyText}</div><div class="meta"><a href="${base}/posts/${m.postId}">On the post</a> · ${when(m.createdAt)}</div></li>`)}</ol>` : html`<p class="muted">None.</p>`}
</div></div>
${
  manage
    ? html`<section aria-labelledby="requests-h"><h2 id="requests-h">Data-subject requests</h2>
<p><a href="${base}/contacts/${c.id}/export">Export everything held about this person</a> · <a href="${base}/contacts/${c.id}/erase">Erase this person</a></p></section>`
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
  const body = html`<p class="crumbs"><a href="${CONSOLE_PATH}/${team.organizationId}/contacts">Contacts</a></p>
<h1>Add a contact by hand</h1>
<p>The contact’s source is <code>admin</code> and its consent basis <code>admin_created</code>: it gets mail only if the workspace turned on mail to contacts its admins add (Settings), and you attest a lawful basis for keeping and contacting this person.</p>
${state.refused ? html`<p class="error" role="alert" id="contact-error">${state.refused}</p>` : ''}
<form method="post" action="${CONSOLE_PATH}/${team.organizationId}/contacts">${csrfField(frame)}
${field('email', 'Email', html.raw` type="email"`)}
${field('name', 'Name')}
${field('externalUserId', 'User id in your app (optional)')}
${field('plan', 'Plan (optional)')}
<div class="row">${field('mrr', 'Monthly revenue (optional, e.g. 49.00)', html.raw` inputmode="decimal"`)}${field('currency', 'Currency (e.g. USD)', html.raw` size="4" maxlength="3"`)}</div>
<label for="c-attestation">Your attestation: on what lawful basis do you add this person?</label>
<textarea id="c-attestation" name="attestation" rows="3" required${state.refused ? html.raw` aria-describedby="contact-error"` : ''}>${d.attestation ?? ''}</textarea>
<p><button type="submit">Add the contact</button></p>
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
      ? html`<h1>Export ${who}</h1>
<p>A JSON document of everything held about this person in this workspace: their contacts (every contact with their address), posts, votes, comments, mail preferences and what was sent to them. Give it to them when they ask for their data. The export is recorded in the audit log.</p>
<form method="post" action="${action}">${csrfField(frame)}<p><button type="submit">Download the export</button> <a href="${CONSOLE_PATH}/${team.organizationId}/contacts/${c.id}">Cancel</a></p></form>`
      : html`<h1>Erase ${who}</h1>
<p><strong>This cannot be undone.</strong> Every contact with their address is deleted; their name and address are taken off their posts, votes and comments, which stay (anonymous); their address goes on the workspace’s suppression list so it is never mailed again unless they opt in afresh. Webhooks hear <code>contact.deleted</code>.</p>
${refused ? html`<p class="error" role="alert" id="erase-error">${refused}</p>` : ''}
<form method="post" action="${action}">${csrfField(frame)}
<label for="confirm">Type <strong>erase</strong> to confirm</label><input id="confirm" name="confirm" autocomplete="off" required${refused ? html.raw` aria-invalid="true" aria-describedby="erase-error"` : ''}>
<p><button type="submit">Erase this person</button> <a href="${CONSOLE_PATH}/${team.organizationId}/contacts/${c.id}">Cancel</a></p></form>`;
  return page(frame, body, { narrow: true });
}
