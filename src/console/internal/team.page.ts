// The team page (members, roles, invitations) and the audit log page.

import {
  allows,
  CONSOLE_PATH,
  type ConsoleKey,
  consoleEn,
  type HtmlValues,
  TEAM_ROLES,
  type Team,
  type TeamMemberInfo,
  type TeamService,
} from '../../engine/index.js';
import { html, type SafeHtml } from '../../h3/index.js';
import { POST_STATUSES, type PostStatus } from '../../schemas/posts.js';
import { avatar, csrfField, type Frame, page, when } from './layout.js';
import { say, sayHtml } from './words.js';

/** What a role may do, in a few words. */
const roleHelp = (role: (typeof TEAM_ROLES)[number]) => say(`console.team.role.${role}`);

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
        ? html`<form method="post" action="${base}/role" class="inline">${csrfField(frame)}<input type="hidden" name="email" value="${m.email}"><label class="sr-only" for="role-${m.email}">${say('console.team.roleOf', { email: m.email })}</label><select id="role-${m.email}" name="role">${roleOptions(m.role)}</select> <button type="submit" class="secondary">${sayHtml('console.team.change', { email: m.email })}</button></form>`
        : m.role
    }</td>
<td>${m.joinedAt ? when(m.joinedAt) : html`<span class="muted">${say('console.team.invited')}</span>`}</td>
<td>${manages ? html`<form method="post" action="${base}/remove" class="inline">${csrfField(frame)}<input type="hidden" name="email" value="${m.email}"><button type="submit" class="secondary">${sayHtml('console.team.remove', { email: m.email })}</button></form>` : ''}</td></tr>`,
  );
  const invite = manages
    ? html`<section aria-labelledby="invite-h"><h2 id="invite-h">${say('console.team.invite')}</h2>
<form method="post" action="${base}/invite">${csrfField(frame)}
<label for="invite-email">${say('console.team.theirEmail')}</label><input id="invite-email" name="email" type="email" required value="${refused?.drafts.email ?? ''}"${refused ? html.raw` aria-invalid="true" aria-describedby="team-error"` : ''}>
<label for="invite-name">${sayHtml('console.team.name', {})}</label><input id="invite-name" name="name" value="${refused?.drafts.name ?? ''}">
<label for="invite-role">${say('console.team.role')}</label><select id="invite-role" name="role">${roleOptions(refused?.drafts.role ?? 'member')}</select>
<ul class="muted">${TEAM_ROLES.map((r) => html`<li>${sayHtml('console.team.roleHelp', { role: r, help: roleHelp(r) })}</li>`)}</ul>
<p><button type="submit">${say('console.team.send')}</button></p>
</form></section>`
    : '';
  const body = html`<h1>${say('console.team.heading')}</h1>
${refused ? html`<p class="error" role="alert" id="team-error">${refused.message}</p>` : ''}
<table><caption class="muted">${say('console.team.caption', { workspace: team.workspace })}</caption>
<thead><tr><th scope="col">${say('console.team.person')}</th><th scope="col">${say('console.team.role')}</th><th scope="col">${say('console.team.joined')}</th><th scope="col"><span class="sr-only">${say('console.team.actions')}</span></th></tr></thead>
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

