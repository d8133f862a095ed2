import {
  allows,
  CONSOLE_PATH,
  type ConsoleKey,
  type Impact,
  type SectionCounts,
  type Team,
  type TeamIdentity,
} from '../../engine/index.js';
import { asset, html, initials, readPackagedFile, respond, type SafeHtml, THEME_SCRIPT } from '../../h3/index.js';
import type { PostStatus } from '../../schemas/posts.js';
import { CONSOLE_CSS } from './styles.js';
import { say, sayHtml } from './words.js';

export const STYLESHEET = asset('console', 'css', 'text/css; charset=utf-8', CONSOLE_CSS);
/** The console's browser script (src/console/browser/console.js, type-checked and linted as the sources are). */
const CONSOLE_JS = readPackagedFile('console.js', import.meta.url, new URL('../browser/console.js', import.meta.url));
export const SCRIPT = asset('console', 'js', 'text/javascript; charset=utf-8', CONSOLE_JS);
/** The design system's theme script (applies the chosen theme before the page is drawn; runs the toggle). */
export const THEME = THEME_SCRIPT;

/** A post's status as a coloured pill (the design system's colour for it). */
export const pill = (status: PostStatus): SafeHtml =>
  html`<span class="pill s-${status}">${say(`status.${status}`)}</span>`;

/** A person's initials in a circle; decorative (the name is written beside it). */
export const avatar = (name: string): SafeHtml =>
  html`<span class="avatar" aria-hidden="true">${initials(name)}</span>`;

/** What every console page is framed with: who is signed in, the workspace in view, the anti-forgery token. */
export interface Frame {
  title: string;
  csrf: string;
  identity?: TeamIdentity | null;
  team?: Team | null;
  /** The section of the bar the page is in. */
  section?: Section;
  /** Embedded in a host's admin: the host signs people in and out. */
  embedded?: boolean;
  notice?: string | null;
  /** What the navigation counts beside its sections (read once per page by the site, for a member). */
  counts?: SectionCounts | null;
}

/** An amount of money in cents, written the way its currency is (`$1,200.00`, `€99.00`). */
export const money = (cents: number, currency: string): string => {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency}`;
  }
};

/** A time as the console shows it (UTC): the day, to the minute, or to the second; the full instant in `datetime`. */
export const when = (iso: string, precision: 'day' | 'minute' | 'second' = 'day'): SafeHtml =>
  html`<time datetime="${iso}">${iso.slice(0, { day: 10, minute: 16, second: 19 }[precision]).replace('T', ' ')}</time>`;

export const csrfField = (frame: Pick<Frame, 'csrf'>): SafeHtml =>
  html`<input type="hidden" name="csrf" value="${frame.csrf}">`;

/** The console's sections, as the bar lists them. */
export type Section =
  | 'posts'
  | 'roadmap'
  | 'changelog'
  | 'contacts'
  | 'companies'
  | 'webhooks'
  | 'integrations'
  | 'keys'
  | 'settings'
  | 'team'
  | 'audit';
const SECTIONS: Array<{ id: Section; manage?: true; signIn?: true }> = [
  { id: 'posts' },
  { id: 'roadmap' },
  { id: 'changelog' },
  { id: 'contacts' },
  { id: 'companies' },
  { id: 'webhooks', manage: true },
  { id: 'integrations', manage: true },
  { id: 'keys', manage: true },
  { id: 'settings', manage: true },
  { id: 'team', signIn: true },
  { id: 'audit', manage: true },
];

/** What a section's count says, and whether it wants attention (something waits for the team). */
function countOf(
  id: Section,
  counts: SectionCounts | null | undefined,
): { text: string; label: string; attention: boolean } | null {
  if (!counts) return null;
  const n = {
    posts: [counts.held, 'console.count.held', true],
    changelog: [counts.drafts, 'console.count.drafts', false],
    webhooks: [counts.webhooksOff, 'console.count.webhooksOff', true],
    keys: [counts.keys, 'console.count.keys', false],
    team: [counts.members, 'console.count.members', false],
  }[id as string] as [number, ConsoleKey, boolean] | undefined;
  if (!n || n[0] === 0) return null;
  const shown = n[0] >= 100 ? '99+' : String(n[0]);
  return { text: shown, label: say(n[1], { count: n[0], shown }), attention: n[2] };
}

/** The navigation: the sections owners and admins have for them; the team for the console's own sign-in (a host has its own). */
function sections(frame: Frame, team: Team): SafeHtml {
  const items = SECTIONS.filter(
    (s) => (!s.manage || allows(team.role, 'manage')) && (!s.signIn || frame.embedded !== true),
  );
  return html`<nav aria-label="${say('console.sections')}"><ul>${items.map((s) => {
    const c = countOf(s.id, frame.counts);
    return html`<li><a href="${CONSOLE_PATH}/${team.organizationId}/${s.id}"${s.id === frame.section ? html.raw` aria-current="page"` : ''}><span>${say(`console.section.${s.id}`)}</span>${c ? html`<span class="count${c.attention ? ' attention' : ''}"><span aria-hidden="true">${c.text}</span><span class="sr-only">${c.label}</span></span>` : ''}</a></li>`;
  })}</ul></nav>`;
}

const themeToggle = html`<button type="button" class="theme-toggle" data-theme-toggle hidden>${say('console.theme')}</button>`;

/** The side bar of a signed-in page: the workspace, the sections with their counts, who is signed in. */
function sidebar(frame: Frame, identity: TeamIdentity): SafeHtml {
  const team = frame.team;
  const who = html`<span class="me">${avatar(identity.email)}<span class="email muted">${identity.email}${team ? ` · ${team.role}` : ''}</span></span>`;
  const account = frame.embedded
    ? html`<div class="who">${who}${themeToggle}</div>`
    : html`<div class="who">${who}${identity.teams.length > 1 ? html`<a href="${CONSOLE_PATH}/">${say('console.switchWorkspace')}</a>` : ''}<form method="post" action="${CONSOLE_PATH}/sign-out">${csrfField(frame)}<button type="submit" class="link">${say('console.signOut')}</button></form>${themeToggle}</div>`;
  return html`<aside class="sidebar">
