// The API keys page: the keys with their scope and last use, and the portal secret; forms to create, rotate, revoke.

import { type ApiKeyInfo, CONSOLE_PATH, type Team } from '../../engine/index.js';
import { html } from '../../h3/index.js';
import { csrfField, type Frame, page, when } from './layout.js';

/** How long a rotated key or secret keeps working, as the forms offer it. */
export const GRACE: Array<[seconds: number, label: string]> = [
  [0, 'not at all (ends now)'],
  [3600, 'for 1 hour'],
  [86_400, 'for 24 hours'],
  [604_800, 'for 7 days'],
];

export function keysPage(
  frame: Frame,
  team: Team,
  keys: ApiKeyInfo[],
  portal: { exists: boolean; previousValidUntil: string | null },
  now: Date,
  refused: string | null,
): string {
  const base = `${CONSOLE_PATH}/${team.organizationId}/keys`;
  const graceSelect = (id: string) =>
    html`<label for="${id}" class="inline-label">Old one keeps working</label> <select id="${id}" name="grace">${GRACE.map(([s, label]) => html`<option value="${s}"${s === 86_400 ? html.raw` selected` : ''}>${label}</option>`)}</select>`;
  const live = (k: ApiKeyInfo) => k.revokedAt === null || Date.parse(k.revokedAt) > now.getTime();
  const state = (k: ApiKeyInfo) =>
    k.revokedAt === null
      ? 'Active'
      : live(k)
        ? html`<span class="held">Rotated: works until ${when(k.revokedAt, 'minute')}</span>`
        : html`<span class="muted">Revoked ${when(k.revokedAt, 'minute')}</span>`;
  const body = html`<h1>API keys and portal secret</h1>
${refused ? html`<p class="error" role="alert">${refused}</p>` : ''}
<section aria-labelledby="keys-h"><h2 id="keys-h">API keys</h2>
<p class="muted">Your backend calls the REST API with a key (<code>Authorization: Bearer fsk_...</code>). Only a digest is stored: a key is shown once, when it is made.</p>
${
  keys.length
    ? html`<table><thead><tr><th scope="col">Key</th><th scope="col">Scope</th><th scope="col">Made</th><th scope="col">Last used</th><th scope="col">State</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
<tbody>${keys.map(
        (k) =>
          html`<tr><td><code>${k.id}</code></td><td>${k.scope}</td><td>${when(k.createdAt, 'minute')}</td><td>${k.lastUsedAt ? when(k.lastUsedAt, 'minute') : html`<span class="muted">never</span>`}</td><td>${state(k)}</td><td>${
            // A rotated key still in its grace period can be ended now; only an active one is rotated.
            live(k)
              ? html`${k.revokedAt === null ? html`<form method="post" action="${base}/${k.id}/rotate" class="inline">${csrfField(frame)}${graceSelect(`grace-${k.id}`)} <button type="submit" class="secondary">Rotate<span class="sr-only"> ${k.id}</span></button></form>` : ''}
<form method="post" action="${base}/${k.id}/revoke" class="inline">${csrfField(frame)}<button type="submit" class="secondary">${k.revokedAt === null ? 'Revoke' : 'End now'}<span class="sr-only"> ${k.id}</span></button></form>`
              : ''
          }</td></tr>`,
      )}</tbody></table>`
    : html`<p>No keys yet.</p>`
}
<form method="post" action="${base}" class="row">${csrfField(frame)}<label for="scope" class="inline-label">New key with scope</label> <select id="scope" name="scope"><option value="read:write">read:write (identify, create, change)</option><option value="read">read (read only)</option></select> <button type="submit">Create key</button></form>
</section>
<section aria-labelledby="portal-h"><h2 id="portal-h">Portal secret</h2>
<p class="muted">Your backend signs end-users into the portal with it (a token it mints, HS256). ${
    portal.previousValidUntil
      ? html`The secret it replaced still verifies until ${when(portal.previousValidUntil, 'minute')}.`
      : ''
  }</p>
${
  portal.exists
    ? html`<form method="post" action="${base}/portal/rotate" class="row">${csrfField(frame)}${graceSelect('grace-portal')} <button type="submit" class="secondary">Rotate the portal secret</button></form>`
    : html`<form method="post" action="${base}/portal" class="row">${csrfField(frame)}<button type="submit">Create the portal secret</button></form>`
}
</section>`;
  return page(frame, body);
}
