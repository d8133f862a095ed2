import { html } from '@remix-run/html-template';
import { getRouterParams, type H3 } from 'h3';
import { type ApiKeyInfo, CONSOLE_PATH, FeedbackError, type Team } from '../../engine/index.js';
import { htmlResponse } from '../../h3/index.js';
import { csrfField, type Frame, page, shownOnce, when } from './layout.js';
import { type ConsoleSite, type ConsoleVisit, statusOf } from './site.js';

/** How long a rotated key or secret keeps working, as the forms offer it. */
const GRACE: Array<[seconds: number, label: string]> = [
  [0, 'not at all (ends now)'],
  [3600, 'for 1 hour'],
  [86_400, 'for 24 hours'],
  [604_800, 'for 7 days'],
];
const graceOf = (form: URLSearchParams) => {
  const seconds = Number(form.get('grace'));
  if (!GRACE.some(([s]) => s === seconds))
    throw new FeedbackError('ERR_VALIDATION', 'Choose how long the old one keeps working.');
  return seconds;
};

const DONE: Record<string, string> = { revoked: 'Key revoked: requests with it are refused from now on.' };

function keysPage(
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

/** API keys (list, create, revoke, rotate with a grace period) and the portal secret (create, rotate): owners and admins. */
export function mountKeys(router: H3, site: ConsoleSite): void {
  const path = `${CONSOLE_PATH}/:org/keys`;
  const back = (team: Team) => `${CONSOLE_PATH}/${team.organizationId}/keys`;
  const render = async (
    v: ConsoleVisit,
    team: Team,
    notice: string | null,
    refused: string | null = null,
    status = 200,
  ) => {
    const [keys, portal] = await Promise.all([
      site.engine.keys.list(team.organizationId),
      site.engine.workspace(team.organizationId).participation.secret.state(),
    ]);
    const frame: Frame = { ...v.frame, title: 'API keys', section: 'keys', team, notice };
    return htmlResponse(status, keysPage(frame, team, keys, portal, site.engine.clock(), refused), v.cookies);
  };
  const refused = (m: { v: ConsoleVisit; team: Team }, err: FeedbackError) =>
    render(m.v, m.team, null, err.message, statusOf(err));
  const next = (team: Team) => ({ href: back(team), label: 'Back to the keys' });
  router.get(path, async (event) => {
    const m = await site.manager(event);
    if (m instanceof Response) return m;
    const done = event.url.searchParams.get('done');
    return render(m.v, m.team, done ? (DONE[done] ?? null) : null);
  });
  router.post(path, (event) =>
    site.act(
      event,
      back,
      async ({ form, team, actor, v }) => {
        const scope = form.get('scope');
        if (scope !== 'read' && scope !== 'read:write')
          throw new FeedbackError('ERR_VALIDATION', 'Choose the key’s scope.');
        const key = await site.engine.workspace(team.organizationId).as(actor).keys.create(scope);
        return shownOnce(
          { ...v.frame, title: 'API key created', section: 'keys', team },
          key.key,
          `Scope ${key.scope}. Keep it in your backend’s secrets, never in a browser.`,
          next(team),
          v.cookies,
        );
      },
      refused,
    ),
  );
  router.post(`${path}/:key/rotate`, (event) =>
    site.act(
      event,
      back,
      async ({ form, team, actor, v }) => {
        const key = await site.engine
          .workspace(team.organizationId)
          .as(actor)
          .keys.rotate(getRouterParams(event).key ?? '', graceOf(form));
        return shownOnce(
          { ...v.frame, title: 'API key rotated', section: 'keys', team },
          key.key,
          `The new key replaces ${key.replaces}, which works until ${key.previousValidUntil.slice(0, 16).replace('T', ' ')} UTC.`,
          next(team),
          v.cookies,
        );
      },
      refused,
    ),
  );
  router.post(`${path}/:key/revoke`, (event) =>
    site.act(
      event,
      back,
      async ({ team, actor }) => {
        await site.engine
          .workspace(team.organizationId)
          .as(actor)
          .keys.revoke(getRouterParams(event).key ?? '');
        return 'revoked';
      },
      refused,
    ),
  );
  router.post(`${path}/portal`, (event) =>
    site.act(
      event,
      back,
      async ({ team, actor, v }) => {
        const { secret } = await site.engine.workspace(team.organizationId).as(actor).portalSecret.create();
        return shownOnce(
          { ...v.frame, title: 'Portal secret created', section: 'keys', team },
          secret,
          'Your backend signs portal sign-in tokens with it (HS256; the whole string is the key).',
          next(team),
          v.cookies,
        );
      },
      refused,
    ),
  );
  router.post(`${path}/portal/rotate`, (event) =>
    site.act(
      event,
      back,
      async ({ form, team, actor, v }) => {
        const rotated = await site.engine.workspace(team.organizationId).as(actor).portalSecret.rotate(graceOf(form));
        const until = rotated.previousValidUntil
          ? `The old one verifies until ${rotated.previousValidUntil.slice(0, 16).replace('T', ' ')} UTC.`
          : 'The old one no longer verifies.';
        return shownOnce(
          { ...v.frame, title: 'Portal secret rotated', section: 'keys', team },
          rotated.secret,
          until,
          next(team),
          v.cookies,
        );
      },
      refused,
    ),
  );
}