<a class="name" href="${CONSOLE_PATH}/">${team ? team.workspace : say('console.name')}</a>
${team ? sections(frame, team) : ''}
${account}
</aside>`;
}

/** The document every console page is: head, skip link, the side bar (or a plain bar before signing in), the content. */
export function page(frame: Frame, main: SafeHtml, options: { narrow?: boolean; refreshTo?: string } = {}): string {
  const content = html`<main id="main"${options.narrow ? html.raw` class="narrow"` : ''}>
${frame.notice ? html`<p class="notice" role="status">${frame.notice}</p>` : ''}
${main}
</main>`;
  const body = frame.identity
    ? html`<div class="shell">${sidebar(frame, frame.identity)}${content}</div>`
    : html`<header class="bar"><span class="name">${say('console.name')}</span>${themeToggle}</header>${content}`;
  return String(html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${say('console.title', { page: frame.title })}</title>
${options.refreshTo ? html`<meta http-equiv="refresh" content="0;url=${options.refreshTo}">` : ''}
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${CONSOLE_PATH}/assets/${STYLESHEET.name}">
<script src="${CONSOLE_PATH}/assets/${THEME.name}"></script>
<script src="${CONSOLE_PATH}/assets/${SCRIPT.name}" defer></script>
</head>
<body>
<a class="skip" href="#main">${say('console.skip')}</a>
${body}
</body>
</html>
`);
}

export const message = (frame: Frame, heading: string, text: string, link?: { href: string; label: string }) =>
  page(
    { ...frame, title: heading },
    html`<h1>${heading}</h1><p>${text}</p>${link ? html`<p><a href="${link.href}">${link.label}</a></p>` : ''}`,
    { narrow: true },
  );

/**
 * The page a new secret is shown on, once (a webhook's signing secret, an API key, a portal secret): never cached,
 * never shown again (only a digest or a sealed copy is kept).
 */
export function shownOnce(
  frame: Frame,
  secret: string,
  hint: string,
  next: { href: string; label: string },
  cookies: string[],
): Response {
  const body = html`<h1>${frame.title}</h1>
<p>${sayHtml('console.shownOnce')}</p>
<p><label for="secret">${say('console.secret')}</label><input id="secret" class="secret" readonly value="${secret}" size="70"></p>
<p class="muted">${hint}</p>
<p><a href="${next.href}">${next.label}</a></p>`;
  return respond(200, page(frame, body), cookies, { 'cache-control': 'no-store' });
}

/** Who a post's impact comes from: "6 companies and 3 people", "1 company", "2 people". */
export const payersText = (i: Impact) => {
  const values = { companies: i.payingCompanies, people: i.payingPeople };
  if (i.payingCompanies && i.payingPeople) return say('console.payers.both', values);
  if (i.payingCompanies) return say('console.payers.companies', values);
  return i.payingPeople ? say('console.payers.people', values) : '';
};
