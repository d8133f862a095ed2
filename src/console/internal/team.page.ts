// The team page (members, roles, invitations) and the audit log page.

import {
  allows,
  CONSOLE_PATH,
  TEAM_ROLES,
  type Team,
  type TeamMemberInfo,
  type TeamService,
} from '../../engine/index.js';
import { html, type SafeHtml } from '../../h3/index.js';
import { POST_STATUS_LABELS, type PostStatus } from '../../schemas/posts.js';
import { avatar, csrfField, type Frame, page, when } from './layout.js';

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

/** What the audit log needs to say an entry in words: the names of the posts, tags, boards and people it names. */
export interface AuditNames {
  posts: Map<string, string>;
  tags: Map<string, string>;
  boards: Map<string, string>;
  /** Team members' names by email. */
  people: Map<string, string>;
}

type Words = SafeHtml | string;

/** How someone signed in, as the log says it. */
const METHODS: Record<string, string> = {
  code: 'with an emailed code',
  link: 'with an emailed link',
  sso: 'with single sign-on',
  host: "through the host's admin",
};

/** An entry as a sentence: who did what to which, in the names the team knows (never ids where a name exists). */
function sentence(e: AuditShown, n: AuditNames, orgId: string): Words {
  const d = e.detail as Record<string, unknown>;
  const post = (id: unknown) =>
    typeof id === 'string' && n.posts.has(id)
      ? html`<a href="${CONSOLE_PATH}/${orgId}/posts/${id}" dir="auto">“${n.posts.get(id)}”</a>`
      : html`a post that is gone`;
  const status = (s: unknown) =>
    typeof s === 'string' && s in POST_STATUS_LABELS
      ? html`<strong>${POST_STATUS_LABELS[s as PostStatus]}</strong>`
      : '';
  const board = (id: unknown) => (typeof id === 'string' ? (n.boards.get(id) ?? 'a board that is gone') : '');
  const tags = (ids: unknown) => {
    const list = (Array.isArray(ids) ? ids : [ids]).filter((t): t is string => typeof t === 'string');
    return list.length ? list.map((t) => `“${n.tags.get(t) ?? 'a tag that is gone'}”`).join(', ') : 'no tags';
  };
  const who = (email: unknown) => (typeof email === 'string' ? (n.people.get(email) ?? email) : '');
  const said: Record<string, () => Words> = {
    'post.status_changed': () =>
      html`moved ${post(e.resourceId)} from ${status(d.from)} to ${status(d.to)}${d.note ? ', with a public note' : ''}`,
    'post.moved': () => html`moved ${post(e.resourceId)} from the board ${board(d.from)} to ${board(d.to)}`,
    'post.tagged': () =>
      d.added
        ? html`tagged ${post(e.resourceId)} ${tags(d.added)}`
        : html`set the tags of ${post(e.resourceId)} to ${tags(d.tagIds)}`,
    'post.merged': () => html`merged ${post(e.resourceId)} into ${post(d.into)}`,
    'post.approved': () => html`approved ${post(e.resourceId)}`,
    'post.rejected': () => html`rejected ${post(e.resourceId)} as spam`,
    'post.edited': () => html`edited ${post(e.resourceId)}`,
    'post.note_added': () => html`added an internal note to ${post(e.resourceId)}`,
    'post.duplicate_dismissed': () => html`said ${post(e.resourceId)} and ${post(d.other)} are not duplicates`,
    'comment.official_reply': () => html`replied as the team on ${post(d.postId)}`,
    'roadmap.ordered': () => html`reordered the roadmap's ${status(e.resourceId)} column`,
    'team.member_added': () => html`added ${who(e.resourceId)} to the team as ${String(d.role ?? '')}`,
    'team.member_removed': () => html`removed ${who(e.resourceId)} from the team`,
    'team.role_changed': () =>
      html`changed ${who(e.resourceId)}'s role from ${String(d.from ?? '')} to ${String(d.to ?? '')}`,
    'team.signed_in': () => `signed in${typeof d.method === 'string' ? ` (${METHODS[d.method] ?? d.method})` : ''}`,
    'team.sign_in_failed': () => `failed to sign in${typeof d.reason === 'string' ? `: ${d.reason}` : ''}`,
    'team.sso_configured': () => `set up single sign-on with ${String(d.issuer ?? 'a provider')}`,
    'team.sso_removed': () => 'removed single sign-on',
    'team.sso_required': () => 'required single sign-on for the team',
    'team.sso_not_required': () => 'stopped requiring single sign-on',
    'team.sso_refused': () => `was refused single sign-on${typeof d.reason === 'string' ? `: ${d.reason}` : ''}`,
    'team.sso_domain_verified': () => `verified the domain ${String(d.domain ?? '')} for single sign-on`,
    'team.sso_domain_released': () => `released the domain ${String(d.domain ?? '')}`,
    'api_key.created': () => `created an API key (${String(d.scope ?? '')})`,
    'api_key.revoked': () => 'revoked an API key',
    'api_key.rotated': () => 'rotated an API key',
    'portal_secret.created': () => "created the portal's sign-in secret",
    'portal_secret.rotated': () => "rotated the portal's sign-in secret",
    'webhook.created': () => 'added a webhook',
    'webhook.updated': () => 'changed a webhook',
    'webhook.deleted': () => 'deleted a webhook',
    'webhook.enabled': () => 'turned a webhook on',
    'webhook.disabled': () => 'turned a webhook off',
    'webhook.delivery_replayed': () => 'sent a webhook delivery again',
    'changelog.drafted': () => 'drafted a changelog entry',
    'changelog.edited': () => 'edited a changelog draft',
    'changelog.published': () => 'published a changelog entry',
    'contact.created': () => 'added a contact',
    'contact.exported': () => "exported a contact's data",
    'contact.erased': () => 'erased a contact',
    'workspace.settings_changed': () => `changed the settings (${Object.keys(d).join(', ') || 'none'})`,
  };
  return said[e.action]?.() ?? html`did <code>${e.action}</code>${e.resourceId ? ` to ${e.resourceId}` : ''}`;
}

export function auditPage(
  frame: Frame,
  team: Team,
  entries: AuditShown[],
  names: AuditNames,
  next: string | null,
): string {
  const body = html`<h1>Audit log</h1>
<p class="muted">Everything the team did in the console or with the command line, newest first.</p>
${
  entries.length
    ? html`<ol class="audit">${entries.map(
        (e) =>
          html`<li data-action="${e.action}">${avatar(n(names, e.actor))}<div><strong>${n(names, e.actor)}</strong> ${sentence(e, names, team.organizationId)}.<div class="muted">${when(e.createdAt, 'second')} UTC${e.actor !== n(names, e.actor) ? ` · ${e.actor}` : ''}${e.ip ? ` · from ${e.ip}` : ''}</div></div></li>`,
      )}</ol>`
    : html`<p>Nothing yet.</p>`
}
${next ? html`<p class="pager"><a href="${CONSOLE_PATH}/${team.organizationId}/audit?cursor=${next}" rel="next">Older entries</a></p>` : ''}`;
  return page(frame, body);
}

/** Who an actor is called: their name on the team, else their address (the command line's actor as it is). */
const n = (names: AuditNames, actor: string) => names.people.get(actor) ?? actor;
