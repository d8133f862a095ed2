import { html, type SafeHtml } from '@remix-run/html-template';
import { CONSOLE_PATH, allows, type Team, type TeamIdentity } from '../../engine/index.js';
import { asset } from '../../h3/index.js';
import { CONSOLE_JS } from './script.js';
import { CONSOLE_CSS } from './styles.js';

export const STYLESHEET = asset('console', 'css', 'text/css; charset=utf-8', CONSOLE_CSS);
export const SCRIPT = asset('console', 'js', 'text/javascript; charset=utf-8', CONSOLE_JS);

/** What every console page is framed with: who is signed in, the workspace in view, the anti-forgery token. */
export interface Frame {
  title: string;
  csrf: string;
  identity?: TeamIdentity | null;
  team?: Team | null;
  /** The section of the bar the page is in. */
  section?: 'posts' | 'team' | 'audit';
  notice?: string | null;
}

/** An amount of money in cents, written the way its currency is (`$1,200.00`, `€99.00`). */
export const money = (cents: number, currency: string): string => {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency}`;
  }
};

export const csrfField = (frame: Pick<Frame, 'csrf'>): SafeHtml => html`<input type="hidden" name="csrf" value="${frame.csrf}">`;

/** The bar's sections; the audit log for those who may read it. */
function sections(team: Team, current: Frame['section']): SafeHtml {
  const items: Array<[NonNullable<Frame['section']>, string]> = [['posts', 'Posts'], ['team', 'Team'], ...(allows(team.role, 'manage') ? [['audit', 'Audit log'] as ['audit', string]] : [])];
  return html`<nav aria-label="Sections"><ul>${items.map(([id, label]) => html`<li><a href="${CONSOLE_PATH}/${team.organizationId}/${id}"${id === current ? html.raw` aria-current="page"` : ''}>${label}</a></li>`)}</ul></nav>`;
}

/** The document every console page is: head, skip link, the bar (workspace, sections, who, sign out), the content. */
export function page(frame: Frame, main: SafeHtml, options: { narrow?: boolean; refreshTo?: string } = {}): string {
  const team = frame.team;
  const bar = frame.identity
    ? html`<header class="bar">
<a class="name" href="${CONSOLE_PATH}/">${team ? team.workspace : 'Feedback console'}</a>
${team ? sections(team, frame.section) : ''}
<form method="post" action="${CONSOLE_PATH}/sign-out">${csrfField(frame)}<span class="muted">${frame.identity.email}${team ? ` · ${team.role}` : ''}</span> ${
        frame.identity.teams.length > 1 ? html`<a href="${CONSOLE_PATH}/">Switch workspace</a> ` : ''
      }<button type="submit" class="link">Sign out</button></form>
</header>`
    : html`<header class="bar"><span class="name">Feedback console</span></header>`;
  return String(html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${frame.title} · Feedback console</title>
${options.refreshTo ? html`<meta http-equiv="refresh" content="0;url=${options.refreshTo}">` : ''}
<link rel="stylesheet" href="${CONSOLE_PATH}/assets/${STYLESHEET.name}">
<script src="${CONSOLE_PATH}/assets/${SCRIPT.name}" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
${bar}
<main id="main"${options.narrow ? html.raw` class="narrow"` : ''}>
${frame.notice ? html`<p class="notice" role="status">${frame.notice}</p>` : ''}
${main}
</main>
</body>
</html>
`);
}

export const message = (frame: Frame, heading: string, text: string, link?: { href: string; label: string }) =>
  page({ ...frame, title: heading }, html`<h1>${heading}</h1><p>${text}</p>${link ? html`<p><a href="${link.href}">${link.label}</a></p>` : ''}`, { narrow: true });
