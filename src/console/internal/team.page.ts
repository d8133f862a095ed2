// The team page (members, roles, invitations) and the audit log page.
import { html } from '@remix-run/html-template';
import {
  allows,
  CONSOLE_PATH,
  TEAM_ROLES,
  type Team,
  type TeamMemberInfo,
  type TeamService,
} from '../../engine/index.js';
import { csrfField, type Frame, page, when } from './layout.js';

export const ROLE_HELP: Record<string, string> = {
  owner: 'everything, including the team’s owners',
  admin: 'everything but the team’s owners',
  member: 'triage: posts, comments, statuses',
  viewer: 'read only',
};

export const roleOptions = (selected: string) =>
  TEAM_ROLES.map((r) => html`<option value="${r}"${r === selected ? html.raw` selected` : ''}>${r}</option>`);

export function teamPage(
  frame: Frame,
  team: Team,
  members: TeamMemberInfo[],
  refused: { message: string; drafts: Record<string, string> } | null,
): string {
  const base = `${CONSOLE_PATH}/${team.organizationId}/team`;
  const manages = allows(team.role, 'manage');
  const rows = members.map(
    (m) => html`<tr><td>${m.name ? html`${m.name}<br><span class="muted">${m.email}</span>` : m.email}</td>
<td>${
      manages
        ? html`<form method="post" action="${base}/role" class="inline">${csrfField(frame)}<input type="hidden" name="email" value="${m.email}"><label class="sr-only" for="role-${m.email}">Role of ${m.email}</label><select id="role-${m.email}" name="role">${roleOptions(m.role)}</select> <button type="submit" class="secondary">Change<span class="sr-only"> the role of ${m.email}</span></button></form>`
        : m.role
    }</td>
<td>${m.joinedAt ? when(m.joinedAt) : html`<span class="muted">invited</span>`}</td>
<td>${manages ? html`<form method="post" action="${base}/remove" class="inline">${csrfField(frame)}<input type="hidden" name="email" value="${m.email}"><button type="submit" class="secondary">Remove<span class="sr-only"> ${m.email}</span></button></form>` : ''}</td></tr>`,
  );
  const invite = manages
    ? html`<section aria-labelledby="invite-h"><h2 id="invite-h">Invite someone</h2>
<form method="post" action="${base}/invite">${csrfField(frame)}
<label for="invite-email">Their work email</label><input id="invite-email" name="email" type="email" required value="${refused?.drafts.email ?? ''}"${refused ? html.raw` aria-invalid="true" aria-describedby="team-error"` : ''}>
<label for="invite-name">Name <span class="muted">(optional: signs their official replies)</span></label><input id="invite-name" name="name" value="${refused?.drafts.name ?? ''}">
<label for="invite-role">Role</label><select id="invite-role" name="role">${roleOptions(refused?.drafts.role ?? 'member')}</select>
<ul class="muted">${TEAM_ROLES.map((r) => html`<li><strong>${r}</strong>: ${ROLE_HELP[r]}</li>`)}</ul>
<p><button type="submit">Send invitation</button></p>
</form></section>`
    : '';
  const body = html`<h1>Team</h1>
${refused ? html`<p class="error" role="alert" id="team-error">${refused.message}</p>` : ''}
<table><caption class="muted">Who works on ${team.workspace}'s feedback</caption>
<thead><tr><th scope="col">Person</th><th scope="col">Role</th><th scope="col">Joined</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
<tbody>${rows}</tbody></table>
${invite}`;
  return page(frame, body);
}

/** One entry of the audit log, as the team service reads it. */
export type AuditShown = Awaited<ReturnType<TeamService['auditLog']>>['data'][number];

/** The post ids an entry names (its resource, and values of its detail such as a merge's `into` or a roadmap's order). */
export const postIdsOf = (e: AuditShown) =>
  [e.resourceId, ...Object.values(e.detail).flat()].filter(
    (v): v is string => typeof v === 'string' && v.startsWith('post_'),
  );

export function auditPage(
  frame: Frame,
  team: Team,
  entries: AuditShown[],
  titles: Map<string, string>,
  next: string | null,
): string {
  const named = (v: unknown): string =>
    typeof v === 'string'
      ? titles.has(v)
        ? `“${titles.get(v)}”`
        : v
      : Array.isArray(v)
        ? v.map(named).join(', ')
        : JSON.stringify(v);
  const detail = (d: Record<string, unknown>) =>
    Object.entries(d)
      .map(([k, v]) => `${k}: ${named(v)}`)
      .join(', ');
  const body = html`<h1>Audit log</h1>
<p class="muted">Everything the team did in the console or with the command line, newest first.</p>
${
  entries.length
    ? html`<table class="audit"><thead><tr><th scope="col">When (UTC)</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Which</th><th scope="col">Detail</th><th scope="col">From</th></tr></thead>
<tbody>${entries.map(
        (e) =>
          html`<tr><td class="when">${when(e.createdAt, 'second')}</td><td class="long">${e.actor}</td><td class="when"><code>${e.action}</code></td><td class="long">${
            e.resourceType === 'post' && e.resourceId
              ? html`<a href="${CONSOLE_PATH}/${team.organizationId}/posts/${e.resourceId}">${titles.get(e.resourceId) ?? e.resourceId}</a>`
              : (e.resourceId ?? '')
          }</td><td class="long">${detail(e.detail)}</td><td class="when">${e.ip ?? ''}</td></tr>`,
      )}</tbody></table>`
    : html`<p>Nothing yet.</p>`
}
${next ? html`<p class="pager"><a href="${CONSOLE_PATH}/${team.organizationId}/audit?cursor=${next}" rel="next">Older entries</a></p>` : ''}`;
  return page(frame, body);
}