/** An entry as a sentence: who did what to which, in the names the team knows (never ids where a name exists). */
function sentence(e: AuditShown, n: AuditNames, orgId: string): Words {
  const d = e.detail as Record<string, unknown>;
  const post = (id: unknown) =>
    typeof id === 'string' && n.posts.has(id)
      ? html`<a href="${CONSOLE_PATH}/${orgId}/posts/${id}" dir="auto">“${n.posts.get(id)}”</a>`
      : say('console.audit.postGone');
  const status = (s: unknown) =>
    typeof s === 'string' && (POST_STATUSES as readonly string[]).includes(s)
      ? html`<strong>${say(`status.${s as PostStatus}`)}</strong>`
      : '';
  const board = (id: unknown) => (typeof id === 'string' ? (n.boards.get(id) ?? say('console.audit.boardGone')) : '');
  const tags = (ids: unknown) => {
    const list = (Array.isArray(ids) ? ids : [ids]).filter((t): t is string => typeof t === 'string');
    return list.length
      ? list.map((t) => say('console.audit.tag', { name: n.tags.get(t) ?? say('console.audit.tagGone') })).join(', ')
      : say('console.audit.noTags');
  };
  const who = (email: unknown) => (typeof email === 'string' ? (n.people.get(email) ?? email) : '');
  const text = (v: unknown) => String(v ?? '');
  const why = (key: ConsoleKey, withReason: ConsoleKey) =>
    typeof d.reason === 'string' ? say(withReason, { reason: d.reason }) : say(key);
  const on = (key: ConsoleKey, values: HtmlValues = {}) => sayHtml(key, { post: post(e.resourceId), ...values });
  const said: Record<string, () => Words> = {
    'post.status_changed': () =>
      on('console.audit.post.status_changed', { from: status(d.from), to: status(d.to), note: d.note ? 'yes' : 'no' }),
    'post.moved': () => on('console.audit.post.moved', { from: board(d.from), to: board(d.to) }),
    'post.tagged': () =>
      d.added
        ? on('console.audit.post.tagged', { tags: tags(d.added) })
        : on('console.audit.post.tagsSet', { tags: tags(d.tagIds) }),
    'post.merged': () => on('console.audit.post.merged', { into: post(d.into) }),
    'post.approved': () => on('console.audit.post.approved'),
    'post.rejected': () => on('console.audit.post.rejected'),
    'post.edited': () => on('console.audit.post.edited'),
    'post.note_added': () => on('console.audit.post.note_added'),
    'post.duplicate_dismissed': () => on('console.audit.post.duplicate_dismissed', { other: post(d.other) }),
    'comment.official_reply': () => sayHtml('console.audit.comment.official_reply', { post: post(d.postId) }),
    'roadmap.ordered': () => sayHtml('console.audit.roadmap.ordered', { status: status(e.resourceId) }),
    'team.member_added': () => say('console.audit.team.member_added', { who: who(e.resourceId), role: text(d.role) }),
    'team.member_removed': () => say('console.audit.team.member_removed', { who: who(e.resourceId) }),
    'team.role_changed': () =>
      say('console.audit.team.role_changed', { who: who(e.resourceId), from: text(d.from), to: text(d.to) }),
    'team.signed_in': () =>
      typeof d.method === 'string'
        ? say('console.audit.team.signed_inWith', {
            method: (METHODS as ReadonlySet<string>).has(d.method)
              ? say(`console.audit.method.${d.method as Method}`)
              : d.method,
          })
        : say('console.audit.team.signed_in'),
    'team.sign_in_failed': () => why('console.audit.team.sign_in_failed', 'console.audit.team.sign_in_failedWhy'),
    'team.sso_configured': () =>
      say('console.audit.team.sso_configured', { issuer: text(d.issuer ?? say('console.audit.team.aProvider')) }),
    'team.sso_refused': () => why('console.audit.team.sso_refused', 'console.audit.team.sso_refusedWhy'),
    'team.sso_domain_verified': () => say('console.audit.team.sso_domain_verified', { domain: text(d.domain) }),
    'team.sso_domain_released': () => say('console.audit.team.sso_domain_released', { domain: text(d.domain) }),
    'api_key.created': () => say('console.audit.api_key.created', { scope: text(d.scope) }),
    'workspace.settings_changed': () =>
      say('console.audit.workspace.settings_changed', {
        fields: Object.keys(d).join(', ') || say('console.audit.none'),
      }),
  };
  const plain = `console.audit.${e.action}` as ConsoleKey;
  if (said[e.action]) return said[e.action]!();
  if (Object.hasOwn(consoleEn, plain)) return say(plain);
  return e.resourceId
    ? sayHtml('console.audit.otherTo', { action: e.action, resource: e.resourceId })
    : sayHtml('console.audit.other', { action: e.action });
}

/** How someone signed in, as the log says it. */
const METHODS = new Set(['code', 'link', 'sso', 'host'] as const);
type Method = 'code' | 'link' | 'sso' | 'host';

export function auditPage(
  frame: Frame,
  team: Team,
  entries: AuditShown[],
  names: AuditNames,
  next: string | null,
): string {
  const body = html`<h1>${say('console.audit.heading')}</h1>
<p class="muted">${say('console.audit.intro')}</p>
${
  entries.length
    ? html`<ol class="audit">${entries.map(
        (e) =>
          html`<li data-action="${e.action}">${avatar(n(names, e.actor))}<div>${sayHtml('console.audit.entry', { who: n(names, e.actor), what: sentence(e, names, team.organizationId) })}<div class="muted">${sayHtml('console.audit.when', { when: when(e.createdAt, 'second') })}${e.actor !== n(names, e.actor) ? say('console.audit.as', { actor: e.actor }) : ''}${e.ip ? say('console.audit.from', { ip: e.ip }) : ''}</div></div></li>`,
      )}</ol>`
    : html`<p>${say('console.audit.nothing')}</p>`
}
${next ? html`<p class="pager"><a href="${CONSOLE_PATH}/${team.organizationId}/audit?cursor=${next}" rel="next">${say('console.audit.older')}</a></p>` : ''}`;
  return page(frame, body);
}

/** Who an actor is called: their name on the team, else their address (the command line's actor as it is). */
const n = (names: AuditNames, actor: string) => names.people.get(actor) ?? actor;
