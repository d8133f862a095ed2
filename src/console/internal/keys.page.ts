// The API keys page: the keys with their scope and last use, and the portal secret; forms to create, rotate, revoke.

import { type ApiKeyInfo, CONSOLE_PATH, type Team } from '../../engine/index.js';
import { html } from '../../h3/index.js';
import { csrfField, type Frame, page, when } from './layout.js';
import { say, sayHtml } from './words.js';

/** How long a rotated key or secret keeps working, as the forms offer it. */
export const GRACE = [0, 3600, 86_400, 604_800] as const;

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
    html`<label for="${id}" class="inline-label">${say('console.keys.graceLabel')}</label> <select id="${id}" name="grace">${GRACE.map((s) => html`<option value="${s}"${s === 86_400 ? html.raw` selected` : ''}>${say(`console.keys.grace.${s}`)}</option>`)}</select>`;
  const live = (k: ApiKeyInfo) => k.revokedAt === null || Date.parse(k.revokedAt) > now.getTime();
  const state = (k: ApiKeyInfo) =>
    k.revokedAt === null
      ? say('console.keys.active')
      : live(k)
        ? html`<span class="held">${sayHtml('console.keys.rotatedUntil', { until: when(k.revokedAt, 'minute') })}</span>`
        : html`<span class="muted">${sayHtml('console.keys.revokedAt', { at: when(k.revokedAt, 'minute') })}</span>`;
  const body = html`<h1>${say('console.keys.heading')}</h1>
${refused ? html`<p class="error" role="alert">${refused}</p>` : ''}
<section aria-labelledby="keys-h"><h2 id="keys-h">${say('console.keys.keys')}</h2>
<p class="muted">${sayHtml('console.keys.intro')}</p>
${
  keys.length
    ? html`<table><thead><tr><th scope="col">${say('console.keys.key')}</th><th scope="col">${say('console.keys.scope')}</th><th scope="col">${say('console.keys.made')}</th><th scope="col">${say('console.keys.lastUsed')}</th><th scope="col">${say('console.keys.state')}</th><th scope="col"><span class="sr-only">${say('console.keys.actions')}</span></th></tr></thead>
<tbody>${keys.map(
        (k) =>
          html`<tr><td><code>${k.id}</code></td><td>${k.scope}</td><td>${when(k.createdAt, 'minute')}</td><td>${k.lastUsedAt ? when(k.lastUsedAt, 'minute') : html`<span class="muted">${say('console.keys.never')}</span>`}</td><td>${state(k)}</td><td>${
            // A rotated key still in its grace period can be ended now; only an active one is rotated.
            live(k)
              ? html`${k.revokedAt === null ? html`<form method="post" action="${base}/${k.id}/rotate" class="inline">${csrfField(frame)}${graceSelect(`grace-${k.id}`)} <button type="submit" class="secondary">${sayHtml('console.keys.rotate', { key: k.id })}</button></form>` : ''}
<form method="post" action="${base}/${k.id}/revoke" class="inline">${csrfField(frame)}<button type="submit" class="secondary">${sayHtml(k.revokedAt === null ? 'console.keys.revoke' : 'console.keys.endNow', { key: k.id })}</button></form>`
              : ''
          }</td></tr>`,
      )}</tbody></table>`
    : html`<p>${say('console.keys.none')}</p>`
}
<form method="post" action="${base}" class="row">${csrfField(frame)}<label for="scope" class="inline-label">${say('console.keys.newWith')}</label> <select id="scope" name="scope"><option value="read:write">${say('console.keys.scopeWrite')}</option><option value="read">${say('console.keys.scopeRead')}</option></select> <button type="submit">${say('console.keys.create')}</button></form>
</section>
<section aria-labelledby="portal-h"><h2 id="portal-h">${say('console.keys.portal')}</h2>
<p class="muted">${say('console.keys.portalIntro')} ${
    portal.previousValidUntil
      ? sayHtml('console.keys.portalPrevious', { until: when(portal.previousValidUntil, 'minute') })
      : ''
  }</p>
${
  portal.exists
    ? html`<form method="post" action="${base}/portal/rotate" class="row">${csrfField(frame)}${graceSelect('grace-portal')} <button type="submit" class="secondary">${say('console.keys.portalRotate')}</button></form>`
    : html`<form method="post" action="${base}/portal" class="row">${csrfField(frame)}<button type="submit">${say('console.keys.portalCreate')}</button></form>`
}
</section>`;
  return page(frame, body);
}
